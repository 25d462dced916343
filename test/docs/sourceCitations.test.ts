// Comments cite what the repository holds: every `docs/<page>.md#<section>` named in the
// code and its tests resolves, and no comment sends the reader to a document outside the
// repository (the project's working notes, issue numbers) that a reader cannot open.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { anchors } from './githubAnchors';

const ROOT = path.join(__dirname, '..', '..');
const FOLDERS = ['nodes', 'credentials', 'test', 'scripts', 'bench'];
const SKIPPED = new Set(['node_modules', 'screenshots']);

function files(folder: string): string[] {
	if (!fs.existsSync(folder)) return [];
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : files(full);
		return /\.(ts|js|mjs|md)$/.test(entry.name) ? [full] : [];
	});
}

// The link checks' own tests name made-up pages on purpose.
const sources = FOLDERS.flatMap((folder) => files(path.join(ROOT, folder))).filter(
	(file) => path.dirname(file) !== __dirname,
);

function occurrences(pattern: RegExp): Array<{ where: string; match: RegExpMatchArray }> {
	return sources.flatMap((file) =>
		fs
			.readFileSync(file, 'utf8')
			.split('\n')
			.flatMap((line, i) =>
				[...line.matchAll(pattern)].map((match) => ({
					where: `${path.relative(ROOT, file)}:${i + 1}`,
					match,
				})),
			),
	);
}

describe('citations in the code and its tests', () => {
	it('name sections of docs/ pages that exist', () => {
		const cited = occurrences(/\bdocs\/((?:[a-z0-9-]+\/)*[a-z0-9-]+\.md)#([\p{L}\p{N}_-]+)/gu);
		expect(cited.length).toBeGreaterThan(20);
		const broken = cited
			.filter(({ match: [, page, anchor] }) => {
				const file = path.join(ROOT, 'docs', page);
				return !fs.existsSync(file) || !anchors(fs.readFileSync(file, 'utf8')).has(anchor);
			})
			.map(({ where, match }) => `${where} ${match[0]}`);
		expect(broken).toEqual([]);
	});

	it('send no reader to documents outside the repository', () => {
		const outside = [
			new RegExp(['field', 'notes'].join(' '), 'gi'),
			new RegExp(['shared', '(spec|design)'].join('/'), 'g'),
			new RegExp(['docs draft', 'of #\\d+'].join(' '), 'g'),
			new RegExp(['\\bissue', '#?\\d+\\b'].join(' '), 'gi'),
		];
		const found = outside.flatMap((pattern) =>
			occurrences(pattern).map(({ where, match }) => `${where} ${match[0]}`),
		);
		expect(found).toEqual([]);
	});

	it("name repository files that exist, in the contributors' pages and the READMEs", () => {
		const pages = [
			'README.md',
			...files(path.join(ROOT, 'docs')).filter((file) =>
				/docs\/(development|reliability)/.test(file),
			),
			...sources.filter((file) => file.endsWith('README.md')),
		];
		const named = pages.flatMap((file) =>
			[
				...fs
					.readFileSync(path.isAbsolute(file) ? file : path.join(ROOT, file), 'utf8')
					.matchAll(
						/(?<![\w./~-])(?:nodes|credentials|test|bench|scripts|examples|docs)\/[\w./-]+\.(?:ts|js|mjs|json|md)\b/g,
					),
			].map((match) => ({ page: path.relative(ROOT, path.resolve(ROOT, file)), cited: match[0] })),
		);
		expect(named.length).toBeGreaterThan(50);
		const missing = named
			.filter(({ cited }) => !fs.existsSync(path.join(ROOT, cited)))
			.map(({ page, cited }) => `${page}: ${cited}`);
		expect([...new Set(missing)]).toEqual([]);
	});
});
