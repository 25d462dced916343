import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { descriptionSource, lintAs } from '../helpers/descriptionSource';
import { registeredNodes } from '../helpers/registeredNodes';

/** Each node package.json registers: none of them is versioned by classes. */
const registered = registeredNodes().map(({ filePath, className, node }) => ({
	filePath,
	className,
	node: node as INodeType,
}));

/** The Crew node's description with one operation's action miscased: what n8n's lint reports inline in a literal. */
function withMiscasedAction(): string {
	const crew = registered.find((node) => node.className === 'Crew')!;
	const description = structuredClone(crew.node.description);
	const menu = description.properties.find(
		(property: INodeProperties) => property.name === 'operation',
	)!;
	(menu.options as INodePropertyOptions[])[0].action = 'Get The Inputs Of A Crew';
	return descriptionSource(
		crew.className,
		Object.assign(
			Object.create(Object.getPrototypeOf(crew.node) as object) as INodeType,
			crew.node,
			{ description },
		),
	);
}

describe("n8n's lint rules over each node's description as n8n loads it", () => {
	// The source builds some fields with functions (each resource's operation menu, the
	// wait fields, the human-input URL option), which lint rules reading object literals
	// do not see. Here every field is one literal, under the node's own file name.
	const [crew, trigger, miscased] = lintAs([
		...registered.map((node) => ({
			filePath: node.filePath,
			text: descriptionSource(node.className, node.node),
		})),
		{ filePath: 'nodes/Crew/Crew.node.ts', text: withMiscasedAction() },
	]);

	it('reports nothing on the Crew node', () => {
		expect(crew).toEqual([]);
	});

	it('reports nothing on the Crew Trigger', () => {
		expect(trigger).toEqual([]);
	});

	it('reports a miscased operation action, so the two above can fail', () => {
		expect(miscased.map((message) => message.ruleId)).toContain(
			'n8n-nodes-base/node-param-operation-option-action-miscased',
		);
	});
});
