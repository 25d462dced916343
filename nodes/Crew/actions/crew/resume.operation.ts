import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../../../records/crewStatus';
import { buildResumeBody } from '../../../records/kickoffBody';
import type { WebhookUrls } from '../../../records/kickoffBody';
import { crewAnswerError } from '../../transport/crewErrors';
import { getCrewConnection, isSuccess } from '../../transport';
import { postAtMostOnce } from '../../transport/postOnce';
import { checkUrlOptions } from '../../../records/urlOptions';
import { optionsCollection, webhookUrlOptions } from '../crewStart/inputs.description';
import type { OperationTools } from '../itemResults/operationTools';

const show = { show: { operation: ['resume'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Task ID',
		name: 'taskId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. research_task',
		description: 'The task the paused crew waits on: the task_id that Get Status or Kickoff and Wait gives for a paused crew',
		displayOptions: show,
	},
	{
		displayName: 'Approve',
		name: 'isApprove',
		type: 'boolean',
		default: true,
		description: 'Whether to accept the task\'s output and let the crew go on. Off sends the task back to be done again with the feedback; the crew then pauses again.',
		displayOptions: show,
	},
	{
		displayName: 'Feedback',
		name: 'humanFeedback',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: 'What the human says about the task\'s output; the crew takes it into account',
		displayOptions: show,
	},
	optionsCollection('resume', webhookUrlOptions),
];

function requiredText(context: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	const value = String(context.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `${label} is empty`, {
			itemIndex,
			description: 'Get Status, or the output of Kickoff and Wait, gives the kickoff_id and the task_id of a crew paused for human input.',
		});
	}
	return value;
}

/** The webhook URLs to send again, each checked before any request (a bad one is the item's error, via the router). */
function readWebhookUrls(context: IExecuteFunctions, itemIndex: number): WebhookUrls {
	const options = context.getNodeParameter('options', itemIndex, {}) as WebhookUrls;
	checkUrlOptions(options);
	return options;
}

/** Continues a crew paused for human input (`POST /resume`), approving or rejecting the paused task. */
export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const kickoffId = requiredText(this, 'kickoffId', 'Kickoff ID', itemIndex);
	const body = buildResumeBody({
		kickoffId,
		taskId: requiredText(this, 'taskId', 'Task ID', itemIndex),
		humanFeedback: String(this.getNodeParameter('humanFeedback', itemIndex, '') ?? ''),
		isApprove: this.getNodeParameter('isApprove', itemIndex, true) as boolean,
		...readWebhookUrls(this, itemIndex),
	});
	const connection = await getCrewConnection(this, itemIndex);
	const answer = await postAtMostOnce(this, connection, '/resume', body, tools.sleep);
	if (!isSuccess(answer)) {
		throw crewAnswerError(this.getNode(), answer, { action: 'resume', itemIndex, kickoffId, secret: connection.secret, baseUrl: connection.baseUrl });
	}
	return { ...(isPlainObject(answer.body) ? answer.body : {}), kickoff_id: kickoffId };
}
