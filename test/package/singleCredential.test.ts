// Every node the package registers uses one credential at a time, by the condition of n8n's
// `single-credential-per-node` lint rule (@n8n/eslint-plugin-community-nodes on n8n's main
// branch, not yet in the scanner the package is checked with): two credentials of a node count as
// alternatives only when both show on the same property, not a multiOptions one, with values that
// never overlap. Any other pair can be shown together, and the rule reports the node. This checks
// the descriptions as n8n loads them, every version, so the second credential cannot come back
// before n8n publishes the rule.
import * as path from 'node:path';

import type { INodeCredentialDescription, INodeTypeDescription } from 'n8n-workflow';

import packageJson from '../../package.json';
import { registeredNodes } from '../helpers/registeredNodes';

const ROOT = path.join(__dirname, '..', '..');

/** Each description n8n loads from package.json's n8n.nodes: each version of a versioned node. */
function registeredDescriptions(
	distFiles: string[],
): Array<{ file: string; description: INodeTypeDescription }> {
	return registeredNodes(distFiles).flatMap(({ distFile, node }) => {
		const descriptions =
			'nodeVersions' in node
				? Object.values(node.nodeVersions).map((version) => version.description)
				: [node.description];
		return descriptions.map((description) => ({ file: distFile, description }));
	});
}

/** The rule's condition: a property both credentials show on, not multiOptions, whose values never overlap. */
function areAlternatives(
	left: INodeCredentialDescription,
	right: INodeCredentialDescription,
	multiOptionNames: Set<string>,
): boolean {
	const leftShow = left.displayOptions?.show ?? {};
	const rightShow = right.displayOptions?.show ?? {};
	return Object.entries(leftShow).some(([name, leftValues]) => {
		const rightValues = rightShow[name];
		if (
			multiOptionNames.has(name) ||
			!Array.isArray(leftValues) ||
			!Array.isArray(rightValues) ||
			leftValues.length === 0
		)
			return false;
		return leftValues.every(
			(value) => !rightValues.some((other) => typeof other === typeof value && other === value),
		);
	});
}

/** The names of the credentials of a description that can be shown together, as pairs. */
function credentialsShownTogether(description: INodeTypeDescription): Array<[string, string]> {
	const credentials = description.credentials ?? [];
	const multiOptionNames = new Set(
		description.properties
			.filter((property) => property.type === 'multiOptions')
			.map((property) => property.name),
	);
	const pairs: Array<[string, string]> = [];
	credentials.forEach((left, index) => {
		for (const right of credentials.slice(index + 1)) {
			if (!areAlternatives(left, right, multiOptionNames)) pairs.push([left.name, right.name]);
		}
	});
	return pairs;
}

const registered = registeredDescriptions(packageJson.n8n.nodes);

describe("one credential at a time, by single-credential-per-node's condition", () => {
	it('loads every node package.json registers', () => {
		expect(registered.length).toBeGreaterThanOrEqual(packageJson.n8n.nodes.length);
		expect(registered.map(({ description }) => description.name)).toContain('crew');
	});

	it.each(
		registered.map(({ file, description }) => [`${file} (${description.name})`, description]),
	)('%s shows no two credentials together', (_name, description) => {
		expect(credentialsShownTogether(description)).toEqual([]);
	});

	it('every credential a node names is one package.json registers', () => {
		const types = packageJson.n8n.credentials.map((file) => path.basename(file, '.credentials.js'));
		const names = types.map((type) => {
			const file = path.join(ROOT, 'credentials', `${type}.credentials.ts`);
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = require(file) as Record<string, new () => { name: string }>;
			return new exported[type]().name;
		});
		for (const { description } of registered) {
			for (const credential of description.credentials ?? [])
				expect(names).toContain(credential.name);
		}
	});

	describe('the condition itself', () => {
		const credential = (
			name: string,
			show?: Record<string, unknown[]>,
		): INodeCredentialDescription => ({
			name,
			required: true,
			...(show ? { displayOptions: { show: show as never } } : {}),
		});
		const node = (credentials: INodeCredentialDescription[], multiOptions: string[] = []) =>
			({
				credentials,
				properties: multiOptions.map((name) => ({
					displayName: name,
					name,
					type: 'multiOptions',
					options: [],
					default: [],
				})),
			}) as unknown as INodeTypeDescription;

		it('finds two credentials shown together: one shown everywhere but one operation, the other on two operations', () => {
			// The Crew node's old pair: crewApi hidden only for Answer, crewCallbackApi shown on both kickoffs.
			const old = node([
				{
					name: 'crewApi',
					required: true,
					displayOptions: { hide: { operation: ['answerFeedback'] } },
				},
				credential('crewCallbackApi', { operation: ['kickoff', 'kickoffAndWait'] }),
			]);
			expect(credentialsShownTogether(old)).toEqual([['crewApi', 'crewCallbackApi']]);
		});

		it('takes alternatives on one property with values that never overlap, and nothing else', () => {
			expect(
				credentialsShownTogether(
					node([
						credential('a', { authentication: ['token'] }),
						credential('b', { authentication: ['oAuth2'] }),
					]),
				),
			).toEqual([]);
			expect(
				credentialsShownTogether(
					node([
						credential('a', { authentication: ['token', 'both'] }),
						credential('b', { authentication: ['oAuth2', 'both'] }),
					]),
				),
			).toEqual([['a', 'b']]);
			expect(
				credentialsShownTogether(
					node([credential('a', { resource: ['x'] }), credential('b', { operation: ['y'] })]),
				),
			).toEqual([['a', 'b']]);
			// A multiOptions property can hold both values at once.
			expect(
				credentialsShownTogether(
					node(
						[credential('a', { events: ['x'] }), credential('b', { events: ['y'] })],
						['events'],
					),
				),
			).toEqual([['a', 'b']]);
			// The same text and a number are different values, as the rule compares them.
			expect(
				credentialsShownTogether(
					node([credential('a', { '@version': [1] }), credential('b', { '@version': ['1'] })]),
				),
			).toEqual([]);
			expect(credentialsShownTogether(node([credential('a')]))).toEqual([]);
		});
	});
});
