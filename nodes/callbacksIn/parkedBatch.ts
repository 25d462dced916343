import type { IDataObject } from 'n8n-workflow';

import { bearerMatches } from './callbackVerdict';
import type { AwaitedKickoff } from '../waiting/callbackWait';
import { isPlainObject } from '../records/plainObject';
import { readPausedTask } from '../records/pausedTask';
import type { PausedTask } from '../records/pausedTask';

/**
 * A batch waiting by callback, as it is saved with the waiting execution: one
 * item per input item, in order, in the node's stack entry. n8n keeps nothing
 * else of a waiting node (no call that does not resume saves anything), so this
 * is all the resume webhook knows, on any process and after any restart. Each
 * item is also what n8n outputs for its input item if the timeout comes first.
 */
export type ParkedEntry =
	/** A crew still running at parking time: the timeout item, with what checks its call (and the paused run a Resume resumed into it). */
	| ({ kind: 'awaited'; itemIndex: number; resumedKickoffId?: string } & AwaitedKickoff)
	/** A crew whose end the first phase saw: its record, as Polling outputs it. */
	| { kind: 'record'; itemIndex: number; json: IDataObject }
	/** An item that ended with an error before parking (a failed kickoff or crew, with Continue On Fail). */
	| { kind: 'error'; itemIndex: number; message: string; description?: string; kickoffId?: string };

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Reads back one parked item's json. The three kinds are told apart by what
 * only they carry: the token's hash (awaited), a text `error` (the error
 * items' details), a `state` (a record, whose `error` is null unless failed,
 * and a failed record is an error item).
 */
export function readParkedEntry(json: unknown, itemIndex: number): ParkedEntry | undefined {
	if (!isPlainObject(json)) return undefined;
	const kickoffId = text(json.kickoff_id);
	const tokenHash = text(json.callback_token_sha256);
	const resumedKickoffId = text(json.resumed_kickoff_id);
	if (kickoffId && tokenHash) return { kind: 'awaited', itemIndex, kickoffId, tokenHash, ...(resumedKickoffId ? { resumedKickoffId } : {}) };
	const message = text(json.error);
	if (message) return { kind: 'error', itemIndex, message, description: text(json.description), kickoffId };
	if (text(json.state)) return { kind: 'record', itemIndex, json };
	return undefined;
}

/**
 * The expression that reads only what checks a call, [kickoff id, token hash] per
 * item: n8n 2.x evaluates expressions in an isolate and copies the result out, so
 * a call that does not complete the batch should not copy every item's record.
 */
export const AWAITED_ROWS_EXPRESSION = '{{ $input.all().map((item) => [item.json.kickoff_id ?? null, item.json.callback_token_sha256 ?? null]) }}';

/** An awaited crew from its row (see AWAITED_ROWS_EXPRESSION); undefined for an item that is not awaited. */
export function awaitedOfRow(row: unknown, itemIndex: number): (ParkedEntry & { kind: 'awaited' }) | undefined {
	if (!Array.isArray(row)) return undefined;
	const [kickoffId, tokenHash] = row.map(text);
	return kickoffId && tokenHash ? { kind: 'awaited', itemIndex, kickoffId, tokenHash } : undefined;
}

/** The awaited crew a call's bearer token belongs to: each crew has its own token. */
export function callerOf(entries: readonly ParkedEntry[], authorization: unknown): (ParkedEntry & { kind: 'awaited' }) | undefined {
	for (const entry of entries) {
		if (entry.kind === 'awaited' && bearerMatches(authorization, entry.tokenHash)) return entry;
	}
	return undefined;
}

/** What a call to the resume URL without a crew's token says, if it is a human-input call. */
export type HumanInputCall =
	/** About a crew this batch awaits: confirm the pause with a status read; `task` is what the person judges. */
	| { kind: 'awaited'; caller: ParkedEntry & { kind: 'awaited' }; task: PausedTask }
	/** A human-input call about no crew of this batch: refused, nothing is read. */
	| { kind: 'unknownKickoff' };

function idText(value: unknown): string | undefined {
	return typeof value === 'number' ? String(value) : text(value);
}

/**
 * Reads a call as the live service's human-input call, `{kickoff_id, execution_id,
 * task_id, task_output, meta}`, which carries no Authorization
 * (docs/development/service-api.md#human-input-for-crews): undefined for any other body (a stream call has `events` or a `type`).
 * Nothing authenticates it, so all it may do is name a crew this batch awaits, whose
 * pause a status read then confirms. The documented call has only `execution_id`.
 */
export function readHumanInputCall(body: unknown, awaited: ReadonlyArray<ParkedEntry & { kind: 'awaited' }>): HumanInputCall | undefined {
	if (!isPlainObject(body) || 'events' in body || 'type' in body) return undefined;
	const kickoffId = idText(body.kickoff_id) ?? idText(body.execution_id);
	if (!kickoffId || !('task_id' in body)) return undefined;
	const caller = awaited.find((entry) => entry.kickoffId === kickoffId);
	return caller ? { kind: 'awaited', caller, task: readPausedTask(body) } : { kind: 'unknownKickoff' };
}

/**
 * The other awaited crews, in the order a call reads them: from the item after
 * the caller's, round to the one before. Every call starts somewhere else, so
 * the crews that ended early are not the first read by every later call.
 */
export function othersInReadingOrder(entries: readonly ParkedEntry[], caller: { itemIndex: number }): Array<ParkedEntry & { kind: 'awaited' }> {
	const awaited = entries.filter((entry): entry is ParkedEntry & { kind: 'awaited' } => entry.kind === 'awaited' && entry.itemIndex !== caller.itemIndex);
	const after = awaited.filter((entry) => entry.itemIndex > caller.itemIndex);
	const before = awaited.filter((entry) => entry.itemIndex < caller.itemIndex);
	return [...after, ...before];
}
