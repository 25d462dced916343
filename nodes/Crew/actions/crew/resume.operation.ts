import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { buildResumeBody, readResumedRunId } from '../../../records/resumeBody';
import type { ResumeUrls } from '../../../records/resumeBody';
import { isPlainObject } from '../../../records/plainObject';
import { crewAnswerError } from '../../../transport/crewErrors';
import { getCrewConnection, isSuccess } from '../../../transport';
import type { CrewConnection } from '../../../transport';
import { postAtMostOnce } from '../../../transport/postOnce';
import { checkUrlOptions, URL_OPTIONS } from '../../../records/urlOptions';
import type { RunningKickoff } from '../../../waiting/waitForCompletion';
import { optionsCollection, webhookUrlOptions } from '../../../kickoff/inputs.description';
import { toItemError } from '../common/itemError';
import { kickoffIdField, readKickoffId } from '../common/kickoffId';
import { credentialSecrets, itemRequest, startOnce, triesMemory, withUnansweredSend } from '../../../retryOnFail/triesMemory';
import { rememberEnding, tryEndingOf, unansweredSend } from '../../../retryOnFail/earlierTries';
import type { ItemOutcome, OperationTools } from '../common/operationTools';
import {
	DEFAULT_POLL_INTERVAL_SECONDS,
	DEFAULT_TIMEOUT_SECONDS,
	MAX_TIMEOUT_SECONDS,
	outcomeToItem,
	pollRunningCrews,
	readWaitSettings,
	withRunningCrews,
} from '../../../waiting/batchWait';

const show = { show: { operation: ['resume'] } };
/** Shown only with Wait for the Resumed Run on: `/` names the node's own parameter from inside the Options collection. */
const whenWaiting = { show: { '/waitForResumedRun': [true] } };

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
		description: 'The task the paused crew waits on: the task_id that the Crew Trigger\'s Human Input Requested item, Get Status or Kickoff and Wait gives for a paused crew',
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
	{
		displayName: 'Wait for the Resumed Run',
		name: 'waitForResumedRun',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description:
			'Whether to wait until the resumed run has finished and output its result, as Kickoff and Wait does (by polling). The hosted service answers a resume with a new kickoff ID; that is the run waited on.',
		displayOptions: show,
	},
	optionsCollection('resume', [
		...webhookUrlOptions,
		{
			displayName: 'Human Input Webhook URL',
			name: 'humanInputWebhookUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://n8n.example.com/webhook/…/crew',
			description:
				'URL the service calls if the resumed run pauses again for human input (after a rejection, or at a later task), e.g. the Crew Trigger\'s production URL. Sent as humanInputWebhookUrl, with no authentication: the service calls it without any.',
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: 0.1, numberPrecision: 1 },
			default: DEFAULT_POLL_INTERVAL_SECONDS,
			description: 'With Wait for the Resumed Run: the wait between status reads, lengthened for long runs as in Kickoff and Wait',
			displayOptions: whenWaiting,
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_TIMEOUT_SECONDS },
			default: DEFAULT_TIMEOUT_SECONDS,
			description: `With Wait for the Resumed Run: how long to wait for all resumed runs together, counted from the first resume. Runs still going then are not stopped: their items get an error with the kickoff ID to read later with Get Status. 0 or empty means ${DEFAULT_TIMEOUT_SECONDS} seconds.`,
			displayOptions: whenWaiting,
		},
	]),
];

function requiredText(context: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	const value = String(context.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `${label} is empty`, {
			itemIndex,
			description: 'The Crew Trigger\'s Human Input Requested item, Get Status, or the output of Kickoff and Wait gives the kickoff_id and the task_id of a crew paused for human input.',
		});
	}
	return value;
}

/** The webhook URLs to send again, each checked before any request (a bad one is the item's error, via the router). */
function readResumeUrls(context: IExecuteFunctions, itemIndex: number): ResumeUrls {
	const options = context.getNodeParameter('options', itemIndex, {}) as ResumeUrls;
	checkUrlOptions(options, { ...URL_OPTIONS, humanInputWebhookUrl: 'Human Input Webhook URL' });
	return { taskWebhookUrl: options.taskWebhookUrl, stepWebhookUrl: options.stepWebhookUrl, crewWebhookUrl: options.crewWebhookUrl, humanInputWebhookUrl: options.humanInputWebhookUrl };
}

/** One resume sent: the run to follow (the new kickoff ID when the service gave one) and the output item. */
interface SentResume {
	kickoffId: string;
	/** When the run to follow was started: now, or by an earlier try of the node. */
	startedAt: number;
	seen?: boolean;
	json: IDataObject;
}

