import { NodeOperationError } from 'n8n-workflow';
import type { INode, INodeProperties } from 'n8n-workflow';

import { Crew } from '../../../../nodes/Crew/Crew.node';
import * as kickoffAndWait from '../../../../nodes/Crew/actions/crew/kickoffAndWait.operation';
import * as stop from '../../../../nodes/Crew/actions/crew/stop.operation';
import { findOperation } from '../../../../nodes/Crew/actions/router';

const node: INode = {
	id: '1',
	name: 'Crew',
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1.3,
	position: [0, 0],
	parameters: {},
};

/** Every resource and operation the node's menus offer, as the editor saves them. */
function offeredOperations(): Array<[string, string]> {
	const menus = new Crew().description.properties.filter(
		(property: INodeProperties) => property.name === 'operation',
	);
	return menus.flatMap((menu) => {
		const resources = (menu.displayOptions?.show?.resource ?? []) as string[];
		const values = (menu.options ?? []).map((option) => (option as { value: string }).value);
		return resources.flatMap((resource) =>
			values.map((value): [string, string] => [resource, value]),
		);
	});
}

describe("the router's lookup", () => {
	it("finds every operation each resource's menu offers", () => {
		const offered = offeredOperations();
		expect(offered).toHaveLength(8);
		for (const [resource, operation] of offered)
			expect(() => findOperation(node, resource, operation)).not.toThrow();
	});

	it('gives each operation its own module: Kickoff and Wait takes the whole batch, Stop one item at a time', () => {
		expect(findOperation(node, 'crew', 'kickoffAndWait')).toBe(kickoffAndWait);
		expect(findOperation(node, 'crew', 'stop')).toBe(stop);
	});

	it('refuses an operation its resource does not have, an unknown resource, and a key every object inherits', () => {
		for (const [resource, operation] of [
			['crew', 'sendMessage'],
			['crew', 'deleteCrew'],
			['task', 'kickoff'],
			['crew', 'toString'],
			['constructor', 'name'],
		]) {
			expect(() => findOperation(node, resource, operation)).toThrow(NodeOperationError);
			expect(() => findOperation(node, resource, operation)).toThrow(
				`The resource "${resource}" has no operation "${operation}"`,
			);
		}
	});
});
