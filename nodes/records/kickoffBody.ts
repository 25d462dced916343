import type { IDataObject } from 'n8n-workflow';

import { isStateId } from './stateId';
import { isPlainObject } from './plainObject';

/**
 * A problem with what the user gave the node, found before any request is sent.
 * These helpers have no node to attach an error to; the operations turn this
 * into the item's NodeOperationError, with this description (Crew/actions/common/itemError.ts).
 */
export class InvalidParameterError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
		this.name = 'InvalidParameterError';
	}
}

/**
 * Accepts a JSON object given as a JSON string, or already as an object (an
 * expression's result, or what an AI agent sends). An empty value is `{}`.
 */
export function parseJsonObject(value: unknown, fieldName: string): IDataObject {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return {};
	if (isPlainObject(value)) return value;
	if (typeof value !== 'string') {
		throw new InvalidParameterError(
			`${fieldName} must be a JSON object, not ${describeJsonType(value)}`,
			`Give ${fieldName} as an object such as {"topic": "AI agents"}.`,
		);
	}
	const parsed = parseJson(value);
	if ('syntaxError' in parsed) {
		throw new InvalidParameterError(
			`${fieldName} is not valid JSON: ${parsed.syntaxError}`,
			`Give ${fieldName} as a JSON object such as {"topic": "AI agents"}; check quotes and commas.`,
		);
	}
	if (!isPlainObject(parsed.value)) {
		throw new InvalidParameterError(
			`${fieldName} must be a JSON object, not ${describeJsonType(parsed.value)}`,
			`Give ${fieldName} as an object of names and values such as {"topic": "AI agents"}.`,
		);
	}
	return parsed.value;
}

/**
 * JSON.parse with its complaint as a value rather than an exception, so that
 * parseJsonObject reports every problem the same way, naming the user's field.
 */
function parseJson(text: string): { value: unknown } | { syntaxError: string } {
	try {
		return { value: JSON.parse(text) as unknown };
	} catch (error) {
		return { syntaxError: (error as Error).message };
	}
}

function describeJsonType(value: unknown): string {
	if (Array.isArray(value)) return 'an array';
	if (value === null) return 'null';
	return `a ${typeof value}`;
}

/**
 * The service takes every input as a string. Conversion rules, documented in
 * the README: strings as they are; numbers and booleans by `String()`; dates
 * as ISO 8601; objects and arrays as JSON; null, undefined and empty strings
 * are left out (a required one is then reported as missing).
 */
export function toInputText(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return value === '' ? undefined : value;
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
	if (value instanceof Date) return value.toISOString();
	// Luxon DateTime, which n8n expressions produce for $now and friends.
	if (typeof (value as { toISO?: unknown }).toISO === 'function') {
		return (value as { toISO: () => string }).toISO();
	}
	return JSON.stringify(value);
}

export function toWireInputs(inputs: IDataObject): Record<string, string> {
	const wire: Record<string, string> = {};
	for (const [name, value] of Object.entries(inputs)) {
		const text = toInputText(value);
		if (text !== undefined) wire[name] = text;
	}
	return wire;
}

/** A value the service cannot take as it is: a date becomes ISO 8601, like a crew's. */
function asJsonValue(value: unknown): unknown {
	if (value instanceof Date) return value.toISOString();
	if (typeof (value as { toISO?: unknown } | null)?.toISO === 'function') return (value as { toISO: () => string }).toISO();
	return value;
}

