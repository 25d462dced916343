import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { toItemError } from './itemError';

/**
 * One input item's outcome: its output, or its error (with the kickoff ID when one exists).
 * `sendMessage` is what n8n's chat shows while the execution waits at this node (an item of
 * a parked execution, nodes/waiting/chatWhileParked.ts).
 */
export type ItemOutcome =
	| { json: IDataObject; sendMessage?: string }
	| { error: Error; kickoffId?: string };

/**
 * What a failed item tells, for Continue On Fail: what happened, what to do, and the kickoff to
 * look up.
 */
export function errorDetails(outcome: { error: Error; kickoffId?: string }): IDataObject {
	const json: IDataObject = { error: outcome.error.message };
	const { description } = outcome.error as { description?: unknown };
	if (typeof description === 'string' && description !== '') json.description = description;
	if (outcome.kickoffId !== undefined) json.kickoff_id = outcome.kickoffId;
	return json;
}

/**
 * The output item of an error, as n8n's WorkflowExecute keeps it. An item that
 * carries `error` has its json replaced by `{error: message}` (normalizeNodeErrors),
 * so the details survive only without it: as fields on the regular output, and on
 * the error output inside `error`, since n8n routes there an item whose json holds
 * only `error` (handleNodeErrorOutput, 1.x and 2.x). Shared by the node's run and
 * its resumed callback, so both give the same item.
 */
export function errorOutputItem(
	node: INode,
	outcome: { error: Error; kickoffId?: string },
	itemIndex: number,
): INodeExecutionData {
	const pairedItem = { item: itemIndex };
	const details = errorDetails(outcome);
	if (node.onError === 'continueRegularOutput') return { json: details, pairedItem };
	if (node.onError === 'continueErrorOutput') {
		const { error, ...rest } = details;
		return { json: { error: { message: error, ...rest } }, pairedItem };
	}
	// The older "Continue On Fail" switch (no onError): as before, the error itself.
	return { json: details, error: toItemError(node, outcome.error, itemIndex), pairedItem };
}
