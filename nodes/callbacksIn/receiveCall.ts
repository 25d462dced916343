import type { IDataObject } from 'n8n-workflow';

import { groupsOfEventType } from '../callbacksOut/streamEvents';
import { checkAuthorization } from './callbackAuth';
import type { TriggerSecrets } from './callbackAuth';
import { carriesSecret, classifyCrewEvent, toTriggerItem } from './crewWebhook';
import {
	hasSignatureHeaders,
	toFeedbackRequestItem,
	verifyFeedbackSignature,
} from './flowFeedback';
import type { Headers } from './flowFeedback';
import { looksLikeHumanInput, toHumanInputItem, unauthenticatedCallProblem } from './humanInput';
import { feedbackRequestKey } from './feedbackReplays';
import { withoutSecrets } from './itemSecrets';
import { isStreamDelivery, readStreamEvents, toStreamItem } from './streamDelivery';

/**
 * What the user picks in the Crew Trigger. 'crew', 'task' and 'step' are the
 * 0.1.0 values (the legacy URLs), and now also cover the stream's crew, task
 * and agent events.
 */
export type TriggerEvent =
	| 'runFinished'
	| 'crew'
	| 'task'
	| 'step'
	| 'llm'
	| 'tool'
	| 'flow'
	| 'memory'
	| 'all'
	| 'humanInput'
	| 'feedbackRequest';

export type Channel = 'stream' | 'humanInput' | 'feedbackRequest' | 'legacy';

export interface IncomingCall {
	headers: Headers;
	body: IDataObject;
	/** The exact bytes received, for the signature; JSON as parsed is not the same text. */
	rawBody: string;
	picked: TriggerEvent[];
	secrets: TriggerSecrets;
	/** The 0.1.0 trigger's Webhook Secret parameter, honoured when set. */
	legacySecretParameter: string;
	/** Every secret of the trigger's Crew API credential (its token too): no item shows one. */
	credentialSecrets: readonly string[];
	nowMs: number;
}

/**
 * A signed feedback request, taken once: what tells a replay of it, and when it was signed
 * (feedbackReplays.ts).
 */
export interface OnceOnly {
	key: string;
	signedAtMs: number;
}

export type CallOutcome =
	/** Answered with a bare 401, the reason only in n8n's log. */
	| { kind: 'refused'; channel: Channel; reason: string }
	| { kind: 'ignored'; channel: Channel; reason: string }
	| { kind: 'accepted'; channel: Channel; items: IDataObject[]; once?: OnceOnly };

/**
 * Which channel a call came by: a signature, an events list, an Authorization header or
 * execution_id, else a legacy URL.
 */
export function channelOf(headers: Headers, body: IDataObject): Channel {
	if (
		hasSignatureHeaders(headers) ||
		body.event === 'new_request' ||
		body.event_type === 'new_request'
	)
		return 'feedbackRequest';
	if (isStreamDelivery(body)) return 'stream';
	if (headers.authorization !== undefined || looksLikeHumanInput(body)) return 'humanInput';
	return 'legacy';
}

/** The stream's groups the picks stand for; 'step' is the agent's steps. */
function wantsEventType(type: string, picked: TriggerEvent[]): boolean {
	if (picked.includes('all')) return true;
	return groupsOfEventType(type).some((group) =>
		picked.includes(group === 'agent' ? 'step' : (group as TriggerEvent)),
	);
}

/** The legacy payloads each pick accepts: 'runFinished' includes the crew's end. */
function wantsLegacy(event: 'crew' | 'task' | 'step', picked: TriggerEvent[]): boolean {
	return (
		picked.includes('all') ||
		picked.includes(event) ||
		(event === 'crew' && picked.includes('runFinished'))
	);
}

/**
 * Decides what to do with one call, before anything runs: refuse it (401, no
 * execution), acknowledge and ignore it, or start the workflow with its items, which
 * show no secret of the credential, on every channel (itemSecrets.ts).
 * Pure, so each rule is tested directly; the node only reads the request and answers.
 */
export function receiveCall(call: IncomingCall): CallOutcome {
	const outcome = decide(call);
	if (outcome.kind !== 'accepted') return outcome;
	const hidden = [...call.credentialSecrets, call.legacySecretParameter.trim()];
	return { ...outcome, items: outcome.items.map((item) => withoutSecrets(item, hidden)) };
}

function decide(call: IncomingCall): CallOutcome {
	const { headers, body, picked } = call;
	const channel = channelOf(headers, body);
	if (channel === 'feedbackRequest') {
		const check = verifyFeedbackSignature({
			headers,
			rawBody: call.rawBody,
			secret: call.secrets.signingSecret,
			nowMs: call.nowMs,
		});
		if (!check.ok) return { kind: 'refused', channel, reason: check.reason };
		if (!picked.includes('feedbackRequest') && !picked.includes('all'))
			return { kind: 'ignored', channel, reason: 'feedback requests not picked' };
		const item = toFeedbackRequestItem(body);
		return {
			kind: 'accepted',
			channel,
			items: [item],
			once: { key: feedbackRequestKey(item, check.signature), signedAtMs: check.signedAtMs },
		};
	}
	if (channel === 'humanInput' && headers.authorization === undefined) {
		// The hosted service calls humanInputWebhookUrl with no Authorization at all; only the kickoff
		// id is checked.
		const problem = unauthenticatedCallProblem(body);
		if (problem !== undefined) return { kind: 'refused', channel, reason: problem };
		if (!picked.includes('humanInput') && !picked.includes('all'))
			return { kind: 'ignored', channel, reason: 'human input not picked' };
		return { kind: 'accepted', channel, items: [toHumanInputItem(body, false)] };
	}
	if (channel === 'stream' || channel === 'humanInput') {
		const check = checkAuthorization(
			typeof headers.authorization === 'string' ? headers.authorization : undefined,
			call.secrets,
		);
		if (!check.ok) return { kind: 'refused', channel, reason: check.reason };
		if (channel === 'humanInput') {
			if (!picked.includes('humanInput') && !picked.includes('all'))
				return { kind: 'ignored', channel, reason: 'human input not picked' };
			return { kind: 'accepted', channel, items: [toHumanInputItem(body)] };
		}
		const items = readStreamEvents(body)
			.filter((event) => wantsEventType(event.type, picked))
			.map(toStreamItem);
		return items.length > 0
			? { kind: 'accepted', channel, items }
			: { kind: 'ignored', channel, reason: 'no picked event in this delivery' };
	}
	const secret = call.legacySecretParameter.trim() || call.secrets.metaSecret?.trim() || '';
	if (!carriesSecret(body, secret))
		return { kind: 'refused', channel, reason: 'the webhook secret is missing or wrong' };
	const event = classifyCrewEvent(body);
	if (event === undefined || !wantsLegacy(event, picked))
		return { kind: 'ignored', channel, reason: event ?? 'unknown' };
	return { kind: 'accepted', channel, items: [toTriggerItem(event, body)] };
}
