import type { IDataObject } from 'n8n-workflow';

import { InvalidParameterError } from './invalidParameter';
import { parseJson } from './jsonInput';
import { isPlainObject } from './plainObject';

/** A value the service cannot take as it is: a date becomes ISO 8601, like a crew's. */
function asJsonValue(value: unknown): unknown {
	if (value instanceof Date) return value.toISOString();
	if (typeof (value as { toISO?: unknown } | null)?.toISO === 'function')
		return (value as { toISO: () => string }).toISO();
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
export function toFlowFieldValue(
	name: string,
	type: FlowFieldType | undefined,
	value: unknown,
): unknown {
	if (typeof value !== 'string') return asJsonValue(value);
	const text = value.trim();
	if (type === 'number') {
		if (text !== '' && !Number.isNaN(Number(text))) return Number(text);
		throw new InvalidParameterError(
			`The flow's field ${name} takes a number, not "${value}"`,
			`Give ${name} as a number such as 3, or leave it empty to keep the flow's default.`,
		);
	}
	if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
	if (type === 'array' || type === 'object') {
		const parsed = parseJson(text);
		const fits =
			!('syntaxError' in parsed) &&
			(type === 'array' ? Array.isArray(parsed.value) : isPlainObject(parsed.value));
		if (fits) return (parsed as { value: unknown }).value;
		const example = type === 'array' ? '["first", "second"]' : '{"key": "value"}';
		throw new InvalidParameterError(
			`The flow's field ${name} takes a JSON ${type === 'array' ? 'list' : 'object'}, not "${value.length > 80 ? `${value.slice(0, 79)}…` : value}"`,
			`Give ${name} as JSON text such as ${example}, or an expression that gives one. Sent as text, the flow would fail on it. No request was sent for this item.`,
		);
	}
	if (/^[[{]/.test(text)) {
		const parsed = parseJson(text);
		if (!('syntaxError' in parsed) && (Array.isArray(parsed.value) || isPlainObject(parsed.value)))
			return parsed.value;
	}
	return value;
}

/** A flow's mapped fields as sent: each with its field's type, empty ones left out. */
export function toFlowFieldValues(
	values: IDataObject,
	types: Record<string, FlowFieldType | undefined>,
): IDataObject {
	const wire: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (isEmptyValue(value) || (typeof value === 'string' && value.trim() === '')) continue;
		wire[name] = toFlowFieldValue(name, types[name], value) as IDataObject[string];
	}
	return wire;
}
