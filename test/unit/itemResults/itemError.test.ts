import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { toItemError, UNEXPECTED_ERROR_DESCRIPTION } from '../../../nodes/itemResults/itemError';
import { InvalidParameterError } from '../../../nodes/records/invalidParameter';

const node: INode = {
	id: '1',
	name: 'Crew',
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('toItemError', () => {
	it("passes the node's own errors through, keeping their item index", () => {
		const apiError = new NodeApiError(
			node,
			{ message: 'The crew service answered 500' },
			{ itemIndex: 3, description: 'Run again later.' },
		);
		expect(toItemError(node, apiError, 5)).toBe(apiError);
		expect(apiError.context.itemIndex).toBe(3);
	});

	it("gives a node error without an item index the item's index", () => {
		const operationError = new NodeOperationError(node, 'Credentials not found');
		expect(toItemError(node, operationError, 2).context.itemIndex).toBe(2);
	});

	it('turns a parameter problem into a NodeOperationError with its advice', () => {
		const error = toItemError(
			node,
			new InvalidParameterError('Meta is not valid JSON', 'Give Meta as a JSON object.'),
			1,
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Meta is not valid JSON');
		expect(error.description).toBe('Give Meta as a JSON object.');
		expect(error.context.itemIndex).toBe(1);
	});

	it('wraps any other error, keeping its own description when it has one', () => {
		const expressionLike = Object.assign(new Error('invalid syntax'), {
			description: 'Check the expression of Kickoff ID.',
		});
		const error = toItemError(node, expressionLike, 4);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('invalid syntax');
		expect(error.description).toBe('Check the expression of Kickoff ID.');
		expect(error.context.itemIndex).toBe(4);
	});

	it('says what to do about an error nothing foresaw, also when the thrown value is no Error', () => {
		expect(toItemError(node, new TypeError('x is undefined'), 0).description).toBe(
			UNEXPECTED_ERROR_DESCRIPTION,
		);
		const fromString = toItemError(node, 'broken', 0);
		expect(fromString.message).toBe('broken');
		expect(fromString.description).toBe(UNEXPECTED_ERROR_DESCRIPTION);
	});
});
