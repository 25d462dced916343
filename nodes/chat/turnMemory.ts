import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject } from '../records/plainObject';
import type { SentMessage } from './turn';

/**
 * Which messages this execution sent, so that a repeated execution is recognised by the
 * execution and not by the text. Kept in n8n's node context (`getContext('node')`): one
 * object for the whole execution, which every try of n8n's Retry On Fail reads, and which
 * is saved with the execution's data and so handed to a retry from the Executions list
 * (n8n copies the failed execution's data into the retry). A new execution starts without
 * it: its message is a new message, whatever its text.
 */
const FIELD = 'chatMessagesSent';
/** Per item of each run of the node; a node in a long loop keeps only the latest ones. */
const MAX_KEPT = 1_000;

interface KeptMessage extends SentMessage {
	sessionId: string;
}

/** One item of one run of the node: a node run again in a loop sends its messages anew. */
export function sentMessageKey(runIndex: number, itemIndex: number): string {
	return `${runIndex}:${itemIndex}`;
}

function keptMessages(nodeContext: IDataObject): Record<string, KeptMessage> {
	return isPlainObject(nodeContext[FIELD])
		? (nodeContext[FIELD] as unknown as Record<string, KeptMessage>)
		: {};
}

/** The message an earlier try of this execution sent for this item to this flow session, if any. */
export function sentEarlier(
	nodeContext: IDataObject,
	key: string,
	sessionId: string,
): SentMessage | undefined {
	const kept = keptMessages(nodeContext)[key];
	return isPlainObject(kept) && kept.sessionId === sessionId && typeof kept.position === 'number'
		? { position: kept.position }
		: undefined;
}

/** Remembers the message about to go out for this item, before it is sent. */
export function rememberSending(
	nodeContext: IDataObject,
	key: string,
	sessionId: string,
	sent: SentMessage,
): void {
	const kept = { ...keptMessages(nodeContext) };
	delete kept[key];
	kept[key] = { sessionId, position: sent.position };
	const keys = Object.keys(kept);
	for (const oldest of keys.slice(0, Math.max(0, keys.length - MAX_KEPT))) delete kept[oldest];
	nodeContext[FIELD] = kept as unknown as IDataObject;
}

/**
 * The execution's node context and this run's key for the item; none where n8n gives no node
 * context.
 */
export function turnMemoryOf(
	context: IExecuteFunctions,
	itemIndex: number,
): { nodeContext: IDataObject; key: string } | undefined {
	if (typeof context.getContext !== 'function') return undefined;
	let runIndex = 0;
	try {
		const read = context.getWorkflowDataProxy(itemIndex).$runIndex;
		runIndex = typeof read === 'number' && Number.isInteger(read) && read >= 0 ? read : 0;
	} catch {
		// No data proxy (none is known): the first run's key.
	}
	return {
		nodeContext: context.getContext('node') as IDataObject,
		key: sentMessageKey(runIndex, itemIndex),
	};
}
