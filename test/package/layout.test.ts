// The layout's rules that a reader relies on (docs/development.md, "Where things live"):
// imports flow one way, from the two nodes' folders to the concern folders, never back; the
// transport is a leaf, so HTTP can be read and changed without the rest; and no source file
// holds more than one screenful of jobs, measured as 300 lines.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { importGraph, ROOT, sourceFiles } from '../helpers/importGraph';

const NODES = path.join(ROOT, 'nodes');
const MAX_LINES = 300;
/** What the transport may import besides itself: the pure record helpers it reads answers with. */
const BELOW_TRANSPORT = ['transport', 'records'];

/** Each import of a transport file that leaves the folders below it, as `from -> to`, repository-relative. */
export function importsAboveTransport(graph: Map<string, string[]>, nodesFolder: string): string[] {
	const folderOf = (file: string) => path.relative(nodesFolder, file).split(path.sep)[0];
	return [...graph]
		.filter(([file]) => folderOf(file) === 'transport')
		.flatMap(([file, targets]) => targets.filter((target) => !BELOW_TRANSPORT.includes(folderOf(target))).map((target) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`));
}

/** The folders of the nodes themselves: what they hold is each node's own, and no concern folder reaches into them. */
const NODE_FOLDERS = ['Crew', 'CrewCallbackTrigger'];

/** Each import from a concern folder into a node's folder, as `from -> to`, repository-relative. */
export function importsIntoNodeFolders(graph: Map<string, string[]>, nodesFolder: string): string[] {
	const folderOf = (file: string) => path.relative(nodesFolder, file).split(path.sep)[0];
	return [...graph]
		.filter(([file]) => !NODE_FOLDERS.includes(folderOf(file)))
		.flatMap(([file, targets]) => targets.filter((target) => NODE_FOLDERS.includes(folderOf(target))).map((target) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`));
}

describe('the layout', () => {
	it('tells a concern folder importing from a node\'s folder from a node using a concern', () => {
		const at = (file: string) => path.join(NODES, file);
		const graph = new Map([
			[at('Crew/actions/router.ts'), [at('itemResults/itemError.ts')]],
			[at('waiting/batchWait.ts'), [at('Crew/actions/common/operationModule.ts'), at('status/crewStatus.ts')]],
		]);
		expect(importsIntoNodeFolders(graph, NODES)).toEqual(['nodes/waiting/batchWait.ts -> nodes/Crew/actions/common/operationModule.ts']);
	});

	it('has imports that flow from the nodes\' folders to the concern folders, never back', () => {
		expect(importsIntoNodeFolders(importGraph(sourceFiles(NODES)), NODES)).toEqual([]);
	});

	it('tells a transport import of the waiting code from one of its own folder', () => {
		const at = (file: string) => path.join(NODES, file);
		const graph = new Map([
			[at('transport/index.ts'), [at('transport/answers.ts'), at('records/plainObject.ts')]],
			[at('transport/retryReads.ts'), [at('waiting/pollPolicy.ts')]],
			[at('waiting/pollPolicy.ts'), [at('transport/index.ts')]],
		]);
		expect(importsAboveTransport(graph, NODES)).toEqual(['nodes/transport/retryReads.ts -> nodes/waiting/pollPolicy.ts']);
	});

	it('has a transport that imports nothing above it', () => {
		const graph = importGraph(sourceFiles(NODES));
		expect([...graph.keys()].some((file) => file.includes(`${path.sep}transport${path.sep}`))).toBe(true);
		expect(importsAboveTransport(graph, NODES)).toEqual([]);
	});

	it(`has no source file over ${MAX_LINES} lines`, () => {
		const long = sourceFiles(NODES)
			.map((file) => ({ file: path.relative(ROOT, file), lines: fs.readFileSync(file, 'utf8').split('\n').length }))
			.filter(({ lines }) => lines > MAX_LINES);
		expect(long).toEqual([]);
	});
});
