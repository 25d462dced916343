import { createHmac } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { sameSecret } from './callbackAuth';
import { firstGiven, isPlainObject } from '../records/plainObject';

/**
 * The vendor's recommended replay window (FHITL-Jan12,
 * docs/development/service-api.md#flow-feedback-requests): 5 minutes.
 */
export const SIGNATURE_MAX_AGE_SECONDS = 300;

/** Header names as n8n gives them, lower-case. Both documented spellings, current first. */
const SIGNATURE_HEADERS = ['x-signature', 'x-crewai-signature'];
const TIMESTAMP_HEADERS = ['x-timestamp', 'x-crewai-timestamp'];

export type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, names: string[]): string | undefined {
	for (const name of names) {
		const value = headers[name];
		const text = Array.isArray(value) ? value[0] : value;
		if (typeof text === 'string' && text.trim() !== '') return text.trim();
	}
	return undefined;
}

/** True when the call carries a flow feedback signature (either header family). */
export function hasSignatureHeaders(headers: Headers): boolean {
	return (
		header(headers, SIGNATURE_HEADERS) !== undefined ||
		header(headers, TIMESTAMP_HEADERS) !== undefined
	);
}

/**
 * A verified request carries its signed time and its signature: what tells a replay of it
 * (feedbackReplays.ts).
 */
export type SignatureCheck =
	| { ok: true; signedAtMs: number; signature: string }
	| { ok: false; reason: string };

/**
 * Verifies a flow feedback request: HMAC-SHA256 keyed with the whole `whsec_…`
 * secret over `"{timestamp}.{raw body}"`, hex, with or without the `sha256=`
 * prefix (the current doc shows it, its own snippet compares without), and a
 * timestamp within 5 minutes of `nowMs` either way, so a captured call cannot
 * be replayed later.
 */
export function verifyFeedbackSignature(args: {
	headers: Headers;
	rawBody: string;
	secret: string | undefined;
	nowMs: number;
}): SignatureCheck {
	const secret = args.secret?.trim() ?? '';
	if (secret === '')
		return {
			ok: false,
			reason: 'the Crew Trigger has no Flow Signing Secret in its Crew API credential',
		};
	const signature = header(args.headers, SIGNATURE_HEADERS);
	const timestamp = header(args.headers, TIMESTAMP_HEADERS);
	if (signature === undefined || timestamp === undefined)
		return { ok: false, reason: 'no signature or timestamp header' };
	if (!/^\d{1,12}$/.test(timestamp))
		return { ok: false, reason: 'the timestamp is not Unix seconds' };
	if (Math.abs(args.nowMs / 1000 - Number(timestamp)) > SIGNATURE_MAX_AGE_SECONDS) {
		return {
			ok: false,
			reason: 'the timestamp is more than 5 minutes off (a replay, or a clock far off)',
		};
	}
	const expected = createHmac('sha256', secret)
		.update(`${timestamp}.${args.rawBody}`)
		.digest('hex');
	const given = signature.toLowerCase().startsWith('sha256=')
		? signature.slice('sha256='.length)
		: signature;
	return sameSecret(given.toLowerCase(), expected)
		? { ok: true, signedAtMs: Number(timestamp) * 1000, signature: expected }
		: { ok: false, reason: 'the signature does not match' };
}

/**
 * A feedback request in stable names, from either documented shape: nested
 * (`event`, `request{…, emit_options}`, `deployment{}`) or flat (`event_type`,
 * `id`, `emit`, `deployment_id`), which is what a live deployment was seen to send.
 */
export function toFeedbackRequestItem(payload: IDataObject): IDataObject {
	const request = isPlainObject(payload.request) ? payload.request : payload;
	const deployment = isPlainObject(payload.deployment) ? payload.deployment : {};
	const assignedTo = isPlainObject(payload.assigned_to) ? payload.assigned_to : {};
	return {
		event: 'feedback_requested',
		request_type: firstGiven(payload.event, payload.event_type) ?? null,
		request_id: firstGiven(request.id) ?? null,
		flow_id: firstGiven(request.flow_id) ?? null,
		flow_execution_id: firstGiven(payload.flow_execution_id, request.flow_execution_id) ?? null,
		method_name: firstGiven(request.method_name) ?? null,
		message: firstGiven(request.message) ?? null,
		output: firstGiven(request.output) ?? null,
		emit_options: firstGiven(request.emit_options, request.emit) ?? [],
		default_outcome: firstGiven(request.default_outcome) ?? null,
		state: firstGiven(request.state) ?? null,
		callback_url: firstGiven(payload.callback_url, request.callback_url) ?? null,
		deployment_id: firstGiven(deployment.id, payload.deployment_id) ?? null,
		deployment_name: firstGiven(deployment.name, payload.deployment_name) ?? null,
		assigned_to_email: firstGiven(payload.assigned_to_email, assignedTo.email) ?? null,
		created_at: firstGiven(request.created_at) ?? null,
		payload,
	};
}
