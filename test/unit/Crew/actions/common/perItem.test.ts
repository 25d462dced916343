import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import type { OperationTools } from '../../../../../nodes/execution/operationTools';
import { runPerItem } from '../../../../../nodes/Crew/actions/common/perItem';

const node: INode = {
	id: '1',
	name: 'Crew',
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1.3,
	position: [0, 0],
	parameters: {},
};
const tools: OperationTools = { now: () => 0, sleep: async () => {}, isCancelled: () => false };

function contextWith(continueOnFail: boolean): IExecuteFunctions {
	return {
		getNode: () => node,
		continueOnFail: () => continueOnFail,
	} as unknown as IExecuteFunctions;
}

/** An operation that answers each item with its index, fails the items listed, and records which items it ran. */
function operationFailing(failing: number[], ran: number[]) {
	return async function (this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
		ran.push(itemIndex);
		if (failing.includes(itemIndex)) throw new Error(`item ${itemIndex} failed`);
		return { item: itemIndex };
	};
}

describe('runPerItem', () => {
	it('runs the items one after another, in order, one outcome each', async () => {
		const ran: number[] = [];
		const outcomes = await runPerItem(contextWith(false), 3, operationFailing([], ran), tools);
		expect(ran).toEqual([0, 1, 2]);
		expect(outcomes).toEqual([{ json: { item: 0 } }, { json: { item: 1 } }, { json: { item: 2 } }]);
	});

	it('without Continue On Fail, stops at the first error: no later item runs', async () => {
		const ran: number[] = [];
		const error = await runPerItem(contextWith(false), 3, operationFailing([1], ran), tools).catch(
			(thrown: unknown) => thrown,
		);
		expect(ran).toEqual([0, 1]);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).context.itemIndex).toBe(1);
	});

	it('with Continue On Fail, gives the failed item its error and goes on', async () => {
		const ran: number[] = [];
		const outcomes = await runPerItem(contextWith(true), 3, operationFailing([1], ran), tools);
		expect(ran).toEqual([0, 1, 2]);
		expect(outcomes[0]).toEqual({ json: { item: 0 } });
		expect(outcomes[2]).toEqual({ json: { item: 2 } });
		const failed = outcomes[1] as { error: NodeOperationError };
		expect(failed.error).toBeInstanceOf(NodeOperationError);
		expect(failed.error.message).toBe('item 1 failed');
		expect(failed.error.context.itemIndex).toBe(1);
	});
});
