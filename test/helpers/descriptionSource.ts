import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import type { INodeType } from 'n8n-workflow';

const ROOT = path.join(__dirname, '..', '..');
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** How n8n's lint expects a connection type written: the constant, not its value. */
function connectionType(value: unknown, path: string[]): string | undefined {
	const inConnections = path.length === 2 && (path[0] === 'inputs' || path[0] === 'outputs');
	return inConnections && value === 'main' ? 'NodeConnectionTypes.Main' : undefined;
}

function literal(value: unknown, indent: string, path: string[]): string {
	const constant = connectionType(value, path);
	if (constant !== undefined) return constant;
	if (typeof value === 'function') return 'async () => undefined';
	if (Array.isArray(value)) {
		const lines = value.map(
			(entry, index) => `${indent}\t${literal(entry, `${indent}\t`, [...path, String(index)])},\n`,
		);
		return `[\n${lines.join('')}${indent}]`;
	}
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
		const lines = entries.map(
			([key, entry]) =>
				`${indent}\t${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${literal(entry, `${indent}\t`, [...path, key])},\n`,
		);
		return `{\n${lines.join('')}${indent}}`;
	}
	return JSON.stringify(value);
}

/**
 * A node class whose description is written out whole as one object literal: the
 * description n8n loads, whichever helper or constant built each part of it. n8n's
 * lint rules read object literals only, so this is what lets them see the fields
 * the source builds with a function. The class's other members are there as stubs
 * of the same shape, for the rules that look for them.
 */
export function descriptionSource(className: string, node: INodeType): string {
	const { description, ...fields } = node as INodeType & Record<string, unknown>;
	const prototype = Object.getPrototypeOf(node) as Record<string, unknown>;
	const methods = Object.getOwnPropertyNames(prototype).filter(
		(name) => name !== 'constructor' && typeof prototype[name] === 'function',
	);
	return [
		"import { NodeConnectionTypes } from 'n8n-workflow';",
		"import type { INodeType, INodeTypeDescription } from 'n8n-workflow';",
		'',
		`export class ${className} implements INodeType {`,
		`\tdescription: INodeTypeDescription = ${literal(description, '\t', [])};`,
		...Object.entries(fields).map(
			([name, value]) => `\n\t${name} = ${literal(value, '\t', [name])};`,
		),
		...methods.map((name) => `\n\tasync ${name}() {\n\t\treturn undefined;\n\t}`),
		'}',
		'',
	].join('\n');
}

export interface LintMessage {
	ruleId: string | null;
	message: string;
	line: number;
}

/**
 * Lints each text as if it were the file at `filePath` (relative to the
 * repository), with the repository's own ESLint configuration. In a child
 * process: ESLint loads its flat configuration with import(), which Jest's
 * module sandbox refuses.
 */
export function lintAs(files: Array<{ filePath: string; text: string }>): LintMessage[][] {
	const run = spawnSync(process.execPath, [path.join(__dirname, 'lintTexts.mjs')], {
		cwd: ROOT,
		// n8n's lint plugin takes every file for a node named Test.node.ts when NODE_ENV is
		// "test", as Jest sets it.
		env: { ...process.env, NODE_ENV: 'production' },
		input: JSON.stringify(files),
		encoding: 'utf8',
		// Run in a describe block, out of reach of Jest's test timeout.
		timeout: 120_000,
		maxBuffer: 64 * 1024 * 1024,
	});
	if (run.status !== 0)
		throw new Error(
			`ESLint did not run (${run.error?.message ?? run.signal ?? `exit ${run.status}`}): ${run.stderr}`,
		);
	return (JSON.parse(run.stdout) as Array<{ messages: LintMessage[] }>).map(
		(result) => result.messages,
	);
}