function isEmptyValue(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

/**
 * A flow's inputs as sent: every value with its JSON type (a list as a list: live,
 * a list given as the text "[]" failed the run), dates as ISO 8601, and empty
 * values (null, undefined, '') left out, so the state keeps its default. JSON
 * mode: the user's types are the types.
 */
export function toFlowInputs(inputs: IDataObject): IDataObject {
	const wire: IDataObject = {};
	for (const [name, value] of Object.entries(inputs)) {
		if (!isEmptyValue(value)) wire[name] = asJsonValue(value) as IDataObject[string];
	}
	return wire;
}

/** The field types of the editor's input fields that a flow's value is read as. */
export type FlowFieldType = 'string' | 'number' | 'boolean' | 'array' | 'object' | string;

/**
 * One mapped flow field's value with the type its field has. Map mode gives text
 * for what the user typed: a number field's digits become a number, a boolean's
 * "true"/"false" a boolean, a list or object field's JSON text is parsed. A text
 * field (also the type of every field when the service lists names only, as live)
 * that holds a JSON list or object is parsed too: the service did not say it is
 * text, and a flow given a list as text fails. Other values go as they are.
 */
export function toFlowFieldValue(name: string, type: FlowFieldType | undefined, value: unknown): unknown {
	if (typeof value !== 'string') return asJsonValue(value);
	const text = value.trim();
	if (type === 'number') {
		if (text !== '' && !Number.isNaN(Number(text))) return Number(text);
		throw new InvalidParameterError(`The flow's field ${name} takes a number, not "${value}"`, `Give ${name} as a number such as 3, or leave it empty to keep the flow's default.`);
	}
	if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
	if (type === 'array' || type === 'object') {
		const parsed = parseJson(text);
		const fits = !('syntaxError' in parsed) && (type === 'array' ? Array.isArray(parsed.value) : isPlainObject(parsed.value));
		if (fits) return (parsed as { value: unknown }).value;
		const example = type === 'array' ? '["first", "second"]' : '{"key": "value"}';
		throw new InvalidParameterError(
			`The flow's field ${name} takes a JSON ${type === 'array' ? 'list' : 'object'}, not "${value.length > 80 ? `${value.slice(0, 79)}…` : value}"`,
			`Give ${name} as JSON text such as ${example}, or an expression that gives one. Sent as text, the flow would fail on it. No request was sent for this item.`,
		);
	}
	if (/^[[{]/.test(text)) {
		const parsed = parseJson(text);
		if (!('syntaxError' in parsed) && (Array.isArray(parsed.value) || isPlainObject(parsed.value))) return parsed.value;
	}
	return value;
}

/** A flow's mapped fields as sent: each with its field's type, empty ones left out. */
export function toFlowFieldValues(values: IDataObject, types: Record<string, FlowFieldType | undefined>): IDataObject {
	const wire: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (isEmptyValue(value) || (typeof value === 'string' && value.trim() === '')) continue;
		wire[name] = toFlowFieldValue(name, types[name], value) as IDataObject[string];
	}
	return wire;
}

/** Names of required inputs that have no value, in the order given. */
export function findMissingInputs(requiredNames: string[], inputs: Record<string, string>): string[] {
	return requiredNames.filter((name) => inputs[name] === undefined || inputs[name].trim() === '');
}

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
	const shown = typeof text === 'string' ? `"${text.length > 80 ? `${text.slice(0, 79)}…` : text}"` : isPlainObject(text) ? 'an object' : describeJsonType(text);
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

/** The body of `POST /kickoff`: the inputs, plus `restoreFromStateId`, `meta` and the webhook URLs when set. */
export function buildKickoffBody(inputs: IDataObject, options: KickoffOptions): IDataObject {
	const body: IDataObject = { inputs };
	// Top level, beside inputs: inside them it would be the deprecated inputs.id, which resumes rather than forks.
	const restoreFromStateId = readRestoreFromStateId(options.restoreFromStateId);
	if (restoreFromStateId !== undefined) body.restoreFromStateId = restoreFromStateId;
	const meta = parseJsonObject(options.meta, 'Meta');
	const secret = options.webhookSecret?.trim();
	if (secret) meta[WEBHOOK_SECRET_FIELD] = secret;
	if (Object.keys(meta).length > 0) body.meta = meta;
	return { ...body, ...webhookFields(options) };
}

/** What a resume sends again: the legacy webhook URLs, and the live service's human-input URL. */
export interface ResumeUrls extends WebhookUrls {
	humanInputWebhookUrl?: string;
}

export interface ResumeRequest extends ResumeUrls {
	kickoffId: string;
	taskId: string;
	humanFeedback: string;
	isApprove: boolean;
}

/**
 * The body of `POST /resume`, every field in both spellings: the documents give
 * snake_case, the hosted service refused it (422, `executionId` and `taskId`
 * "Field required") and took camelCase; the feedback and approval fields' live
 * spelling is not recorded, and FastAPI ignores fields it does not know. The
 * service does not carry the kickoff's webhook URLs over to the resumed run, so
 * they are sent again here.
 */
export function buildResumeBody(request: ResumeRequest): IDataObject {
	const body: IDataObject = {
		executionId: request.kickoffId,
		execution_id: request.kickoffId,
		taskId: request.taskId,
		task_id: request.taskId,
		humanFeedback: request.humanFeedback,
		human_feedback: request.humanFeedback,
		isApprove: request.isApprove,
		is_approve: request.isApprove,
		...webhookFields(request),
	};
	const humanInputWebhookUrl = request.humanInputWebhookUrl?.trim();
	if (humanInputWebhookUrl) body.humanInputWebhookUrl = humanInputWebhookUrl;
	return body;
}

/**
 * The kickoff ID of the run a resume started, when the answer names one: the
 * hosted service answers `{"kickoff_id": "<new id>"}`, the documented one
 * `{"status": "resumed", ...}` (the run keeps its ID; undefined here).
 */
export function readResumedRunId(answer: unknown): string | undefined {
	if (!isPlainObject(answer)) return undefined;
	const id = answer.kickoff_id ?? answer.kickoffId;
	return typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined;
}
