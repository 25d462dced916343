// The shipped code's import graph, read from the import lines themselves, so the layout checks need no tool beyond the repository.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');
export const SOURCE_FOLDERS = ['nodes', 'credentials'];

export function sourceFiles(folder: string): string[] {
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return /\.ts$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [full] : [];
	});
}

/** Every relative module a file names in `import … from`, `import type … from`, `export … from`, `import '…'` and `import('…')`. */
export function relativeSpecifiers(source: string): string[] {
	const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
	const found = new Set<string>();
	for (const m of withoutComments.matchAll(
		/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
	))
		found.add(m[1]);
	for (const m of withoutComments.matchAll(/\bimport\s*(?:\(\s*)?['"]([^'"]+)['"]/g))
		found.add(m[1]);
	return [...found].filter((specifier) => specifier.startsWith('.'));
}

export function resolveModule(fromFile: string, specifier: string): string | undefined {
	const base = path.resolve(path.dirname(fromFile), specifier);
	return [`${base}.ts`, path.join(base, 'index.ts'), base].find(
		(candidate) => candidate.endsWith('.ts') && fs.existsSync(candidate),
	);
}

/** The import graph: each file and the files it imports. */
export function importGraph(files: string[]): Map<string, string[]> {
	return new Map(
		files.map((file) => [
			file,
			relativeSpecifiers(fs.readFileSync(file, 'utf8'))
				.map((specifier) => resolveModule(file, specifier))
				.filter((target): target is string => target !== undefined),
		]),
	);
}

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (node: string) => {
		index.set(node, counter);
		low.set(node, counter);
		counter++;
		stack.push(node);
		onStack.add(node);
		for (const next of graph.get(node) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(node, Math.min(low.get(node)!, low.get(next)!));
			} else if (onStack.has(next)) {
				low.set(node, Math.min(low.get(node)!, index.get(next)!));
			}
		}
		if (low.get(node) === index.get(node)) {
			const component: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				component.push(member);
			} while (member !== node);
			if (component.length > 1 || (graph.get(node) ?? []).includes(node))
				found.push(component.sort());
		}
	};
	for (const node of graph.keys()) if (!index.has(node)) visit(node);
	return found;
}
