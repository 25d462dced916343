import type { IDataObject } from 'n8n-workflow';

import type { FirstPhaseOutcome } from './firstPhase';
import { isToolCall } from '../execution/toolCall';

/**
 * The pure parts of Kickoff and Wait's "Wait By: Callback" on the park side: the
 * first polling phase, whether to park, what the waiting node remembers of each crew
 * and the items n8n outputs while it waits and when the wait times out. The n8n side
 * is in waitByCallback.ts, beside this file; what the kickoff sends for the call is
 * nodes/callbacksOut/resumeCallbacks.ts, and the call's check nodes/callbacksIn/callbackVerdict.ts.
 */

/** Crews that end within this are answered by polling, before the execution is parked. */
export const DEFAULT_FIRST_PHASE_SECONDS = 10;
export const MAX_FIRST_PHASE_SECONDS = 300;

/**
 * What the waiting node remembers about its kickoff (the stack entry's item, see
 * waitByCallback.ts).
 */
export interface AwaitedKickoff {
	kickoffId: string;
	tokenHash: string;
}

/** How long the node polls before parking: the first phase, never past the timeout. */
export function firstPhaseDeadline(
	startedAt: number,
	timeoutMs: number,
	firstPhaseMs: number,
): number {
	return startedAt + Math.max(0, Math.min(firstPhaseMs, timeoutMs));
}

/**
 * After the first phase: a batch whose crews all ended (or failed to be read) gives
 * polling's own output at once; one with a crew still running is parked, unless the
 * timeout has already passed.
 */
export function shouldPark(
	outcomes: readonly FirstPhaseOutcome[],
	now: number,
	waitTill: number,
): boolean {
	return outcomes.some((outcome) => outcome.kind === 'running') && now < waitTill;
}

/** The First Phase option in milliseconds, the default when empty, within its bounds. */
export function readFirstPhaseMs(value: unknown): number {
	const seconds =
		value === undefined || value === null || value === '' || Number.isNaN(Number(value))
			? DEFAULT_FIRST_PHASE_SECONDS
			: Number(value);
	return Math.round(Math.min(Math.max(seconds, 0), MAX_FIRST_PHASE_SECONDS) * 1000);
}

/**
 * What n8n outputs if the crew never calls back: n8n runs no node code then, so this is prepared
 * before parking.
 */
export interface TimeoutMarker {
	message: string;
	description: string;
	json: IDataObject;
}

/** The timeout item of an awaited crew, with what checks its call. */
function markerOf(awaited: AwaitedKickoff, message: string, description: string): TimeoutMarker {
	const json = {
		error: message,
		description,
		kickoff_id: awaited.kickoffId,
		callback_token_sha256: awaited.tokenHash,
	};
	return { message, description, json };
}

export function timeoutMarker(awaited: AwaitedKickoff, timeoutMs: number): TimeoutMarker {
	const { kickoffId } = awaited;
	return markerOf(
		awaited,
		`The crew did not call back within ${timeoutMs / 1000} seconds (kickoff ID ${kickoffId})`,
		`The crew was not stopped and may still finish, or its call was lost. Read its result with the Get Status operation and kickoff ID ${kickoffId}, or raise Timeout in this node's options.`,
	);
}

/**
 * What n8n outputs for a crew of a batch that did not end while the batch waited, and why it cannot
 * say more.
 */
export function batchTimeoutMarker(
	awaited: AwaitedKickoff,
	timeoutMs: number,
	batchSize: number,
): TimeoutMarker {
	const { kickoffId } = awaited;
	return markerOf(
		awaited,
		`The ${batchSize} crews did not all end within ${timeoutMs / 1000} seconds; this crew's end was not seen (kickoff ID ${kickoffId})`,
		`n8n resumes a waiting execution at its timeout without running the node, so this item cannot tell whether this crew ended after the execution started waiting: it may have finished, failed, or still be running (it was not stopped). ` +
			`Read its result with the Get Status operation and kickoff ID ${kickoffId} (the items that ended before the execution started waiting show their own result), or raise Timeout in this node's options.`,
	);
}

/**
 * The saved item of a crew still running when the batch parks: what n8n outputs for it at the
 * timeout, and when its kickoff was answered, which the resume webhook reads back
 * (nodes/callbacksIn/parkedBatch.ts) to tell a run not registered yet from a pause.
 */
export function awaitedItemJson(marker: TimeoutMarker, startedAt: number): IDataObject {
	return { ...marker.json, kicked_off_at: new Date(startedAt).toISOString() };
}

/**
 * What the waiting item says of itself: a Webhook answering when the last node finishes sends this
 * item to its caller.
 */
export function waitingMessage(kickoffId: string): string {
	return (
		"The crew is still running: this execution is parked until the crew calls back, then the workflow goes on with the crew's result. " +
		"This item is not that result. To answer a webhook's caller with it, set the Webhook's Respond to \"Using 'Respond to Webhook' Node\" " +
		`and put a Respond to Webhook node after the Crew node; or read the result later with Get Status and kickoff ID ${kickoffId}.`
	);
}

/**
 * The item shown while the execution waits (n8n drops it on resume). It is also what a Webhook
 * set to respond when the last node finishes answers its caller at once, at the moment the
 * execution parks, so it says what it is.
 */
export function waitingRecord(kickoffId: string, waitTill: number): IDataObject {
	return {
		kickoff_id: kickoffId,
		state: 'running',
		waiting_for: 'callback',
		wait_till: new Date(waitTill).toISOString(),
		message: waitingMessage(kickoffId),
	};
}

/**
 * Why callback mode cannot run here, or undefined when it can. Any number of items can: the batch
 * parks once.
 */
export function callbackRefusal(
	nodeType: string,
): { message: string; description: string } | undefined {
	if (isToolCall(nodeType, false)) {
		return {
			message: 'Wait By: Callback cannot be used when the Crew node runs as an AI tool',
			description: "An agent's tool call cannot park the execution. Set Wait By to Polling.",
		};
	}
	return undefined;
}
