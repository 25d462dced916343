// The shipped code reads at the formatter's print width (.prettierrc.js: 100, tabs counted as 2).
// Prettier breaks code to fit but leaves a string or a template's text whole, and the comment
// rewrapper leaves a URL whole: those are the only parts a line may run past the width with.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

import { ROOT, SOURCE_FOLDERS, sourceFiles } from '../helpers/importGraph';

const PRINT_WIDTH = 100;
const TAB_WIDTH = 2;

/** The [start, end) offsets of every string literal and template text in the source. */
function literalSpans(source: string): Array<[number, number]> {
	const file = ts.createSourceFile('checked.ts', source, ts.ScriptTarget.Latest, true);
	const spans: Array<[number, number]> = [];
	const visit = (node: ts.Node) => {
		if (
			ts.isStringLiteral(node) ||
			ts.isNoSubstitutionTemplateLiteral(node) ||
			ts.isTemplateHead(node) ||
			ts.isTemplateMiddle(node) ||
			ts.isTemplateTail(node) ||
			ts.isRegularExpressionLiteral(node)
		)
			spans.push([node.getStart(file), node.getEnd()]);
		node.forEachChild(visit);
	};
	visit(file);
	return spans;
}

/**
 * Each line over the width once its strings, template texts and URLs are left out (a left-out
 * part still counts its two quotes), as `line: width`.
 */
export function linesTooWide(source: string, width = PRINT_WIDTH): string[] {
	const inLiteral = new Uint8Array(source.length);
	for (const [start, end] of literalSpans(source)) inLiteral.fill(1, start + 1, end - 1);
	for (const url of source.matchAll(/https?:\/\/\S+/g))
		inLiteral.fill(1, url.index, url.index + url[0].length);
	const tooWide: string[] = [];
	let offset = 0;
	source.split('\n').forEach((line, index) => {
		let counted = 0;
		for (let at = 0; at < line.length; at++) {
			const code = line.charCodeAt(at);
			// The second half of a surrogate pair is the same character as the first.
			if (inLiteral[offset + at] || (code >= 0xdc00 && code <= 0xdfff)) continue;
			counted += line[at] === '\t' ? TAB_WIDTH : 1;
		}
		if (counted > width) tooWide.push(`${index + 1}: ${counted}`);
		offset += line.length + 1;
	});
	return tooWide;
}

describe('the line width', () => {
	it('counts code and comments, tabs as 2, and leaves out strings, template texts and URLs', () => {
		const tab = '\t\t';
		const code = `${tab}const answer = compute(${'argument, '.repeat(9)}last);`;
		const comment = `${tab}// ${'word '.repeat(20)}`;
		const longString = `${tab}throw new Error('${'x'.repeat(150)}');`;
		const template = `${tab}text = \`${'y'.repeat(90)} \${value ? \`${'z'.repeat(40)}\` : ''}\`;`;
		const url = `${tab}// See https://docs.n8n.io/${'path/'.repeat(30)}`;
		expect(
			linesTooWide([code, comment, longString, template, url, '…😀'.repeat(50)].join('\n')),
		).toEqual([`1: ${code.length + 2}`, `2: ${comment.length + 2}`]);
		expect(linesTooWide('\t'.repeat(49) + 'ab')).toEqual([]);
		expect(linesTooWide('\t'.repeat(50) + 'a')).toEqual(['1: 101']);
	});

	it.each(SOURCE_FOLDERS)('holds in %s/', (folder) => {
		const tooWide = sourceFiles(path.join(ROOT, folder)).flatMap((file) =>
			linesTooWide(fs.readFileSync(file, 'utf8')).map(
				(line) => `${path.relative(ROOT, file)}:${line}`,
			),
		);
		expect(tooWide).toEqual([]);
	});
});
