import type { IDataObject } from 'n8n-workflow';

import { InvalidParameterError } from './invalidParameter';
import { isPlainObject } from './plainObject';

/**
 * Accepts a JSON object given as a JSON string, or already as an object (an
 * expression's result, or what an AI agent sends). An empty value is `{}`.
 */
export function parseJsonObject(value: unknown, fieldName: string): IDataObject {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return {};
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
export function parseJson(text: string): { value: unknown } | { syntaxError: string } {
	try {
		return { value: JSON.parse(text) as unknown };
	} catch (error) {
		return { syntaxError: (error as Error).message };
	}
}

/** How a refusal names the JSON type of what the user gave: "an array", "null", "a number". */
export function describeJsonType(value: unknown): string {
	if (Array.isArray(value)) return 'an array';
	if (value === null) return 'null';
	return `a ${typeof value}`;
}
