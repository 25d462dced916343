import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_FIRST_PHASE_SECONDS,
	MAX_FIRST_PHASE_SECONDS,
} from '../../../waiting/callbackWait';

/**
 * From node version 1.5, Resume's Wait for the Resumed Run has Kickoff and Wait's choice, in
 * Resume's words.
 */
export function resumeWaitByField(
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		...waitByDescription,
		options: [
			{
				name: 'Polling',
				value: 'polling',
				description:
					'Read the status until every resumed run ends or pauses again. The execution stays in memory (and holds a worker in queue mode) while the runs work.',
			},
			{
				name: 'Callback',
				value: 'callback',
				description:
					'Resume every item, then park the execution once until the last resumed run calls n8n back, at its end or as it pauses again. Nothing is held while the runs work; n8n must be reachable by the crew service.',
			},
		],
		displayOptions,
	};
}

/** Kickoff and Wait's choice of how to learn that the crew ended. */
export const waitByDescription: INodeProperties = {
	displayName: 'Wait By',
	name: 'waitBy',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Polling',
			value: 'polling',
			description:
				'Read the status until every crew ends. The execution stays in memory (and holds a worker in queue mode) while the crews run.',
		},
		{
			name: 'Callback',
			value: 'callback',
			description:
				"Start every item's crew, then park the execution once until the last crew calls n8n back. Nothing is held while the crews run; n8n must be reachable by the crew service.",
		},
	],
	default: 'polling',
	displayOptions: { show: { operation: ['kickoffAndWait'] } },
};

/**
 * The everyday request/response trap: a Webhook that responds when the last node finishes answers
 * at the moment n8n parks the execution, with the waiting item, never with the crew's result.
 */
export const waitByCallbackNotice: INodeProperties = {
	displayName:
		'Behind a Webhook set to respond when the last node finishes, the caller is answered at once, when the execution parks, with a "running" item and the kickoff ID, never the crew\'s result. ' +
		"To answer with the result, set the Webhook's Respond to \"Using 'Respond to Webhook' Node\" and put a Respond to Webhook node after this one, or use Polling. " +
		'<a href="https://github.com/n8n-nodes-crewai/n8n-nodes-crewai/blob/main/docs/wait-by-callback.md#answering-a-webhooks-caller-with-the-crews-result" target="_blank">More</a>',
	name: 'waitByCallbackWebhookNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { operation: ['kickoffAndWait'], waitBy: ['callback'] } },
};

/** Kickoff and Wait options that only Wait By: Callback reads. */
export const waitByOptions: INodeProperties[] = [
	{
		displayName: 'First Phase (Seconds)',
		name: 'firstPhase',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_FIRST_PHASE_SECONDS },
		default: DEFAULT_FIRST_PHASE_SECONDS,
		description:
			'Wait By: Callback only. How long to poll before parking the execution, so a crew that ends quickly is answered at once and cannot end before n8n has saved the execution as waiting.',
	},
];
