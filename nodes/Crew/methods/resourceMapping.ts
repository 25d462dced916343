import type {
	FieldType,
	IDataObject,
	ILoadOptionsFunctions,
	ResourceMapperFields,
} from 'n8n-workflow';

import { loadInputsListing } from '../../kickoff/inputsListing';
import { defaultDeploymentChoice } from '../../kickoff/deployment';
import { offeredInputs, resolveDeployment } from '../../records/crewInputs';
import { NO_INPUTS_NOTICE } from '../actions/descriptions/inputs.description';
import { isToolCall } from '../../execution/toolCall';
import { CREDENTIAL_TYPE } from '../../transport';
import { toolFieldDefault } from './toolParameters';

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

const NO_CREDENTIAL_NOTICE =
	"Open this node again to load the crew's inputs: n8n asked for them before the Crew API credential was attached.";

/**
 * What the editor shows in place of the fields when there are none: its text is
 * rendered as HTML, so a service's own words cannot inject markup.
 */
export function noticeText(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

/**
 * A failed load: what happened and what to do. n8n loads the fields again when the
 * node is opened again, not when its credential changes, so the notice says so.
 */
export function failureNotice(error: Error): string {
	const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
	const { description } = error as { description?: unknown };
	const advice =
		typeof description === 'string' && description !== '' ? ` ${sentence(description)}` : '';
	return noticeText(
		`${sentence(error.message)}${advice} Then open this node again to load the inputs.`,
	);
}

/** The mapped values the editor holds now, unresolved (expressions as the user wrote them). */
function currentValues(context: ILoadOptionsFunctions): IDataObject {
	const inputs = context.getCurrentNodeParameter('inputs') as
		| { value?: IDataObject | null }
		| undefined;
	return inputs?.value ?? {};
}

/**
 * The editor's input fields, one per input `GET /inputs` lists. n8n's resource
 * mapper drops a thrown error (it shows at most "Can't get inputs"), so a failed
 * load answers with no fields and the reason (token, address) as the notice n8n
 * shows in their place; a crew with no inputs gets its own notice.
 */
export async function getCrewInputs(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	// n8n 2.x may ask for the fields of a node it has just added before it attaches the
	// credential it picked, and asks again only when the node is opened again.
	if (this.getNode().credentials?.[CREDENTIAL_TYPE] === undefined) {
		return { fields: [], emptyFieldsNotice: noticeText(NO_CREDENTIAL_NOTICE) };
	}
	let listing;
	try {
		// The editor waits for this answer: one try, no sleeping between retries.
		listing = await loadInputsListing(this, 0, { sleep: async () => {}, isCancelled: () => true });
	} catch (error) {
		return { fields: [], emptyFieldsNotice: failureNotice(error as Error) };
	}
	// A flow's fields are optional and typed, without `id`; a crew's are as listed.
	const deployment = resolveDeployment(
		this.getCurrentNodeParameter('deploymentType') ?? defaultDeploymentChoice(this.getNode()),
		listing,
	);
	const optional = deployment === 'flow';
	const inputs = offeredInputs(deployment, listing);
	if (inputs.length === 0) return { fields: [], emptyFieldsNotice: noticeText(NO_INPUTS_NOTICE) };
	// The editor fills a new field with its defaultValue: as a tool, every input starts as the
	// model's to fill.
	const forTool = isToolCall(this.getNode().type, false);
	const current = forTool ? currentValues(this) : {};
	return {
		fields: inputs.map((input) => {
			const type = FIELD_TYPES[input.type.toLowerCase()] ?? 'string';
			const defaultValue = forTool
				? toolFieldDefault(input.name, type, current[input.name], optional)
				: undefined;
			return {
				id: input.name,
				displayName: input.name,
				required: input.required,
				defaultMatch: false,
				display: true,
				type,
				canBeUsedToMatch: false,
				...(defaultValue === undefined ? {} : { defaultValue }),
			};
		}),
	};
}
