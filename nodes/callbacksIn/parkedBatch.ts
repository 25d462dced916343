import type { IDataObject } from 'n8n-workflow';

import { bearerMatches, isFlowEndEvent, readCallback } from './callbackVerdict';
import type { AwaitedKickoff } from '../waiting/callbackWait';
import { isPlainObject } from '../records/plainObject';
import type { DeploymentKind } from '../records/crewInputs';
import { readPausedTask } from '../records/pausedTask';
import type { PausedTask } from '../records/pausedTask';
import type { CrewStatus } from '../status/crewStatus';
import { pausedFromNotFound } from '../status/notFound';
import { inRegistrationWindow } from '../status/registrationWindow';
import { isEndState } from '../waiting/waitForCompletion';
import type { WaitOutcome } from '../waiting/waitForCompletion';

/**
 * A batch waiting by callback, as it is saved with the waiting execution: one
 * item per input item, in order, in the node's stack entry. n8n keeps nothing
 * else of a waiting node (no call that does not resume saves anything), so this
 * is all the resume webhook knows, on any process and after any restart. Each
 * item is also what n8n outputs for its input item if the timeout comes first.
 */
export type ParkedEntry =
	/**
	 * A crew still running at parking time: the timeout item, with what checks its call, when its
	 * kickoff was answered (absent when parked by an older version) and the paused run a Resume
	 * resumed into it.
	 */
	| ({
			kind: 'awaited';
			itemIndex: number;
			startedAt?: number;
			resumedKickoffId?: string;
	  } & AwaitedKickoff)
	/** A crew whose end the first phase saw: its record, as Polling outputs it. */
	| { kind: 'record'; itemIndex: number; json: IDataObject }
	/**
	 * An item that ended with an error before parking (a failed kickoff or crew, with Continue On
	 * Fail).
	 */
	| { kind: 'error'; itemIndex: number; message: string; description?: string; kickoffId?: string };

export type AwaitedEntry = ParkedEntry & { kind: 'awaited' };

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The awaited crew of a kickoff id and token hash, with when its kickoff was answered
 * (`kicked_off_at`) if the item says.
 */
function awaitedEntry(
	itemIndex: number,
	kickoffId: string,
	tokenHash: string,
	kickedOffAt: unknown,
): AwaitedEntry {
	const startedAt = typeof kickedOffAt === 'string' ? Date.parse(kickedOffAt) : NaN;
	return {
		kind: 'awaited',
		itemIndex,
		kickoffId,
		tokenHash,
		...(Number.isFinite(startedAt) ? { startedAt } : {}),
	};
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
	if (kickoffId && tokenHash)
		return {
			...awaitedEntry(itemIndex, kickoffId, tokenHash, json.kicked_off_at),
			...(resumedKickoffId ? { resumedKickoffId } : {}),
		};
	const message = text(json.error);
	if (message)
		return { kind: 'error', itemIndex, message, description: text(json.description), kickoffId };
	if (text(json.state)) return { kind: 'record', itemIndex, json };
	return undefined;
}

/**
 * The expression that reads only what checks and reads a call's crews, [kickoff id,
 * token hash, kickoff time] per item: n8n 2.x evaluates expressions in an isolate and
 * copies the result out, so a call that does not complete the batch should not copy
 * every item's record.
 */
export const AWAITED_ROWS_EXPRESSION =
	'{{ $input.all().map((item) => [item.json.kickoff_id ?? null, item.json.callback_token_sha256 ?? null, item.json.kicked_off_at ?? null]) }}';

/**
 * An awaited crew from its row (see AWAITED_ROWS_EXPRESSION); undefined for an item that is not
 * awaited.
 */
export function awaitedOfRow(row: unknown, itemIndex: number): AwaitedEntry | undefined {
	if (!Array.isArray(row)) return undefined;
	const [kickoffId, tokenHash] = row.map(text);
	return kickoffId && tokenHash ? awaitedEntry(itemIndex, kickoffId, tokenHash, row[2]) : undefined;
}

/** The awaited crew a call's bearer token belongs to: each crew has its own token. */
export function callerOf(
	entries: readonly ParkedEntry[],
	authorization: unknown,
): AwaitedEntry | undefined {
	for (const entry of entries) {
		if (entry.kind === 'awaited' && bearerMatches(authorization, entry.tokenHash)) return entry;
	}
	return undefined;
}

/** What a call to the resume URL without a crew's token says, if it is a human-input call. */
export type HumanInputCall =
	/**
	 * About a crew this batch awaits: confirm the pause with a status read; `task` is what the person
	 * judges.
	 */
	| { kind: 'awaited'; caller: AwaitedEntry; task: PausedTask }
	/** A human-input call about no crew of this batch: refused, nothing is read. */
	| { kind: 'unknownKickoff' };

function idText(value: unknown): string | undefined {
	return typeof value === 'number' ? String(value) : text(value);
}

