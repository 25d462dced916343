import * as fs from 'node:fs';

import type { INodeType } from 'n8n-workflow';

import packageJson from '../../package.json';
import { registeredNodes } from '../helpers/registeredNodes';

const PACKAGE = packageJson.name;

/** Each node n8n loads from package.json, and the codex beside it. */
const registered = registeredNodes().map(({ distFile, sourceFile, node }) => {
	const codex = JSON.parse(fs.readFileSync(sourceFile.replace(/\.ts$/, '.json'), 'utf8')) as {
		node: string;
	};
	return { distFile, description: (node as INodeType).description, codex };
});

describe('the nodes n8n loads from package.json', () => {
	it.each(registered.map((node) => [node.distFile, node]))(
		'%s: the class named after its file, its codex naming its type',
		(_file, node) => {
			expect(node.codex.node).toBe(`${PACKAGE}.${node.description.name}`);
		},
	);

	it('lists the Crew node and the Crew Trigger as two entries: no visible trigger is named after a visible node plus "Trigger"', () => {
		// n8n's nodes panel folds a node "x" and a trigger "xTrigger" into one entry showing the
		// trigger's description (its generateMergedNodesAndActions), so a search for the Crew node
		// would describe it as a trigger.
		const visible = registered
			.map((node) => node.description)
			.filter((description) => description.hidden !== true);
		const names = new Set(visible.map((description) => description.name));
		const folded = visible.filter(
			(description) =>
				description.group.includes('trigger') && names.has(description.name.replace('Trigger', '')),
		);
		expect(folded.map((description) => description.name)).toEqual([]);
		expect(visible.map((description) => description.displayName).sort()).toEqual([
			'Crew',
			'Crew Trigger',
		]);
	});
});
