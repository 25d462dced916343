// Every link n8n shows for these nodes and credentials lands on a file and heading that exist:
// the credentials' documentationUrl, the codex files' documentation resources, and any URL in a
// node's or credential's texts (descriptions, hints, notices, option descriptions). A link to this
// repository is read as the file in this checkout, its #anchor as GitHub makes heading anchors.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { anchors } from './githubAnchors';

const ROOT = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	homepage: string;
};
/** https://github.com/<owner>/<repo>, from package.json's homepage (which adds #readme). */
const REPOSITORY = pkg.homepage.replace(/#.*$/, '');

/** Keys whose strings are not shown as text a user follows: values, example values, expressions. */
const NOT_SHOWN = new Set(['placeholder', 'default', 'value', 'name', 'subtitle']);

export interface ShownLink {
	/** Where n8n shows it, e.g. "credentials/CrewApi.credentials.ts documentationUrl". */
	where: string;
	url: string;
}

/** Every URL in the strings of a description object, walked to any depth, with where it sits. */
export function urlsIn(value: unknown, where: string): ShownLink[] {
	if (typeof value === 'string')
		return [...value.matchAll(/https?:\/\/[^\s"'<>)\]]+/g)].map((m) => ({
			where,
			url: m[0].replace(/[.,;:]+$/, ''),
		}));
	if (Array.isArray(value)) return value.flatMap((v, i) => urlsIn(v, `${where}[${i}]`));
	if (value !== null && typeof value === 'object') {
		return Object.entries(value).flatMap(([key, v]) =>
			NOT_SHOWN.has(key) ? [] : urlsIn(v, `${where}.${key}`),
		);
	}
	return [];
}

/**
 * What is wrong with a link n8n shows, or null when it lands: a link into this repository must
 * name a file of the checkout on the main branch (or the repository's front page, its README),
 * and its #anchor a heading of that markdown file. Links elsewhere are not this package's to
 * keep, and none is expected: each one is reported, so a new one is looked at.
 */
export function linkProblem(
	url: string,
	readFile = (f: string) => fs.readFileSync(f, 'utf8'),
	exists = (f: string) => fs.existsSync(f),
): string | null {
	if (!url.startsWith(REPOSITORY))
		return `not a link into ${REPOSITORY}: n8n's users land on this repository's guides`;
	const [rest, anchor] = url.slice(REPOSITORY.length).split('#', 2) as [string, string | undefined];
	let file: string;
	if (rest === '' || rest === '/') file = 'README.md';
	else {
		const m = /^\/(?:blob|tree)\/main\/(.+)$/.exec(rest);
		if (!m) return `not a file on the main branch (${REPOSITORY}/blob/main/<path>)`;
		file = decodeURIComponent(m[1]);
	}
	const local = path.join(ROOT, file);
	if (!exists(local)) return `no such file: ${file}`;
	// GitHub's front page shows the README under #readme.
	if (
		anchor === undefined ||
		anchor === '' ||
		(file === 'README.md' && rest === '' && anchor === 'readme')
	)
		return null;
	if (!file.endsWith('.md')) return `an anchor into ${file}, which is not markdown`;
	return anchors(readFile(local)).has(anchor) ? null : `no heading "#${anchor}" in ${file}`;
}

function sourceFiles(dir: string, suffix: string): string[] {
	return fs
		.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
		.filter((f) => f.endsWith(suffix))
		.map((f) => path.join(dir, f))
		.sort();
}

/** The classes a source file exports, made as n8n makes them, with what n8n shows of each. */
function shownDescriptions(file: string): Array<{ where: string; shown: unknown }> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(path.join(ROOT, file)) as Record<string, unknown>;
	return Object.entries(exported)
		.filter(
			(entry): entry is [string, new () => Record<string, unknown>] =>
				typeof entry[1] === 'function',
		)
		.map(([name, Class]) => {
			const made = new Class();
			// A node's texts are its description; a credential's are the class itself (documentationUrl, properties).
			const shown =
				'description' in made
					? made.description
					: { documentationUrl: made.documentationUrl, properties: made.properties };
			return { where: `${file} ${name}`, shown };
		});
}

