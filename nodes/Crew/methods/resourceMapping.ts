import type { FieldType, ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { loadCrewInputs } from '../actions/getInputs.operation';

const FIELD_TYPES: Record<string, FieldType> = {
	string: 'string',
	str: 'string',
	text: 'string',
	number: 'number',
	integer: 'number',
	int: 'number',
	float: 'number',
	boolean: 'boolean',
	bool: 'boolean',
	date: 'dateTime',
	datetime: 'dateTime',
	object: 'object',
	dict: 'object',
	array: 'array',
	list: 'array',
};

/**
 * The editor's input fields, one per input `GET /inputs` lists. A failing
 * request throws, so the editor shows why (token, address) instead of no fields.
 */
export async function getCrewInputs(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	// The editor waits for this answer: one try, no sleeping between retries.
	const inputs = await loadCrewInputs(this, 0, { sleep: async () => {}, isCancelled: () => true });
	return {
		fields: inputs.map((input) => ({
			id: input.name,
			displayName: input.name,
			required: input.required,
			defaultMatch: false,
			display: true,
			type: FIELD_TYPES[input.type.toLowerCase()] ?? 'string',
			canBeUsedToMatch: false,
		})),
	};
}
