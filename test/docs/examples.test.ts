// The example workflows import as a new node is today: every Crew node at the node's newest
// version (older versions keep old defaults such as Deployment Type: Crew and show the 0.1.0
// Webhook Secret option), the first recipe's example with Map Each Input as the recipe teaches,
// and each model-filled value's description reading in the panel as the model gets it.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { extractFromAICalls } from 'n8n-workflow';

import { Crew } from '../../nodes/Crew/Crew.node';
import { CrewCallbackTrigger } from '../../nodes/CrewCallbackTrigger/CrewCallbackTrigger.node';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

function examples(): Array<[string, ExampleNode[]]> {
	return fs
		.readdirSync(EXAMPLES)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => [
			f,
			(JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')) as { nodes: ExampleNode[] })
				.nodes,
		]);
}

/** The newest version of each of this package's node types; a Crew tool is the Crew node's. */
const NEWEST: Record<string, number> = {
	'n8n-nodes-crewai.crew': new Crew().description.defaultVersion as number,
	'n8n-nodes-crewai.crewTool': new Crew().description.defaultVersion as number,
	'n8n-nodes-crewai.crewCallbackTrigger': new CrewCallbackTrigger().description
		.defaultVersion as number,
};

/** Every string in a value, at any depth. */
function strings(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(strings);
	if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
	return [];
}

describe.each(examples())('examples/%s', (_file, nodes) => {
	const ours = nodes.filter((n) => n.type.startsWith('n8n-nodes-crewai.'));

	test("has this package's nodes, each at its newest version", () => {
		expect(ours.length).toBeGreaterThan(0);
		for (const node of ours)
			expect({ node: node.name, version: node.typeVersion }).toEqual({
				node: node.name,
				version: NEWEST[node.type],
			});
	});

	test("uses no Webhook Secret parameter (0.1.0's, now the credential's Legacy Webhook Secret)", () => {
		for (const node of ours) {
			expect(Object.keys(node.parameters)).not.toContain('secret');
			expect(Object.keys(node.parameters.options ?? {})).not.toContain('webhookSecret');
		}
	});

	test("each model-filled description reads in the editor's panel as the model gets it", () => {
		for (const value of ours
			.flatMap((n) => strings(n.parameters))
			.filter((s) => s.includes('$fromAI('))) {
			// n8n's editor reads a description back with every backslash pair but one before a backtick doubled.
			expect(extractFromAICalls(value.replace(/\\[^`]/g, '\\\\'))).toEqual(
				extractFromAICalls(value),
			);
		}
	});
});

test("the first recipe's example maps each input, as the recipe teaches", () => {
	const crew = examples()
		.find(([file]) => file === 'crew-in-a-workflow.json')?.[1]
		.find((n) => n.type === 'n8n-nodes-crewai.crew');
	expect(crew?.parameters.inputsMode).toBe('map');
	expect(crew?.parameters.inputs).toMatchObject({
		mappingMode: 'defineBelow',
		value: { topic: 'AI agents' },
	});
});