function shownLinks(): ShownLink[] {
	const links: ShownLink[] = [];
	for (const file of [
		...sourceFiles('nodes', '.node.ts'),
		...sourceFiles('credentials', '.credentials.ts'),
	]) {
		for (const { where, shown } of shownDescriptions(file)) links.push(...urlsIn(shown, where));
	}
	for (const file of sourceFiles('nodes', '.node.json')) {
		const codex = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as {
			resources?: unknown;
		};
		links.push(...urlsIn(codex.resources, `${file} resources`));
	}
	return links;
}

describe('the links n8n shows', () => {
	const links = shownLinks();

	test('each credential and each node has its documentation link', () => {
		const where = links.map((l) => l.where);
		for (const file of sourceFiles('credentials', '.credentials.ts'))
			expect(where.some((w) => w.startsWith(file) && w.endsWith('.documentationUrl'))).toBe(true);
		for (const file of sourceFiles('nodes', '.node.json'))
			expect(where.some((w) => w.startsWith(`${file} resources.primaryDocumentation`))).toBe(true);
	});

	test('every one lands on a file and heading of this repository', () => {
		const broken = links.flatMap(({ where, url }) => {
			const problem = linkProblem(url);
			return problem ? [`${where} ${url} (${problem})`] : [];
		});
		expect(broken).toEqual([]);
	});
});

describe('the product link check itself', () => {
	const files: Record<string, string> = {
		[path.join(ROOT, 'README.md')]: '# Title\n## What you need\n',
		[path.join(ROOT, 'docs', 'guide.md')]: '# Guide\n## Wait By: Callback\n',
		[path.join(ROOT, 'examples', 'x.json')]: '{}',
	};
	const problem = (url: string) =>
		linkProblem(
			url,
			(f) => files[f],
			(f) => f in files,
		);

	test('reads repository links as files and headings of the checkout', () => {
		expect(problem(`${REPOSITORY}#readme`)).toBeNull();
		expect(problem(`${REPOSITORY}#what-you-need`)).toBeNull();
		expect(problem(`${REPOSITORY}/blob/main/docs/guide.md`)).toBeNull();
		expect(problem(`${REPOSITORY}/blob/main/docs/guide.md#wait-by-callback`)).toBeNull();
		expect(problem(`${REPOSITORY}/blob/main/examples/x.json`)).toBeNull();
	});

	test('finds a missing heading, a missing file, another branch and a link elsewhere', () => {
		expect(problem(`${REPOSITORY}#webhooks-instead-of-polling`)).toBe(
			'no heading "#webhooks-instead-of-polling" in README.md',
		);
		expect(problem(`${REPOSITORY}/blob/main/docs/guide.md#gone`)).toBe(
			'no heading "#gone" in docs/guide.md',
		);
		expect(problem(`${REPOSITORY}/blob/main/docs/missing.md`)).toBe(
			'no such file: docs/missing.md',
		);
		expect(problem(`${REPOSITORY}/blob/main/examples/x.json#a`)).toBe(
			'an anchor into examples/x.json, which is not markdown',
		);
		expect(problem(`${REPOSITORY}/blob/dev/docs/guide.md`)).toMatch(
			/^not a file on the main branch/,
		);
		expect(problem('https://www.npmjs.com/package/n8n-nodes-crewai#credentials')).toMatch(
			/^not a link into /,
		);
	});

	test('finds URLs in texts at any depth, not in values or placeholders', () => {
		const description = {
			description: 'See <a href="https://x.test/a#b">the guide</a>.',
			properties: [
				{
					name: 'https://no.test',
					placeholder: 'e.g. https://no.test',
					default: 'https://no.test',
					hint: 'Read https://x.test/c.',
				},
			],
		};
		expect(urlsIn(description, 'N')).toEqual([
			{ where: 'N.description', url: 'https://x.test/a#b' },
			{ where: 'N.properties[0].hint', url: 'https://x.test/c' },
		]);
	});
});
