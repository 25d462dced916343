import type { IDataObject } from 'n8n-workflow';

import { WEBHOOK_SECRET_FIELD } from '../records/kickoffBody';
import { sameSecret } from './callbackAuth';
import { isPlainObject } from '../records/plainObject';

/**
 * What the service calls back about: the whole crew finished, a task finished, or an agent took a
 * step.
 */
export type CrewEvent = 'crew' | 'task' | 'step';

const has = (payload: IDataObject, ...keys: string[]) => keys.some((key) => key in payload);

/**
 * Tells the three payloads apart by their fields (docs/development/service-api.md#legacy-webhooks):
 * the service posts them all the same way, and users may paste one URL into all three webhook
 * options.
 */
export function classifyCrewEvent(payload: IDataObject): CrewEvent | undefined {
	if (has(payload, 'expected_output', 'description', 'summary', 'output_json')) return 'task';
	if (has(payload, 'thought', 'tool', 'tool_input', 'prompt')) return 'step';
	if (has(payload, 'token_usage', 'result', 'result_json', 'error')) return 'crew';
	return undefined;
}

/** True when no secret is set, or when the payload's meta carries the same one. */
export function carriesSecret(payload: IDataObject, secret: string): boolean {
	if (secret === '') return true;
	const given = isPlainObject(payload.meta) ? payload.meta[WEBHOOK_SECRET_FIELD] : undefined;
	return typeof given === 'string' && sameSecret(given, secret);
}

/**
 * The item the trigger emits: the payload as sent, the event, kickoff_id and meta on top, the
 * secret left out.
 */
export function toTriggerItem(event: CrewEvent, payload: IDataObject): IDataObject {
	let meta = payload.meta ?? null;
	if (isPlainObject(meta) && WEBHOOK_SECRET_FIELD in meta) {
		const withoutSecret: IDataObject = { ...meta };
		delete withoutSecret[WEBHOOK_SECRET_FIELD];
		meta = withoutSecret;
	}
	return { event, ...payload, kickoff_id: payload.kickoff_id ?? null, meta };
}
