import type { IDataObject } from 'n8n-workflow';

/**
 * A JSON object, as the service's records and n8n's parameters carry them: not null, not a list.
 */
export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first value given, of several spellings of one field: the service's calls and records
 * name some fields in more than one way, and an empty text is a field left unset.
 */
export function firstGiven(...values: unknown[]): unknown {
	return values.find((value) => value !== undefined && value !== null && value !== '');
}
