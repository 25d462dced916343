// Every relative link and #anchor in README.md, CHANGELOG.md and docs/**/*.md resolves, and the
// README stays short enough to read in five minutes. Anchors follow GitHub's heading slugs.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { anchors, slug } from './githubAnchors';

const ROOT = path.join(__dirname, '..', '..');
const README_MAX_LINES = 300;

/** The lines outside fenced code blocks, with inline code spans blanked. */
function proseLines(markdown: string): string[] {
	const out: string[] = [];
	let fence: string | null = null;
	for (const line of markdown.split('\n')) {
		const opener = /^\s*(```+|~~~+)/.exec(line);
		if (fence) {
			if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = null;
			out.push('');
			continue;
		}
		if (opener) {
			fence = opener[1];
			out.push('');
			continue;
		}
		out.push(line.replace(/(`+)[^`]*?\1/g, (m) => ' '.repeat(m.length)));
	}
	return out;
}

/** Every link and image target in the prose: [text](target) and ![alt](target). */
export function linkTargets(markdown: string): Array<{ line: number; target: string }> {
	const out: Array<{ line: number; target: string }> = [];
	proseLines(markdown).forEach((text, i) => {
		for (const m of text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g))
			out.push({ line: i + 1, target: m[1] });
	});
	return out;
}

/** The broken links of one markdown file, as "file:line target (why)". */
export function brokenLinks(
	file: string,
	readFile = (f: string) => fs.readFileSync(f, 'utf8'),
	exists = (f: string) => fs.existsSync(f),
): string[] {
	const broken: string[] = [];
	const rel = path.relative(ROOT, file);
	for (const { line, target } of linkTargets(readFile(file))) {
		if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
		const [rawPath, anchor] = target.split('#', 2);
		const targetPath = rawPath
			? path.resolve(path.dirname(file), decodeURIComponent(rawPath))
			: file;
		if (!rawPath && anchor === undefined) {
			broken.push(`${rel}:${line} ${target} (empty link)`);
			continue;
		}
		if (!exists(targetPath)) {
			broken.push(`${rel}:${line} ${target} (no such file: ${path.relative(ROOT, targetPath)})`);
			continue;
		}
		if (anchor === undefined || anchor === '') continue;
		if (!targetPath.endsWith('.md')) {
			broken.push(`${rel}:${line} ${target} (an anchor into a file that is not markdown)`);
			continue;
		}
		if (!anchors(readFile(targetPath)).has(anchor))
			broken.push(
				`${rel}:${line} ${target} (no heading "#${anchor}" in ${path.relative(ROOT, targetPath)})`,
			);
	}
	return broken;
}

/** The .md files of a docs folder; the contributors' pages sit in docs/development/. */
function markdownIn(folder: string): string[] {
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) return markdownIn(full);
		return entry.name.endsWith('.md') ? [full] : [];
	});
}

function documents(): string[] {
	return [
		path.join(ROOT, 'README.md'),
		path.join(ROOT, 'CHANGELOG.md'),
		...markdownIn(path.join(ROOT, 'docs')),
	];
}

describe('the docs', () => {
	test.each(documents().map((f) => [path.relative(ROOT, f), f]))(
		'every relative link and anchor in %s resolves',
		(_name, file) => {
			expect(brokenLinks(file)).toEqual([]);
		},
	);

	test(`README.md is under ${README_MAX_LINES} lines`, () => {
		const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
		expect(lines).toBeLessThan(README_MAX_LINES);
	});
});

describe('the link check itself', () => {
	test('slugs as GitHub makes them', () => {
		expect(slug('Live progress (streaming)')).toBe('live-progress-streaming');
		expect(slug('Persisted flows: Restore From State ID rather than inputs.id')).toBe(
			'persisted-flows-restore-from-state-id-rather-than-inputsid',
		);
		expect(slug('What the vendor leaves undocumented, and what this package assumes')).toBe(
			'what-the-vendor-leaves-undocumented-and-what-this-package-assumes',
		);
		expect(slug('Wait By: Callback')).toBe('wait-by-callback');
		expect(slug('`npm run bench` and **more**')).toBe('npm-run-bench-and-more');
		expect(slug('Errors and "Stop Workflow"')).toBe('errors-and-stop-workflow');
		expect([...anchors('# A\n## A\n```\n# not a heading\n```\n## A')]).toEqual(['a', 'a-1', 'a-2']);
	});

	test('finds a broken file link, a broken anchor and a link to a missing heading elsewhere', () => {
		const files: Record<string, string> = {
			[path.join(ROOT, 'x', 'a.md')]: [
				'# Title',
				'See [b](b.md#there), [gone](missing.md), [here](#title), [nowhere](#nowhere), [c](b.md#not-there).',
				'`[in code](missing-too.md)` and [web](https://example.com/x#y).',
				'```',
				'[in a fence](missing-three.md)',
				'```',
			].join('\n'),
			[path.join(ROOT, 'x', 'b.md')]: '# B\n## There\n',
		};
		const broken = brokenLinks(
			path.join(ROOT, 'x', 'a.md'),
			(f) => files[f],
			(f) => f in files,
		);
		expect(broken).toEqual([
			'x/a.md:2 missing.md (no such file: x/missing.md)',
			'x/a.md:2 #nowhere (no heading "#nowhere" in x/a.md)',
			'x/a.md:2 b.md#not-there (no heading "#not-there" in x/b.md)',
		]);
	});
});
