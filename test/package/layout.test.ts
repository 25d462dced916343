// The layout's rules that a reader relies on (docs/development.md, "Where things live"): the
// folders under nodes/ form layers, and a folder imports only folders below it, type imports
// included, so each can be read, tested and changed with only what lies beneath it; and no
// source file holds more than one screenful of jobs, measured as 300 lines.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { circles, importGraph, ROOT, sourceFiles } from '../helpers/importGraph';

const NODES = path.join(ROOT, 'nodes');
const MAX_LINES = 300;

/**
 * The folders of nodes/, from the ground up: what each may import lies before it. The same
 * order, with what each holds, is the map in docs/development.md.
 */
export const FOLDER_ORDER = [
	// Pure: the service's records, and the node's versions with what each changed.
	'records',
	'versions',
	// What the node needs of n8n's execution: its clock and cancel signal, how many at once, streaming, tool calls.
	'execution',
	// HTTP: authenticated requests, answers, errors, retries of reads.
	'transport',
	// The service's parts.
	'itemResults',
	'status',
	'files',
	'chat',
	'callbacksOut',
	'kickoff',
	'stop',
	// The engines.
	'waiting',
	'retryOnFail',
	// What the service's calls to n8n do.
	'callbacksIn',
	// The operations, their panel fields, and the editor's methods.
	'Crew/actions/common',
	'Crew/actions/descriptions',
	'Crew/actions/crew',
	'Crew/actions/conversation',
	'Crew/actions/feedbackRequest',
	'Crew/actions',
	'Crew/methods',
	// The nodes.
	'Crew',
	'CrewCallbackTrigger',
] as const;

/** The listed folder a file sits in (the deepest that holds it), or undefined for a folder not in the order. */
export function folderOf(
	file: string,
	nodesFolder: string,
	order: readonly string[] = FOLDER_ORDER,
): string | undefined {
	const relative = path.relative(nodesFolder, path.dirname(file)).split(path.sep).join('/');
	return [...order]
		.filter((folder) => relative === folder || relative.startsWith(`${folder}/`))
		.sort((a, b) => b.length - a.length)[0];
}

/** Every import that reaches a folder at or above the importer's own (its own folder aside), as `from -> to`. */
export function importsAgainstOrder(
	graph: Map<string, string[]>,
	nodesFolder: string,
	order: readonly string[] = FOLDER_ORDER,
): string[] {
	const rank = (file: string) => order.indexOf(folderOf(file, nodesFolder, order) ?? '');
	return [...graph].flatMap(([file, targets]) =>
		targets
			.filter(
				(target) =>
					folderOf(target, nodesFolder, order) !== folderOf(file, nodesFolder, order) &&
					rank(target) >= rank(file),
			)
			.map((target) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`),
	);
}

/** The folders' own graph: which folder imports which. */
export function folderGraph(
	graph: Map<string, string[]>,
	nodesFolder: string,
	order: readonly string[] = FOLDER_ORDER,
): Map<string, string[]> {
	const folders = new Map<string, Set<string>>();
	for (const [file, targets] of graph) {
		const from =
			folderOf(file, nodesFolder, order) ?? path.relative(nodesFolder, path.dirname(file));
		const reached = folders.get(from) ?? new Set<string>();
		for (const target of targets) {
			const to =
				folderOf(target, nodesFolder, order) ?? path.relative(nodesFolder, path.dirname(target));
			if (to !== from) reached.add(to);
		}
		folders.set(from, reached);
	}
	return new Map([...folders].map(([folder, reached]) => [folder, [...reached]]));
}

describe('the layout', () => {
	const at = (file: string) => path.join(NODES, file);

	it('places every source folder in the order', () => {
		const unplaced = sourceFiles(NODES)
			.filter((file) => folderOf(file, NODES) === undefined)
			.map((file) => path.relative(ROOT, file));
		expect(unplaced).toEqual([]);
	});

	it('tells an import against the order, a type import included, from one that goes down', () => {
		const graph = new Map([
			[
				at('Crew/actions/router.ts'),
				[at('itemResults/itemError.ts'), at('Crew/actions/common/perItem.ts')],
			],
			[at('kickoff/startCrew.ts'), [at('transport/index.ts'), at('retryOnFail/triesMemory.ts')]],
			[at('status/crewStatus.ts'), [at('status/runMetrics.ts')]],
			// `import type { RunningKickoff } from '../waiting/waitForCompletion'`: read as an import like any other.
			[at('stop/stopCrews.ts'), [at('waiting/waitForCompletion.ts')]],
		]);
		expect(importsAgainstOrder(graph, NODES)).toEqual([
			'nodes/kickoff/startCrew.ts -> nodes/retryOnFail/triesMemory.ts',
			'nodes/stop/stopCrews.ts -> nodes/waiting/waitForCompletion.ts',
		]);
	});

	it('has no import against the order of its folders', () => {
		expect(importsAgainstOrder(importGraph(sourceFiles(NODES)), NODES)).toEqual([]);
	});

	it('tells two folders that import each other, directly or through a third', () => {
		const graph = new Map([
			[at('waiting/startedCrews.ts'), [at('stop/stopCrews.ts')]],
			[at('stop/stopCrews.ts'), [at('retryOnFail/earlierTries.ts')]],
			[at('retryOnFail/earlierTries.ts'), [at('waiting/firstPhase.ts')]],
		]);
		expect(circles(folderGraph(graph, NODES))).toEqual([['retryOnFail', 'stop', 'waiting']]);
	});

	it('has no two folders that import each other', () => {
		expect(circles(folderGraph(importGraph(sourceFiles(NODES)), NODES))).toEqual([]);
	});

	it(`has no source file over ${MAX_LINES} lines`, () => {
		const long = sourceFiles(NODES)
			.map((file) => ({
				file: path.relative(ROOT, file),
				lines: fs.readFileSync(file, 'utf8').split('\n').length,
			}))
			.filter(({ lines }) => lines > MAX_LINES);
		expect(long).toEqual([]);
	});
});
