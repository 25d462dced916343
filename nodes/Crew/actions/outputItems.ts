import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

export function asNodeError(node: INode, error: Error, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error, { itemIndex });
}

/** An error as an output item, for Continue On Fail: what happened, what to do, and the kickoff to look up. */
export function errorItem(outcome: { error: Error; kickoffId?: string }): IDataObject {
	const json: IDataObject = { error: outcome.error.message };
	const { description } = outcome.error as { description?: unknown };
	if (typeof description === 'string' && description !== '') json.description = description;
	if (outcome.kickoffId !== undefined) json.kickoff_id = outcome.kickoffId;
	return json;
}

/**
 * The output item of an error. n8n moves it to the error output ("Continue (using
 * error output)") by its `error`. Shared by the node's run and its resumed callback,
 * so both give the same item.
 */
export function errorOutputItem(node: INode, outcome: { error: Error; kickoffId?: string }, itemIndex: number): INodeExecutionData {
	return { json: errorItem(outcome), error: asNodeError(node, outcome.error, itemIndex), pairedItem: { item: itemIndex } };
}
