import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection, webhookUrlOptions } from '../descriptions/inputs.description';
import { humanInputWebhookUrlOption } from '../descriptions/callbacks.description';
import { kickoffIdField } from '../common/kickoffId';
import { DEFAULT_TIMEOUT_SECONDS } from '../../../waiting/batchWait';
import { pollIntervalField, timeoutField } from '../descriptions/wait.description';
import { onTimeoutField, stopCrewsOnCancelField } from '../descriptions/stop.description';
import { resumeWaitByField, waitByOptions } from './waitBy.description';
import {
	fromVersion,
	HUMAN_IN_THE_LOOP_VERSION,
	RESUME_STOPS_VERSION,
} from '../../../versions/crewVersions';

/** Resume's panel: what the paused crew gets, and Wait for the Resumed Run with its options. */
const show = { show: { operation: ['resume'] } };
/**
 * Shown only with Wait for the Resumed Run on: `/` names the node's own parameter from inside the
 * Options collection.
 */
const whenWaiting = { show: { '/waitForResumedRun': [true] } };
const whenWaitingStops = {
	show: { '/waitForResumedRun': [true], '@version': [fromVersion(RESUME_STOPS_VERSION)] },
};
const whenWaitingByCallback = {
	show: {
		'/waitForResumedRun': [true],
		'/waitBy': ['callback'],
		'@version': [fromVersion(HUMAN_IN_THE_LOOP_VERSION)],
	},
};

export const description: INodeProperties[] = [
	kickoffIdField('resume'),
	{
		displayName: 'Task ID',
		name: 'taskId',
		type: 'string',
		// The Crew Trigger's human-input item and a paused crew's status both carry task_id.
		default: '={{ $json.task_id }}',
		required: true,
		placeholder: 'e.g. research_task',
		description:
			"The task the paused crew waits on: the task_id that the Crew Trigger's Human Input Requested item, Get Status or Kickoff and Wait gives for a paused crew",
		displayOptions: show,
	},
	{
		displayName: 'Approve',
		name: 'isApprove',
		type: 'boolean',
		default: true,
		description:
			"Whether to accept the task's output and let the crew go on. Off sends the task back to be done again with the feedback; the crew then pauses again.",
		displayOptions: show,
	},
	{
		displayName: 'Feedback',
		name: 'humanFeedback',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: "What the human says about the task's output; the crew takes it into account",
		displayOptions: show,
	},
	{
		displayName: 'Wait for the Resumed Run',
		name: 'waitForResumedRun',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description:
			'Whether to wait until the resumed run has finished (or paused again) and output its result, as Kickoff and Wait does: by polling, or (node version 1.5 and later) by callback. The hosted service answers a resume with a new kickoff ID; that is the run waited on.',
		displayOptions: show,
	},
	// Node version 1.5: the same choice as Kickoff and Wait's; earlier Resume nodes poll, as they did
	// when saved.
	resumeWaitByField({
		show: {
			operation: ['resume'],
			waitForResumedRun: [true],
			'@version': [fromVersion(HUMAN_IN_THE_LOOP_VERSION)],
		},
	}),
	optionsCollection('resume', [
		...webhookUrlOptions,
		humanInputWebhookUrlOption(
			"URL the service calls if the resumed run pauses again for human input (after a rejection, or at a later task), e.g. the Crew Trigger's production URL. Sent as humanInputWebhookUrl, with no authentication: the service calls it without any.",
		),
		{
			...pollIntervalField(
				'With Wait for the Resumed Run: the wait between status reads, lengthened for long runs as in Kickoff and Wait',
			),
			displayOptions: whenWaiting,
		},
		{
			...timeoutField(
				`With Wait for the Resumed Run: how long to wait for all resumed runs together, counted from the first resume (each try of Retry On Fail counts anew). Runs still going then get an error with the kickoff ID to read later with Get Status, and keep running unless On Timeout (node version 1.4 and later) says to stop them. 0 or empty means ${DEFAULT_TIMEOUT_SECONDS} seconds.`,
			),
			displayOptions: whenWaiting,
		},
		...waitByOptions.map((option) => ({ ...option, displayOptions: whenWaitingByCallback })),
		{ ...onTimeoutField, displayOptions: whenWaitingStops },
		{ ...stopCrewsOnCancelField, displayOptions: whenWaitingStops },
	]),
];
