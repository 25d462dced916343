// No import circle in the shipped code, type imports included: a circle makes a module's
// exports undefined while the other loads (a value import), and couples two modules that
// then can only move together (a type import). Read from the import lines themselves, so
// the check needs no tool beyond the repository.
import * as path from 'node:path';

import {
	circles,
	importGraph,
	relativeSpecifiers,
	ROOT,
	SOURCE_FOLDERS,
	sourceFiles,
} from '../helpers/importGraph';

describe('import circles', () => {
	it('reads value, type, re-export, side-effect and dynamic imports, and only relative ones', () => {
		const source = [
			"import { a } from './a';",
			"import type { B } from '../b';",
			"import {\n\tc,\n\td,\n} from './c';",
			"export { e } from './e';",
			"export type { F } from './f';",
			"import './g';",
			"const h = await import('./h');",
			"import { IDataObject } from 'n8n-workflow';",
			"// import { x } from './commented';",
			"/* import { y } from './blockComment'; */",
		].join('\n');
		expect(relativeSpecifiers(source).sort()).toEqual([
			'../b',
			'./a',
			'./c',
			'./e',
			'./f',
			'./g',
			'./h',
		]);
	});

	it('finds a circle of two, of three and a self-import, and nothing in a tree', () => {
		const graph = new Map([
			['router', ['sendMessage', 'types']],
			['sendMessage', ['toolAnswer']],
			['toolAnswer', ['router']],
			['index', ['statusRoute']],
			['statusRoute', ['index', 'answers']],
			['answers', []],
			['types', []],
			['self', ['self']],
		]);
		expect(circles(graph)).toEqual([
			['router', 'sendMessage', 'toolAnswer'],
			['index', 'statusRoute'],
			['self'],
		]);
		expect(
			circles(
				new Map([
					['a', ['b', 'c']],
					['b', ['c']],
					['c', []],
				]),
			),
		).toEqual([]);
	});

	it('finds none in nodes/ and credentials/, type imports included', () => {
		const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder)));
		expect(files.length).toBeGreaterThan(50);
		const found = circles(importGraph(files)).map((component) =>
			component.map((file) => path.relative(ROOT, file)),
		);
		expect(found).toEqual([]);
	});
});
