import type { INodeProperties } from 'n8n-workflow';

import { callbackOptions, legacyWebhookSecretField } from './callbacks.description';

/** Operations that start a crew and so take inputs and kickoff options. */
export const STARTING_OPERATIONS = ['kickoff', 'kickoffAndWait'];

/** Shown in place of the input fields when the crew lists none. */
export const NO_INPUTS_NOTICE =
	'The crew lists no inputs. It can still be started, with no inputs.';

/** How the inputs are given, then the inputs themselves in either mode. */
export const inputsFields: INodeProperties[] = [
	{
		displayName: 'Inputs Mode',
		name: 'inputsMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Map Each Input',
				value: 'map',
				description: 'One field per input the crew expects, loaded from the crew',
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'All inputs as one JSON object',
			},
		],
		default: 'map',
		displayOptions: { show: { operation: STARTING_OPERATIONS } },
	},
	{
		displayName: 'Inputs',
		name: 'inputs',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			// inputsMode as well: n8n's resource mapper loads nothing when it opens on a
			// node that has just been added (its parameters lack "inputs" until n8n fills
			// in the defaults); inputsMode changes then, which makes it load the fields.
			loadOptionsDependsOn: ['operation', 'inputsMode', 'deploymentType'],
			resourceMapper: {
				resourceMapperMethod: 'getCrewInputs',
				mode: 'add',
				fieldWords: { singular: 'input', plural: 'inputs' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
				noFieldsError: NO_INPUTS_NOTICE,
			},
		},
		displayOptions: { show: { operation: STARTING_OPERATIONS, inputsMode: ['map'] } },
	},
	{
		displayName: 'Inputs (JSON)',
		name: 'inputsJson',
		type: 'json',
		default: '{}',
		placeholder: 'e.g. {"topic": "AI agents", "audience": "developers"}',
		description:
			'The inputs as a JSON object of names and values, e.g. {"topic": "AI agents"}. A crew gets every value as text (numbers and booleans as written, dates as ISO 8601, objects as JSON); a flow gets them with their JSON types.',
		displayOptions: { show: { operation: STARTING_OPERATIONS, inputsMode: ['json'] } },
	},
];

/** The service calls these as the crew progresses; a resumed crew needs them given again. */
export const webhookUrlOptions: INodeProperties[] = [
	{
		displayName: 'Crew Webhook URL',
		name: 'crewWebhookUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/webhook/crew-finished',
		description:
			"URL the service calls once the whole crew has finished, e.g. a Crew Trigger's production URL. Only for callbacks: Kickoff and Wait reads the result without it.",
	},
	{
		displayName: 'Step Webhook URL',
		name: 'stepWebhookUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/webhook/crew-step',
		description:
			"URL the service calls after each step an agent takes, e.g. a Crew Trigger's production URL. Only for callbacks: Kickoff and Wait does not need it.",
	},
	{
		displayName: 'Task Webhook URL',
		name: 'taskWebhookUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/webhook/crew-task',
		description:
			"URL the service calls as each task finishes, e.g. a Crew Trigger's production URL. Only for callbacks: Kickoff and Wait does not need it.",
	},
];

/** Kickoff options both starting operations offer: the service's optional kickoff fields. */
const kickoffOptions: INodeProperties[] = [
	...webhookUrlOptions,
	...callbackOptions,
	{
		displayName: 'Kickoff Timeout (Seconds)',
		name: 'kickoffTimeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1800 },
		default: 300,
		description:
			'How long to wait for the service to answer the kickoff request. A deployment that was idle can take minutes to answer its first call. A kickoff that times out may still have started its crew, and is never sent again.',
	},
	{
		displayName: 'Meta',
		name: 'meta',
		type: 'json',
		default: '{}',
		description:
			'A JSON object the service stores with the kickoff and echoes in every webhook call, e.g. to tell runs apart',
	},
	{
		displayName: 'Restore From State ID',
		name: 'restoreFromStateId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 123e4567-e89b-42d3-a456-426614174000',
		description:
			'For a persisted (@persist) flow: the state ID of an earlier run to start from, a UUID, e.g. mapped from the flow_state field that Kickoff and Wait gives for the flow. The new run gets that state and a fresh state ID; the earlier run stays as it was. An ID the service does not know starts a fresh state, without an error.',
	},
	legacyWebhookSecretField(
		'webhookSecret',
		'A secret the Crew Trigger checks, so that it accepts only calls from your own kickoffs. Sent in meta.webhook_secret, which the service echoes in every webhook call.',
	),
];

/** The Options collection of a starting operation: the kickoff options plus its own. */
export function startingOptions(
	operation: string,
	ownOptions: INodeProperties[] = [],
): INodeProperties {
	return optionsCollection(operation, [...kickoffOptions, ...ownOptions]);
}

/** An operation's Options collection, in the alphabetical order n8n's lint expects. */
export function optionsCollection(operation: string, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { operation: [operation] } },
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}
