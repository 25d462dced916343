import { createHash, randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { humanInputFields } from './callbackBody';

/**
 * What a kickoff of Kickoff and Wait's "Wait By: Callback" sends so that its crew
 * calls the parked execution back: the event stream on n8n's resume URL, with a
 * token of its own, and the resume URL as the human-input webhook. The park step
 * is nodes/waiting/waitByCallback.ts; the call is heard in nodes/callbacksIn/parkedResume.ts.
 */

/**
 * The event stream's two terminal events of a crew: the only channel that reports success and
 * failure, with auth.
 */
export const CALLBACK_EVENT_TYPES = ['crew_kickoff_completed', 'crew_kickoff_failed'] as const;

/**
 * The events that end a flow (docs/development/service-api.md#event-streaming): `flow_finished`,
 * and for a failure `method_execution_failed` (published) and `flow_failed` (in crewAI's source
 * only). Asked for instead of the crew's: crews inside a flow send their own
 * `crew_kickoff_completed`, which is not the flow's end.
 */
export const FLOW_CALLBACK_EVENT_TYPES = [
	'flow_finished',
	'flow_failed',
	'method_execution_failed',
] as const;

/** The terminal events to ask the stream for, by what was started. */
export function callbackEventTypes(deployment: 'crew' | 'flow'): string[] {
	return deployment === 'flow' ? [...FLOW_CALLBACK_EVENT_TYPES] : [...CALLBACK_EVENT_TYPES];
}

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
export function callbackStreamField(
	resumeUrl: string,
	token: string,
	deployment: 'crew' | 'flow' = 'crew',
): IDataObject {
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
export function callbackHumanInputField(
	body: IDataObject,
	resumeUrl: string,
	deployment: 'crew' | 'flow' = 'crew',
): IDataObject {
	const own = body.humanInputWebhookUrl;
	if (deployment === 'flow' || (typeof own === 'string' && own.trim() !== '')) return {};
	// No auth: the live call carries none (the stream's bearer token stays in `webhooks` only).
	return humanInputFields({ url: resumeUrl }, {});
}
