import type { IDataObject } from 'n8n-workflow';

import { SIGNATURE_MAX_AGE_SECONDS } from './flowFeedback';
import { isPlainObject } from '../records/plainObject';

/** Where the Crew Trigger keeps the feedback requests it took, in its node's static data. */
const FIELD = 'feedbackRequestsSeen';
/**
 * How many are kept at most: the static data is written into the workflow's row, so it stays small.
 */
export const MAX_REMEMBERED_FEEDBACK_REQUESTS = 500;

/**
 * What identifies a feedback request: its type (new_request, escalation) and id; without an id, its
 * signature.
 */
export function feedbackRequestKey(item: IDataObject, signature: string): string {
	const id = item.request_id;
	if (typeof id === 'string' || typeof id === 'number')
		return `${String(item.request_type ?? '')}:${String(id)}`;
	return `signature:${signature}`;
}

/**
 * Whether a signed feedback request was taken before, remembering it if not. A request is
 * remembered until its signed timestamp leaves the replay window (5 minutes): after that, the
 * signature check refuses the same call anyway. Kept in `memory` (the node's static data),
 * the expired entries dropped and the oldest beyond MAX_REMEMBERED_FEEDBACK_REQUESTS.
 */
export function seenBefore(
	memory: IDataObject,
	key: string,
	signedAtMs: number,
	nowMs: number,
): boolean {
	const kept = isPlainObject(memory[FIELD]) ? (memory[FIELD] as Record<string, unknown>) : {};
	const until = (value: unknown) => (typeof value === 'number' ? value : 0);
	const earlier = until(kept[key]);
	if (earlier > nowMs) return true;
	const live = Object.entries(kept).filter(([name, value]) => name !== key && until(value) > nowMs);
	live.push([key, signedAtMs + SIGNATURE_MAX_AGE_SECONDS * 1000]);
	live.sort((a, b) => until(a[1]) - until(b[1]));
	// Assigned anew, so that n8n's observed static data marks itself changed and is saved.
	memory[FIELD] = Object.fromEntries(live.slice(-MAX_REMEMBERED_FEEDBACK_REQUESTS)) as IDataObject;
	return false;
}
