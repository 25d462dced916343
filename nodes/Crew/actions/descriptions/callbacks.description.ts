import type { INodeProperties } from 'n8n-workflow';

import type { StreamEventGroup } from '../../../callbacksOut/streamEvents';

/** Each event group's choice, in the order n8n lists options: alphabetical by name. */
const GROUP_LABELS: Record<StreamEventGroup, { name: string; description: string }> = {
	agent: {
		name: 'Agent',
		description:
			'Sends agent_execution_*, lite_agent_*, agent_logs_*, agent_evaluation_*, agent_reasoning_*',
	},
	crew: { name: 'Crew', description: 'Sends crew_kickoff_*, crew_train_*, crew_test_*' },
	flow: { name: 'Flow', description: 'Sends flow_*, method_execution_*' },
	llm: { name: 'LLM', description: 'Sends llm_call_*, llm_stream_chunk, llm_guardrail_*' },
	memory: { name: 'Memory and Knowledge', description: 'Sends memory_*, knowledge_*' },
	runFinished: {
		name: 'Run Finished or Failed',
		description:
			'Sends crew_kickoff_completed, crew_kickoff_failed, flow_finished, method_execution_failed',
	},
	task: {
		name: 'Task',
		description: 'Sends task_started, task_completed, task_failed, task_evaluation',
	},
	tool: { name: 'Tool', description: 'Sends tool_usage_*, tool_*_error' },
};

/**
 * The Webhook Secret field of node version 1 (the unpublished 0.1.0's), kept for the workflows made
 * with it: the Kickoff's option that sends it and the Crew Trigger's parameter that checks it.
 * Newer versions take it from the Crew API credential's Legacy Webhook Secret.
 */
export function legacyWebhookSecretField(name: string, description: string): INodeProperties {
	return {
		displayName: 'Webhook Secret',
		name,
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description,
		displayOptions: { show: { '@version': [1] } },
	};
}

/**
 * The Human Input Webhook URL option, which a kickoff sends and a resume sends again; `description`
 * says how each sends it.
 */
export function humanInputWebhookUrlOption(description: string): INodeProperties {
	return {
		displayName: 'Human Input Webhook URL',
		name: 'humanInputWebhookUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://n8n.example.com/webhook/…/crew',
		description,
	};
}

/**
 * Kickoff options for the service's own callback channels. Their secrets come
 * from the Crew API credential's Callbacks section, never from a parameter.
 */
export const callbackOptions: INodeProperties[] = [
	{
		displayName: 'Event Stream URL',
		name: 'eventStreamUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://n8n.example.com/webhook/…/crew',
		description:
			"Requests the service's event stream to this URL, e.g. a Crew Trigger's production URL. The service sends the Callback Bearer Token of the Crew API credential with every call.",
	},
	{
		displayName: 'Event Stream Events',
		name: 'eventStreamEvents',
		type: 'multiOptions',
		default: ['runFinished'],
		options: Object.entries(GROUP_LABELS).map(([group, label]) => ({
			name: label.name,
			value: group,
			description: label.description,
		})),
		description: 'Which events the service streams; more events mean more calls to n8n',
	},
	{
		displayName: 'Event Stream Additional Types',
		name: 'eventStreamAdditionalTypes',
		type: 'string',
		default: '',
		placeholder: 'e.g. flow_failed, my_custom_event',
		description:
			'More event type names, separated by commas: events your crew emits itself, or ones the service documents nowhere',
	},
	{
		displayName: 'Event Stream Realtime',
		name: 'eventStreamRealtime',
		type: 'boolean',
		default: false,
		description:
			'Whether each event is sent as it happens rather than in batches. The service warns that this slows the crew down.',
	},
	humanInputWebhookUrlOption(
		"URL the service calls when the crew pauses for human input, e.g. a Crew Trigger's production URL; answer with Resume. Sent as humanInputWebhookUrl, which the hosted service calls without authentication (no credential needed), and, when the Crew API credential has a Callback Bearer Token or Human Input Basic Auth User and Password, also as the documented humanInputWebhook with that auth (the token first).",
	),
	{
		displayName: 'Human Input Webhook Auth',
		name: 'humanInputWebhookAuth',
		type: 'options',
		default: 'bearer',
		options: [
			{
				name: 'Bearer Token',
				value: 'bearer',
				description: 'The Callback Bearer Token of the Crew API credential',
			},
			{
				name: 'Basic Auth',
				value: 'basic',
				description: 'The Human Input Basic Auth User and Password of the Crew API credential',
			},
		],
		description:
			'How the service proves itself when it calls the Human Input Webhook URL, as the vendor documents it (needs that secret in the Crew API credential). Not set: the secret the credential holds, if any. The hosted service was seen calling without any authentication.',
	},
];
