import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { humanInputFields } from '../callbacksOut/callbackBody';

import type { FirstPhaseOutcome } from './firstPhase';
import { isPlainObject } from '../records/plainObject';

/**
 * The pure parts of Kickoff and Wait's "Wait By: Callback": the event stream the
 * crew calls back on, the check of a call, the first polling phase and the item
 * n8n outputs when the wait times out. The n8n side is in waitByCallback.ts, beside this file.
 */

/** The event stream's two terminal events of a crew: the only channel that reports success and failure, with auth. */
export const CALLBACK_EVENT_TYPES = ['crew_kickoff_completed', 'crew_kickoff_failed'] as const;

/**
 * The events that end a flow (docs/development/service-api.md#event-streaming): `flow_finished`, and for a failure
 * `method_execution_failed` (published) and `flow_failed` (in crewAI's source only).
 * Asked for instead of the crew's: crews inside a flow send their own
 * `crew_kickoff_completed`, which is not the flow's end.
 */
export const FLOW_CALLBACK_EVENT_TYPES = ['flow_finished', 'flow_failed', 'method_execution_failed'] as const;

/** The terminal events to ask the stream for, by what was started. */
export function callbackEventTypes(deployment: 'crew' | 'flow'): string[] {
	return deployment === 'flow' ? [...FLOW_CALLBACK_EVENT_TYPES] : [...CALLBACK_EVENT_TYPES];
}

/** A flow's end event: the call is about a flow, so its status reads are a flow's. */
export function isFlowEndEvent(type: string): boolean {
	return (FLOW_CALLBACK_EVENT_TYPES as readonly string[]).includes(type);
}

const END_EVENT_TYPES: readonly string[] = [...CALLBACK_EVENT_TYPES, ...FLOW_CALLBACK_EVENT_TYPES];

/** Crews that end within this are answered by polling, before the execution is parked. */
export const DEFAULT_FIRST_PHASE_SECONDS = 10;
export const MAX_FIRST_PHASE_SECONDS = 300;

/** A fresh random bearer token per kickoff: the crew sends it back, n8n never shows it. */
export function newCallbackToken(): string {
	return randomBytes(32).toString('hex');
}

/**
 * Only this hash is stored in the waiting execution, so neither the execution's data
 * nor the timeout item ever holds the token itself.
 */