/**
 * Reads a call as the live service's human-input call, `{kickoff_id, execution_id, task_id,
 * task_output, meta}`, which carries no Authorization
 * (docs/development/service-api.md#human-input-for-crews): undefined for any other body (a stream
 * call has `events` or a `type`). Nothing authenticates it, so all it may do is name a crew this
 * batch awaits, whose pause a status read then confirms. The documented call has only
 * `execution_id`.
 */
export function readHumanInputCall(
	body: unknown,
	awaited: readonly AwaitedEntry[],
): HumanInputCall | undefined {
	if (!isPlainObject(body) || 'events' in body || 'type' in body) return undefined;
	const kickoffId = idText(body.kickoff_id) ?? idText(body.execution_id);
	if (!kickoffId || !('task_id' in body)) return undefined;
	const caller = awaited.find((entry) => entry.kickoffId === kickoffId);
	return caller
		? { kind: 'awaited', caller, task: readPausedTask(body) }
		: { kind: 'unknownKickoff' };
}

/**
 * The other awaited crews, in the order a call reads them: from the item after
 * the caller's, round to the one before. Every call starts somewhere else, so
 * the crews that ended early are not the first read by every later call.
 */
export function othersInReadingOrder(
	entries: readonly ParkedEntry[],
	caller: { itemIndex: number },
): AwaitedEntry[] {
	const awaited = entries.filter(
		(entry): entry is AwaitedEntry =>
			entry.kind === 'awaited' && entry.itemIndex !== caller.itemIndex,
	);
	const after = awaited.filter((entry) => entry.itemIndex > caller.itemIndex);
	const before = awaited.filter((entry) => entry.itemIndex < caller.itemIndex);
	return [...after, ...before];
}

/** How a call is answered when it resumes nothing. */
export interface CallAnswer {
	kind: 'answer';
	statusCode: number;
	body: IDataObject;
}

export function keepWaiting(statusCode: number, reason: string): CallAnswer {
	return { kind: 'answer', statusCode, body: { received: true, resumed: false, reason } };
}

export const NOT_WAITING: CallAnswer = {
	kind: 'answer',
	statusCode: 409,
	body: { error: 'this execution is not waiting for a crew' },
};

/**
 * A call that says an awaited crew ended; `pausedTask` for the live human-input call, which says it
 * paused on that task.
 */
export interface CrewEndCall {
	kind: 'end';
	caller: AwaitedEntry;
	/**
	 * A flow's end event was asked for only by a flow's kickoff: the batch's records are then a
	 * flow's (flow_state).
	 */
	deployment: DeploymentKind;
	pausedTask?: PausedTask;
}

/**
 * What a call to the resume URL is, before anything is read: an awaited crew's end,
 * or the answer it gets at once. A call is checked against the crew its bearer token
 * belongs to (callbackVerdict.ts); without a crew's token only the live human-input
 * call may be heard, which carries none (README, Wait By: Callback), and only about a
 * crew this batch awaits.
 */
export function readParkedCall(
	awaited: readonly AwaitedEntry[],
	authorization: unknown,
	body: unknown,
): CrewEndCall | CallAnswer {
	if (awaited.length === 0) return NOT_WAITING;
	const refused = (statusCode: number, reason: string): CallAnswer => ({
		kind: 'answer',
		statusCode,
		body: { error: reason },
	});
	const caller = callerOf(awaited, authorization);
	if (!caller) {
		const humanInput = readHumanInputCall(body, awaited);
		if (humanInput?.kind !== 'awaited')
			return refused(
				401,
				humanInput ? 'the call names no crew this execution waits for' : 'invalid callback token',
			);
		return {
			kind: 'end',
			caller: humanInput.caller,
			deployment: 'crew',
			pausedTask: humanInput.task,
		};
	}
	const verdict = readCallback({ body, authorization }, caller);
	if (verdict.kind === 'rejected') return refused(verdict.statusCode, verdict.reason);
	if (verdict.kind === 'notFinal')
		return { kind: 'answer', statusCode: 200, body: { received: true } };
	return { kind: 'end', caller, deployment: isFlowEndEvent(verdict.eventType) ? 'flow' : 'crew' };
}

/**
 * An awaited crew's record as a parked batch reads it when some crew called. NOT FOUND
 * inside the registration window after its kickoff is a run not registered yet (the first
 * phase may be shorter than the window), left as it is; after it, the kickoff having been
 * answered with this id, it is the live service's word for a crew waiting on a human. A
 * crew parked by an older version, whose kickoff time is not known, is past the window.
 */
export function awaitedStatus(status: CrewStatus, sinceKickoffMs: number | undefined): CrewStatus {
	const registering = sinceKickoffMs !== undefined && inRegistrationWindow(sinceKickoffMs);
	return status.state === 'not_found' && !registering ? pausedFromNotFound(status) : status;
}

/**
 * What that record says of the crew: its end, or undefined while it may still run (or is not
 * registered yet).
 */
export function awaitedEnding(
	status: CrewStatus,
	sinceKickoffMs: number | undefined,
): WaitOutcome | undefined {
	const read = awaitedStatus(status, sinceKickoffMs);
	return isEndState(read.state) ? { kind: read.state, status: read } : undefined;
}
