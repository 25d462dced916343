import { timingSafeEqual } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import {
	CALLBACK_EVENT_TYPES,
	FLOW_CALLBACK_EVENT_TYPES,
	hashCallbackToken,
} from '../callbacksOut/resumeCallbacks';
import type { AwaitedKickoff } from '../waiting/callbackWait';
import { isPlainObject } from '../records/plainObject';

/**
 * The check of a call to a parked execution's resume URL (Wait By: Callback): its
 * bearer token, the kickoff its events are about, and whether it is the end.
 * The webhook that answers the call is parkedResume.ts, beside this file.
 */

/** A flow's end event: the call is about a flow, so its status reads are a flow's. */
export function isFlowEndEvent(type: string): boolean {
	return (FLOW_CALLBACK_EVENT_TYPES as readonly string[]).includes(type);
}

const END_EVENT_TYPES: readonly string[] = [...CALLBACK_EVENT_TYPES, ...FLOW_CALLBACK_EVENT_TYPES];

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

/**
 * Every kickoff id an event carries: the stream's `execution_id`, or a `kickoff_id` at the top or
 * in `data`.
 */
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
export function readCallback(
	call: { body: unknown; authorization: unknown },
	awaited: AwaitedKickoff,
): CallbackVerdict {
	if (!bearerMatches(call.authorization, awaited.tokenHash)) {
		return { kind: 'rejected', statusCode: 401, reason: 'invalid callback token' };
	}
	const events = eventsOf(call.body);
	if (events === undefined)
		return { kind: 'rejected', statusCode: 400, reason: 'expected {"events": [...]}' };
	const foreign = events.flatMap(kickoffIdsOf).find((id) => id !== awaited.kickoffId);
	if (foreign !== undefined)
		return { kind: 'rejected', statusCode: 409, reason: 'the call is about another kickoff' };
	// Either kind's end: the service sends only the types the kickoff asked for, a crew's or a
	// flow's.
	const final = events.find((event) => END_EVENT_TYPES.includes(event.type as string));
	return final ? { kind: 'final', eventType: final.type as string } : { kind: 'notFinal' };
}