export function hashCallbackToken(token: string): string {
	return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The kickoff's `webhooks` object. The URL is n8n's resume URL exactly as given: on
 * n8n 2.x its `?signature=` is what n8n checks before the node sees the call.
 */
export function callbackStreamField(resumeUrl: string, token: string, deployment: 'crew' | 'flow' = 'crew'): IDataObject {
	return {
		events: callbackEventTypes(deployment),
		url: resumeUrl,
		// One call per terminal event, at once, rather than a batch after a delay.
		realtime: true,
		authentication: { strategy: 'bearer', token },
	};
}

/**
 * The resume URL as a crew's `humanInputWebhookUrl`: live, a crew that pauses for
 * human input sends no stream event, so without this call a parked batch whose last
 * running crew pauses waits out its timeout. The user's own Human Input Webhook URL
 * wins (their Crew Trigger is told the task; the service calls one URL), and a
 * flow's human input does not come this way: then nothing is added.
 */
export function callbackHumanInputField(body: IDataObject, resumeUrl: string, deployment: 'crew' | 'flow' = 'crew'): IDataObject {
	const own = body.humanInputWebhookUrl;
	if (deployment === 'flow' || (typeof own === 'string' && own.trim() !== '')) return {};
	// No auth: the live call carries none (the stream's bearer token stays in `webhooks` only).
	return humanInputFields({ url: resumeUrl }, {});
}

/** What the waiting node remembers about its kickoff (the stack entry's item, see waitByCallback.ts). */
export interface AwaitedKickoff {
	kickoffId: string;
	tokenHash: string;
}

export type CallbackVerdict =
	/** The crew's end: confirm it with a status read, then resume. */
	| { kind: 'final'; eventType: string }
	/** Authentic, about this kickoff, but not the end: answer 2xx and keep waiting. */
	| { kind: 'notFinal' }
	/** Not accepted: answer with this status, keep waiting. */
	| { kind: 'rejected'; statusCode: 400 | 401 | 409; reason: string };

/** `Authorization: Bearer <token>` compared with the stored hash in constant time. */
export function bearerMatches(authorization: unknown, tokenHash: string): boolean {
	const header = Array.isArray(authorization) ? authorization[0] : authorization;
	if (typeof header !== 'string') return false;
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!match) return false;
	const presented = Buffer.from(hashCallbackToken(match[1]), 'hex');
	const expected = Buffer.from(tokenHash, 'hex');
	return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** The events of a call: the stream's `{"events": [...]}`, or one event object on its own. */
function eventsOf(body: unknown): IDataObject[] | undefined {
	if (!isPlainObject(body)) return undefined;
	if (Array.isArray(body.events)) return body.events.filter(isPlainObject);
	return typeof body.type === 'string' ? [body] : undefined;
}

/** Every kickoff id an event carries: the stream's `execution_id`, or a `kickoff_id` at the top or in `data`. */
function kickoffIdsOf(event: IDataObject): string[] {
	const data = isPlainObject(event.data) ? event.data : {};
	return [event.execution_id, event.kickoff_id, data.kickoff_id]
		.filter((id) => typeof id === 'string' || typeof id === 'number')
		.map(String);
}

/**
 * Whether a call to the resume URL is the awaited crew's end. The bearer token comes
 * first (a wrong one learns nothing else); then every id the events carry must be
 * this kickoff's, so a call about another crew cannot end this wait.
 */
export function readCallback(call: { body: unknown; authorization: unknown }, awaited: AwaitedKickoff): CallbackVerdict {
	if (!bearerMatches(call.authorization, awaited.tokenHash)) {
		return { kind: 'rejected', statusCode: 401, reason: 'invalid callback token' };
	}
	const events = eventsOf(call.body);
	if (events === undefined) return { kind: 'rejected', statusCode: 400, reason: 'expected {"events": [...]}' };
	const foreign = events.flatMap(kickoffIdsOf).find((id) => id !== awaited.kickoffId);
	if (foreign !== undefined) return { kind: 'rejected', statusCode: 409, reason: 'the call is about another kickoff' };
	// Either kind's end: the service sends only the types the kickoff asked for, a crew's or a flow's.
	const final = events.find((event) => END_EVENT_TYPES.includes(event.type as string));
	return final ? { kind: 'final', eventType: final.type as string } : { kind: 'notFinal' };
}

/** How long the node polls before parking: the first phase, never past the timeout. */
export function firstPhaseDeadline(startedAt: number, timeoutMs: number, firstPhaseMs: number): number {
	return startedAt + Math.max(0, Math.min(firstPhaseMs, timeoutMs));
}

/**
 * After the first phase: a batch whose crews all ended (or failed to be read) gives
 * polling's own output at once; one with a crew still running is parked, unless the
 * timeout has already passed.
 */
export function shouldPark(outcomes: readonly FirstPhaseOutcome[], now: number, waitTill: number): boolean {
	return outcomes.some((outcome) => outcome.kind === 'running') && now < waitTill;
}

/** The First Phase option in milliseconds, the default when empty, within its bounds. */
export function readFirstPhaseMs(value: unknown): number {
	const seconds = value === undefined || value === null || value === '' || Number.isNaN(Number(value)) ? DEFAULT_FIRST_PHASE_SECONDS : Number(value);
	return Math.round(Math.min(Math.max(seconds, 0), MAX_FIRST_PHASE_SECONDS) * 1000);
}

/** What n8n outputs if the crew never calls back: n8n runs no node code then, so this is prepared before parking. */
export interface TimeoutMarker {
	message: string;
	description: string;
	json: IDataObject;
}

export function timeoutMarker(awaited: AwaitedKickoff, timeoutMs: number): TimeoutMarker {
	const { kickoffId } = awaited;
	const message = `The crew did not call back within ${timeoutMs / 1000} seconds (kickoff ID ${kickoffId})`;
	const description = `The crew was not stopped and may still finish, or its call was lost. Read its result with the Get Status operation and kickoff ID ${kickoffId}, or raise Timeout in this node's options.`;
	return {
		message,
		description,
		json: { error: message, description, kickoff_id: kickoffId, callback_token_sha256: awaited.tokenHash },
	};
}

/** What the waiting item says of itself: a Webhook answering when the last node finishes sends this item to its caller. */
export function waitingMessage(kickoffId: string): string {
	return (
		'The crew is still running: this execution is parked until the crew calls back, then the workflow goes on with the crew\'s result. ' +
		'This item is not that result. To answer a webhook\'s caller with it, set the Webhook\'s Respond to "Using \'Respond to Webhook\' Node" ' +
		`and put a Respond to Webhook node after the Crew node; or read the result later with Get Status and kickoff ID ${kickoffId}.`
	);
}

/**
 * The item shown while the execution waits (n8n drops it on resume). It is also what a Webhook
 * set to respond when the last node finishes answers its caller at once, at the moment the
 * execution parks, so it says what it is.
 */
export function waitingRecord(kickoffId: string, waitTill: number): IDataObject {
	return { kickoff_id: kickoffId, state: 'running', waiting_for: 'callback', wait_till: new Date(waitTill).toISOString(), message: waitingMessage(kickoffId) };
}

/** Why callback mode cannot run here, or undefined when it can. Any number of items can: the batch parks once. */
export function callbackRefusal(nodeType: string): { message: string; description: string } | undefined {
	if (nodeType.endsWith('Tool')) {
		return {
			message: 'Wait By: Callback cannot be used when the Crew node runs as an AI tool',
			description: 'An agent\'s tool call cannot park the execution. Set Wait By to Polling.',
		};
	}
	return undefined;
}
