import type { IDataObject } from 'n8n-workflow';

/**
 * The service takes every input as a string. Conversion rules, documented in
 * the README: strings as they are; numbers and booleans by `String()`; dates
 * as ISO 8601; objects and arrays as JSON; null, undefined and empty strings
 * are left out (a required one is then reported as missing).
 */
export function toInputText(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return value === '' ? undefined : value;
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
		return String(value);
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

/** Names of required inputs that have no value, in the order given. */
export function findMissingInputs(
	requiredNames: string[],
	inputs: Record<string, string>,
): string[] {
	return requiredNames.filter((name) => inputs[name] === undefined || inputs[name].trim() === '');
}