/**
 * Sends `POST /resume` for one item, once. The hosted service answers with the
 * resumed run's own kickoff ID; the documented service with a status, the run
 * keeping its ID. Either way `kickoff_id` is the run to follow (what Get Status
 * and this node's Kickoff ID read by default) and `resumed_kickoff_id` the paused one.
 */
async function sendResume(context: IExecuteFunctions, itemIndex: number, connection: CrewConnection, tools: OperationTools): Promise<SentResume> {
	const resumedKickoffId = readKickoffId(context, itemIndex, 'resume');
	const body = buildResumeBody({
		kickoffId: resumedKickoffId,
		taskId: requiredText(context, 'taskId', 'Task ID', itemIndex),
		humanFeedback: String(context.getNodeParameter('humanFeedback', itemIndex, '') ?? ''),
		isApprove: context.getNodeParameter('isApprove', itemIndex, true) as boolean,
		...readResumeUrls(context, itemIndex),
	});
	// n8n's Retry On Fail runs every item again: a resume an earlier try sent is not sent again (live, it starts a new run).
	const item = { node: context.getNode(), itemIndex, request: itemRequest(context, itemIndex, connection.secret), sends: 'resume' as const, secrets: await credentialSecrets(context, itemIndex) };
	const sent = await startOnce(triesMemory(context), item, tools.now, async () => {
		const answer = await postAtMostOnce(context, connection, '/resume', body, tools.sleep);
		if (!isSuccess(answer)) {
			const error = crewAnswerError(context.getNode(), answer, { action: 'resume', itemIndex, kickoffId: resumedKickoffId, secret: connection.secret, baseUrl: connection.baseUrl });
			throw withUnansweredSend(error, unansweredSend(answer), connection.secret);
		}
		return { kickoffId: readResumedRunId(answer.body) ?? resumedKickoffId, answer: isPlainObject(answer.body) ? answer.body : {} };
	});
	return { kickoffId: sent.kickoffId, startedAt: sent.startedAt, seen: sent.seen, json: { ...(sent.answer ?? {}), kickoff_id: sent.kickoffId, resumed_kickoff_id: resumedKickoffId } };
}

/** Continues a crew paused for human input (`POST /resume`), approving or rejecting the paused task. */
export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const connection = await getCrewConnection(this, itemIndex);
	return (await sendResume(this, itemIndex, connection, tools)).json;
}

type ResumeResult = { kind: 'sent'; kickoff: RunningKickoff; resumedKickoffId: string } | { kind: 'error'; error: Error };

/**
 * Wait for the Resumed Run: resumes every item in order, then waits on all the
 * resumed runs together, exactly as Kickoff and Wait's Polling waits on its
 * crews (one deadline, the same status reading and item outcomes).
 */
export async function executeAndWait(this: IExecuteFunctions, itemCount: number, tools: OperationTools): Promise<ItemOutcome[]> {
	const settings = readWaitSettings(this.getNodeParameter('options', 0, {}) as { pollInterval?: number; timeout?: number });
	const deadline = tools.now() + settings.timeoutMs;
	const results: ResumeResult[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			const connection = await getCrewConnection(this, itemIndex);
			const sent = await sendResume(this, itemIndex, connection, tools);
			results.push({ kind: 'sent', kickoff: { itemIndex, kickoffId: sent.kickoffId, startedAt: sent.startedAt, seen: sent.seen }, resumedKickoffId: sent.json.resumed_kickoff_id as string });
		} catch (error) {
			const itemError = toItemError(this.getNode(), error, itemIndex);
			const running = results.flatMap((result) => (result.kind === 'sent' ? [result.kickoff] : []));
			// As for a kickoff: stop at the first error, saying which runs were already resumed.
			if (!this.continueOnFail()) throw withRunningCrews(itemError, running);
			results.push({ kind: 'error', error: itemError });
		}
	}

	const running = results.flatMap((result) => (result.kind === 'sent' ? [result.kickoff] : []));
	const connection = running.length > 0 ? await getCrewConnection(this, 0) : undefined;
	const waitOutcomes = connection ? await pollRunningCrews(this, running, { connection, settings, deadline }, tools) : [];
	const memory = triesMemory(this);
	running.forEach((kickoff, position) => rememberEnding(memory, kickoff.itemIndex, tryEndingOf(waitOutcomes[position])));

	let position = 0;
	return results.map((result) => {
		if (result.kind === 'error') return { error: result.error };
		const outcome = outcomeToItem(this.getNode(), result.kickoff, waitOutcomes[position++], settings.timeoutMs);
		return 'json' in outcome ? { json: { ...outcome.json, resumed_kickoff_id: result.resumedKickoffId } } : outcome;
	});
}
