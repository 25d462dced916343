import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { createOperationTools } from '../../execution/operationTools';
import * as conversation from './conversation/Conversation.resource';
import * as crew from './crew/Crew.resource';
import * as feedbackRequest from './feedbackRequest/FeedbackRequest.resource';
import { toItemError } from '../../itemResults/itemError';
import type { ItemOutcome } from '../../itemResults/outputItems';
import type { CrewOperationModule } from './common/operationModule';
import { errorOutputItem } from '../../itemResults/outputItems';
import { runPerItem } from './common/perItem';
import { toolAnswer, toolErrorAnswer, withAdviceInMessage } from './common/toolAnswer';
import { runsAsTool } from '../../execution/toolCall';
import type { CrewOperation } from './common/node.type';

/**
 * Each resource's operations by their values, as the resource files export them. Maps, so that no
 * inherited key is found.
 */
const resources = new Map<string, ReadonlyMap<string, CrewOperationModule>>([
	['crew', new Map(Object.entries(crew.operations))],
	['conversation', new Map(Object.entries(conversation.operations))],
	['feedbackRequest', new Map(Object.entries(feedbackRequest.operations))],
]);

/**
 * The chosen operation's module; a resource or operation this node does not have is a
 * NodeOperationError.
 */
export function findOperation(
	node: INode,
	resource: string,
	operation: string,
): CrewOperationModule {
	const found = resources.get(resource)?.get(operation);
	if (found === undefined) {
		throw new NodeOperationError(
			node,
			`The resource "${resource}" has no operation "${operation}"`,
			{
				description:
					'Open the node and choose the operation again. A workflow made with a newer version of this package can name one this version does not have.',
			},
		);
	}
	return found;
}

/**
 * Runs the chosen operation and gives exactly one output item per input item,
 * paired and in order. As an agent's tool, the same run answers in short and
 * puts the advice of an error into its message, the only part a model sees.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	if (!runsAsTool(this)) return await routeOperation.call(this, false);
	try {
		return await routeOperation.call(this, true);
	} catch (error) {
		throw withAdviceInMessage(toItemError(this.getNode(), error, 0));
	}
}

async function routeOperation(
	this: IExecuteFunctions,
	forTool: boolean,
): Promise<INodeExecutionData[][]> {
	const itemCount = this.getInputData().length;
	// Workflows saved before there were resources have none: they are all about a crew.
	const resource = this.getNodeParameter('resource', 0, 'crew') as string;
	const operation = this.getNodeParameter('operation', 0) as CrewOperation;
	const chosen = findOperation(this.getNode(), resource, operation);
	const tools = createOperationTools(this);
	let outcomes: ItemOutcome[];
	if ('executeBatch' in chosen) {
		outcomes = await chosen.executeBatch.call(this, itemCount, tools);
	} else {
		outcomes = await runPerItem(this, itemCount, chosen.execute, tools);
	}

	return [
		outcomes.map((outcome, itemIndex) => {
			if ('json' in outcome && forTool)
				return { json: toolAnswer(operation, outcome.json), pairedItem: { item: itemIndex } };
			if ('json' in outcome)
				return {
					json: outcome.json,
					...(outcome.sendMessage ? { sendMessage: outcome.sendMessage } : {}),
					pairedItem: { item: itemIndex },
				};
			const error = toItemError(this.getNode(), outcome.error, itemIndex);
			if (!this.continueOnFail()) throw error;
			if (forTool)
				return { json: toolErrorAnswer({ ...outcome, error }), pairedItem: { item: itemIndex } };
			return errorOutputItem(this.getNode(), { ...outcome, error }, itemIndex);
		}),
	];
}
