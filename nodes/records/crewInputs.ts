import { isPlainObject } from './plainObject';

/** One input a crew expects, as far as the service tells. */
export interface CrewInput {
	name: string;
	type: string;
	required: boolean;
	/** The value a flow's state field has when none is sent, when the listing gives it. */
	default?: unknown;
}

/**
 * Reads the answer of `GET /inputs`. The documented answer lists names only
 * (`{"inputs": ["budget"]}`); one seen in the wild lists objects with a `name`.
 * Names come from `{placeholder}` braces in the crew's prompts and a crew cannot
 * fill a prompt with one missing, so a name without details counts as a
 * required string.
 */
export function readCrewInputs(body: unknown): CrewInput[] {
	const list =
		isPlainObject(body) && Array.isArray(body.inputs)
			? body.inputs
			: Array.isArray(body)
				? body
				: [];
	const inputs: CrewInput[] = [];
	for (const entry of list) {
		if (typeof entry === 'string' && entry !== '') {
			inputs.push({ name: entry, type: 'string', required: true });
		} else if (isPlainObject(entry) && typeof entry.name === 'string' && entry.name !== '') {
			inputs.push({
				name: entry.name,
				type: typeof entry.type === 'string' && entry.type !== '' ? entry.type : 'string',
				required: entry.required === undefined ? true : entry.required !== false,
				...(entry.default === undefined ? {} : { default: entry.default }),
			});
		}
	}
	return inputs;
}

/**
 * True when the body looks like an inputs listing at all (an HTML page from a wrong URL does not).
 */
export function isInputsListing(body: unknown): boolean {
	return isPlainObject(body) && Array.isArray(body.inputs);
}

/** What a deployment is: a crew (prompt placeholders) or a flow (state fields). */
export type DeploymentKind = 'crew' | 'flow';

/** The Deployment Type parameter: Detect asks `GET /inputs`; Crew and Flow say it. */
export type DeploymentChoice = DeploymentKind | 'detect';

/** A flow's state id: never offered as an input to fill (Restore From State ID does that job). */
export const FLOW_STATE_ID_FIELD = 'id';

/**
 * Tells a flow from a crew by its inputs listing. crewAI gives every flow state
 * an `id` field and lists it (live: `["topic", "count", "id", "history"]`), and a
 * flow's fields are never required, so: the listing names `id` and no entry says
 * `required: true`. A crew whose prompts hold an `{id}` placeholder, listed by
 * name only, reads as a flow too; Deployment Type: Crew is the way out.
 */
export function detectDeployment(body: unknown): DeploymentKind {
	const list = isPlainObject(body) && Array.isArray(body.inputs) ? body.inputs : [];
	const nameOf = (entry: unknown) =>
		typeof entry === 'string' ? entry : isPlainObject(entry) ? entry.name : undefined;
	const namesId = list.some((entry) => nameOf(entry) === FLOW_STATE_ID_FIELD);
	const anyRequired = list.some((entry) => isPlainObject(entry) && entry.required === true);
	return namesId && !anyRequired ? 'flow' : 'crew';
}

/** The deployment a choice means for this listing: the choice itself, or what the listing shows. */
export function resolveDeployment(choice: unknown, body: unknown): DeploymentKind {
	return choice === 'crew' || choice === 'flow' ? choice : detectDeployment(body);
}

/**
 * A flow's inputs as the node offers them: every state field optional (the
 * state has its defaults), and no `id` (filling it is the deprecated resume in
 * place: a 422 for a non-UUID, an overwritten run for a UUID).
 */
export function flowInputs(inputs: CrewInput[]): CrewInput[] {
	return inputs
		.filter((input) => input.name !== FLOW_STATE_ID_FIELD)
		.map((input) => ({ ...input, required: false }));
}

/** The inputs the node offers for a deployment: a crew's as listed, a flow's by flowInputs. */
export function offeredInputs(deployment: DeploymentKind, body: unknown): CrewInput[] {
	const inputs = readCrewInputs(body);
	return deployment === 'flow' ? flowInputs(inputs) : inputs;
}
