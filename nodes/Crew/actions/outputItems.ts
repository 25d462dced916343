import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { toItemError } from './itemError';

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
	const error = toItemError(node, outcome.error, itemIndex);
	return { json: errorItem({ ...outcome, error }), error, pairedItem: { item: itemIndex } };
}
