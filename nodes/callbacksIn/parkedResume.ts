import { NodeOperationError } from 'n8n-workflow';
import type {
	INode,
	INodeExecutionData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import {
	AWAITED_ROWS_EXPRESSION,
	awaitedOfRow,
	NOT_WAITING,
	readParkedCall,
	readParkedEntry,
} from './parkedBatch';
import type { AwaitedEntry, CallAnswer, ParkedEntry } from './parkedBatch';
import { readEnds } from './batchEnd';
import type { ItemOutcome } from '../itemResults/outputItems';
import { errorOutputItem } from '../itemResults/outputItems';

/**
 * Wait By: Callback's resume: the webhook of an execution parked for a batch of crews
 * (nodes/waiting/waitByCallback.ts parks it). It reads the parked batch, checks each call,
 * confirms a crew's end with a status read and, once every crew has ended, resumes the
 * execution with the batch's output.
 */

/**
 * The resume webhook. n8n calls `webhook()` when the execution's resume URL is
 * called; the path is empty because the service is handed that URL verbatim.
 */
export const callbackWebhook: IWebhookDescription = {
	name: 'default',
	httpMethod: 'POST',
	path: '',
	restartWebhook: true,
	isFullPath: true,
	responseMode: 'onReceived',
	// Without it n8n answers the literal text "firstEntryJson".
	responseData: '',
};

/**
 * The parked batch, read the only way a webhook can: by expression, over the
 * waiting node's stack entry (n8n-core's WebhookContext takes its items as the
 * node's input). Undefined when any item is not one this node parked.
 */
function readParkedBatch(context: IWebhookFunctions): ParkedEntry[] | undefined {
	const jsons = context.evaluateExpression('{{ $input.all().map((item) => item.json) }}', 0);
	if (!Array.isArray(jsons) || jsons.length === 0) return undefined;
	const entries = jsons.map((json, itemIndex) => readParkedEntry(json, itemIndex));
	return entries.every((entry) => entry !== undefined) ? (entries as ParkedEntry[]) : undefined;
}

/**
 * The crews still awaited when the batch parked: all a call needs until it finds the batch
 * complete.
 */
function readAwaitedCrews(context: IWebhookFunctions): AwaitedEntry[] {
	const rows = context.evaluateExpression(AWAITED_ROWS_EXPRESSION, 0);
	if (!Array.isArray(rows)) return [];
	return rows.flatMap((row, itemIndex) => {
		const entry = awaitedOfRow(row, itemIndex);
		return entry ? [entry] : [];
	});
}

function answer(
	context: IWebhookFunctions,
	{ statusCode, body }: CallAnswer,
): IWebhookResponseData {
	context.getResponseObject().status(statusCode).json(body);
	return { noWebhookResponse: true };
}

/** The node's output once every crew of the batch has ended: polling's items, in input order. */
function batchOutput(
	node: INode,
	entries: readonly ParkedEntry[],
	outcomes: ReadonlyMap<number, ItemOutcome>,
): INodeExecutionData[] {
	return entries.map((entry) => {
		const { itemIndex } = entry;
		if (entry.kind === 'record') return { json: entry.json, pairedItem: { item: itemIndex } };
		const outcome: ItemOutcome =
			entry.kind === 'error'
				? {
						error: new NodeOperationError(node, entry.message, {
							itemIndex,
							description: entry.description,
						}),
						kickoffId: entry.kickoffId,
					}
				: (outcomes.get(itemIndex) as ItemOutcome);
		// A run Resume resumed names the paused run, as Resume's polling gives it.
		const resumed =
			entry.kind === 'awaited' && entry.resumedKickoffId
				? { resumed_kickoff_id: entry.resumedKickoffId }
				: {};
		return 'json' in outcome
			? { json: { ...outcome.json, ...resumed }, pairedItem: { item: itemIndex } }
			: errorOutputItem(node, outcome, itemIndex);
	});
}

/**
 * A call to the resume URL (parkedBatch.ts reads what it is). After an awaited crew's end
 * the batch is read on (readBatchEnd); the call that finds every crew ended resumes the
 * execution with exactly polling's output for the same crews, each record read from the
 * service. Never throws: n8n would resume with an empty item and wipe the earlier nodes' data.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const awaited = readAwaitedCrews(this);
	const call = readParkedCall(awaited, this.getHeaderData().authorization, this.getBodyData());
	const outcomes = call.kind === 'end' ? await readEnds(this, awaited, call) : call;
	if (!(outcomes instanceof Map)) return answer(this, outcomes);
	// Every crew has ended: now, once, the whole batch (the records and errors seen before parking
	// too).
	const entries = readParkedBatch(this);
	if (!entries) return answer(this, NOT_WAITING);
	return {
		webhookResponse: { received: true },
		workflowData: [batchOutput(this.getNode(), entries, outcomes)],
	};
}
