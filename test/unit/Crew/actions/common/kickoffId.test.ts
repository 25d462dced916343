import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { kickoffIdField, readKickoffId } from '../../../../../nodes/Crew/actions/common/kickoffId';

const node: INode = {
	id: '1',
	name: 'Crew',
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1.3,
	position: [0, 0],
	parameters: {},
};

/** Just what the reader asks of n8n: the item's Kickoff ID and the node. */
function itemsWithKickoffIds(values: unknown[]): IExecuteFunctions {
	return {
		getNode: () => node,
		getNodeParameter: (name: string, itemIndex: number) =>
			name === 'kickoffId' ? values[itemIndex] : undefined,
	} as unknown as IExecuteFunctions;
}

/** The error `run` throws; the test fails when it throws none. */
function thrownBy(run: () => unknown): NodeOperationError {
	try {
		run();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected an error');
}

describe('the Kickoff ID field', () => {
	it("is one parameter, kickoffId, defaulting to the incoming item's kickoff_id, on the one operation it is built for", () => {
		for (const operation of ['getStatus', 'resume', 'stop'] as const) {
			const field = kickoffIdField(operation);
			expect(field).toMatchObject({
				displayName: 'Kickoff ID',
				name: 'kickoffId',
				type: 'string',
				default: '={{ $json.kickoff_id }}',
				required: true,
			});
			expect(field.displayOptions).toEqual({ show: { operation: [operation] } });
		}
	});

	it('says on Stop that it names the run to stop, and on Get Status and Resume the run a Kickoff returned', () => {
		expect(kickoffIdField('stop').description).toMatch(/^The kickoff_id of the run to stop/);
		expect(kickoffIdField('getStatus').description).toMatch(/^The kickoff_id a Kickoff returned/);
		expect(kickoffIdField('resume').description).toBe(kickoffIdField('getStatus').description);
	});
});

describe('readKickoffId', () => {
	it("reads each item's kickoff ID, trimmed", () => {
		const context = itemsWithKickoffIds(['  k-1\n', 'k-2']);
		expect(readKickoffId(context, 0, 'getStatus')).toBe('k-1');
		expect(readKickoffId(context, 1, 'stop')).toBe('k-2');
	});

	it("makes an empty, blank or missing kickoff ID the item's error, with what to set it to for that operation", () => {
		const context = itemsWithKickoffIds(['', '   ', null]);
		for (const itemIndex of [0, 1, 2]) {
			const error = thrownBy(() => readKickoffId(context, itemIndex, 'getStatus'));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('Kickoff ID is empty');
			expect(error.context.itemIndex).toBe(itemIndex);
		}
		expect(thrownBy(() => readKickoffId(context, 0, 'getStatus')).description).toMatch(
			/^Set Kickoff ID to the kickoff_id a Kickoff returned/,
		);
		expect(thrownBy(() => readKickoffId(context, 0, 'stop')).description).toMatch(
			/^Set Kickoff ID to the kickoff_id of the run to stop/,
		);
		expect(thrownBy(() => readKickoffId(context, 0, 'resume')).description).toMatch(
			/kickoff_id and the task_id of a crew paused for human input/,
		);
	});
});
