import { isPlainObject } from './crewStatus';

/** One input a crew expects, as far as the service tells. */
export interface CrewInput {
	name: string;
	type: string;
	required: boolean;
}

/**
 * Reads the answer of `GET /inputs`. The documented answer lists names only
 * (`{"inputs": ["budget"]}`); one seen in the wild lists objects with a `name`.
 * Names come from `{placeholder}` braces in the crew's prompts and a crew cannot
 * fill a prompt with one missing, so a name without details counts as a
 * required string.
 */
export function readCrewInputs(body: unknown): CrewInput[] {
	const list = isPlainObject(body) && Array.isArray(body.inputs) ? body.inputs : Array.isArray(body) ? body : [];
	const inputs: CrewInput[] = [];
	for (const entry of list) {
		if (typeof entry === 'string' && entry !== '') {
			inputs.push({ name: entry, type: 'string', required: true });
		} else if (isPlainObject(entry) && typeof entry.name === 'string' && entry.name !== '') {
			inputs.push({
				name: entry.name,
				type: typeof entry.type === 'string' && entry.type !== '' ? entry.type : 'string',
				required: entry.required === undefined ? true : entry.required !== false,
			});
		}
	}
	return inputs;
}

/** True when the body looks like an inputs listing at all (an HTML page from a wrong URL does not). */
export function isInputsListing(body: unknown): boolean {
	return isPlainObject(body) && Array.isArray(body.inputs);
}
