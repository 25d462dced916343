import type { IDataObject } from 'n8n-workflow';

/** A JSON object, as the service's records and n8n's parameters carry them: not null, not a list. */
export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
