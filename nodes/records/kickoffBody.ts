import type { IDataObject } from 'n8n-workflow';

import { InvalidParameterError } from './invalidParameter';
import { describeJsonType, parseJsonObject } from './jsonInput';
import { isStateId } from './stateId';
import { isPlainObject } from './plainObject';

export interface WebhookUrls {
	taskWebhookUrl?: string;
	stepWebhookUrl?: string;
	crewWebhookUrl?: string;
}

export interface KickoffOptions extends WebhookUrls {
	meta?: unknown;
	webhookSecret?: string;
	/** An expression's result may be anything; it is checked before it is sent. */
	restoreFromStateId?: unknown;
}

export const RESTORE_FROM_STATE_ID_LABEL = 'Restore From State ID';

/**
 * The Restore From State ID option, trimmed, or undefined when empty. Checked
 * here because the service says nothing about an id it cannot use: an unknown
 * one silently starts a fresh session, so a typo would lose the flow's state.
 */
export function readRestoreFromStateId(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'string' ? value.trim() : value;
	if (text === '') return undefined;
	if (isStateId(text)) return text;
	const shown =
		typeof text === 'string'
			? `"${text.length > 80 ? `${text.slice(0, 79)}…` : text}"`
			: isPlainObject(text)
				? 'an object'
				: describeJsonType(text);
	throw new InvalidParameterError(
		`${RESTORE_FROM_STATE_ID_LABEL} is not a UUID: ${shown}`,
		`Give the state ID of an earlier run of this persisted flow, a UUID such as 123e4567-e89b-42d3-a456-426614174000 (e.g. {{ $json.flow_state.id }} after a Kickoff and Wait of that flow). Leave ${RESTORE_FROM_STATE_ID_LABEL} empty to start from a fresh state. No request was sent for this item.`,
	);
}

/**
 * Where the Crew Trigger looks for its shared secret. The service sends no
 * header of ours, but it echoes `meta` in every webhook call, so meta carries it.
 */
export const WEBHOOK_SECRET_FIELD = 'webhook_secret';

/** The webhook URLs that are set, trimmed, as the service's body fields. */
export function webhookFields(urls: WebhookUrls): IDataObject {
	const fields: IDataObject = {};
	for (const key of ['taskWebhookUrl', 'stepWebhookUrl', 'crewWebhookUrl'] as const) {
		const url = urls[key]?.trim();
		if (url) fields[key] = url;
	}
	return fields;
}

/**
 * The body of `POST /kickoff`: the inputs, plus `restoreFromStateId`, `meta` and the webhook URLs
 * when set.
 */
export function buildKickoffBody(inputs: IDataObject, options: KickoffOptions): IDataObject {
	const body: IDataObject = { inputs };
	// Top level, beside inputs: inside them it would be the deprecated inputs.id, which resumes
	// rather than forks.
	const restoreFromStateId = readRestoreFromStateId(options.restoreFromStateId);
	if (restoreFromStateId !== undefined) body.restoreFromStateId = restoreFromStateId;
	const meta = parseJsonObject(options.meta, 'Meta');
	const secret = options.webhookSecret?.trim();
	if (secret) meta[WEBHOOK_SECRET_FIELD] = secret;
	if (Object.keys(meta).length > 0) body.meta = meta;
	return { ...body, ...webhookFields(options) };
}
