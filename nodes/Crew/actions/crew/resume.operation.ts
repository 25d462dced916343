import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { buildResumeBody, readResumedRunId } from '../../../records/resumeBody';
import type { ResumeUrls } from '../../../records/resumeBody';
import { isPlainObject } from '../../../records/plainObject';
import { crewAnswerError } from '../../../transport/crewErrors';
import { answerWithSecretsHidden } from '../../../transport/hiddenSecrets';
import { secretsSentIn } from '../../../records/sentSecrets';
import { getCrewConnection, isSuccess } from '../../../transport';
import type { CrewConnection, CrewContext } from '../../../transport';
import { postAtMostOnce } from '../../../transport/postOnce';
import { checkUrlOptions, URL_OPTIONS } from '../../../records/urlOptions';
import type { RunningKickoff } from '../../../waiting/waitForCompletion';
import { optionsCollection, webhookUrlOptions } from '../../../kickoff/inputs.description';
import { humanInputWebhookUrlOption } from '../../../callbacksOut/callbacks.description';
import { toItemError } from '../../../itemResults/itemError';
import { kickoffIdField, readKickoffId } from '../common/kickoffId';
import { credentialSecrets, itemRequest, startOnce, triesMemory, withUnansweredSend } from '../../../retryOnFail/triesMemory';
import { unansweredSend } from '../../../retryOnFail/earlierTries';
import type { ItemOutcome, OperationTools } from '../../../itemResults/operationTools';
import { DEFAULT_TIMEOUT_SECONDS, readWaitSettings } from '../../../waiting/batchWait';
import { waitByPolling } from '../../../waiting/pollingWait';
import { batchFailure } from '../../../waiting/startedCrews';
import type { KickoffResult } from '../../../waiting/startedCrews';
import type { WaitOptions } from '../../../waiting/batchWait';
import { pollIntervalField, timeoutField } from '../../../waiting/wait.description';
import { kickoffSender, onTimeoutField, readStopSettings, stopCrewsOnCancelField } from '../../../stop/stopCrews';
import type { StopOptions, StopSettings } from '../../../stop/stopCrews';
// From this version on Wait for the Resumed Run stops its crews as Kickoff and Wait does; earlier ones stop nothing, as when saved.
import { RESUME_STOPS_VERSION } from '../../../versions/crewVersions';


/** What Resume's wait stops, by the options and the node's version (a pure reading, tested directly). */
export function resumeStopSettings(options: StopOptions, typeVersion: number): StopSettings {
	if (typeVersion < RESUME_STOPS_VERSION) return { stopAtTimeout: false, stopOnCancel: false };
	return readStopSettings(options, typeVersion);
}

const show = { show: { operation: ['resume'] } };
/** Shown only with Wait for the Resumed Run on: `/` names the node's own parameter from inside the Options collection. */
const whenWaiting = { show: { '/waitForResumedRun': [true] } };
const whenWaitingStops = { show: { '/waitForResumedRun': [true], '@version': [{ _cnd: { gte: RESUME_STOPS_VERSION } }] } };

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
		humanInputWebhookUrlOption(
			'URL the service calls if the resumed run pauses again for human input (after a rejection, or at a later task), e.g. the Crew Trigger\'s production URL. Sent as humanInputWebhookUrl, with no authentication: the service calls it without any.',
		),
		{ ...pollIntervalField('With Wait for the Resumed Run: the wait between status reads, lengthened for long runs as in Kickoff and Wait'), displayOptions: whenWaiting },
		{
			...timeoutField(
				`With Wait for the Resumed Run: how long to wait for all resumed runs together, counted from the first resume. Runs still going then get an error with the kickoff ID to read later with Get Status, and keep running unless On Timeout (node version 1.4 and later) says to stop them. 0 or empty means ${DEFAULT_TIMEOUT_SECONDS} seconds.`,
			),
			displayOptions: whenWaiting,
		},
		{ ...onTimeoutField, displayOptions: whenWaitingStops },
		{ ...stopCrewsOnCancelField, displayOptions: whenWaitingStops },
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

/** The webhook URLs to send again, each checked before any request (a bad one is the item's error, made in sendResumes). */
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
async function sendResume(context: IExecuteFunctions, itemIndex: number, connection: CrewConnection, tools: OperationTools, sender: CrewContext): Promise<SentResume> {
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
		const answer = answerWithSecretsHidden(await postAtMostOnce(sender, connection, '/resume', body, tools.sleep), [connection.secret, ...secretsSentIn(body)]);
		if (!isSuccess(answer)) {
			const error = crewAnswerError(context.getNode(), answer, { action: 'resume', itemIndex, kickoffId: resumedKickoffId, secret: connection.secret, baseUrl: connection.baseUrl });
			throw withUnansweredSend(error, unansweredSend(answer), connection.secret);
		}
		return { kickoffId: readResumedRunId(answer.body) ?? resumedKickoffId, answer: isPlainObject(answer.body) ? answer.body : {} };
	});
	return { kickoffId: sent.kickoffId, startedAt: sent.startedAt, seen: sent.seen, json: { ...(sent.answer ?? {}), kickoff_id: sent.kickoffId, resumed_kickoff_id: resumedKickoffId } };
}

interface ResumeRound {
	/** What sends the resumes: the node's context, or one a cancel does not cut short. */
	sender: CrewContext;
	/** Throws when no more resumes are to be sent. */
	check: (itemIndex: number) => void;
	/** The error that ends the node at the first failed item (without Continue On Fail), given the runs already resumed. */
	failed: (error: Error, running: RunningKickoff[]) => Promise<Error>;
}

/** A resume sent: its run, started, with the answer's fields for its item; or the item's error. */
type ResumeResult = KickoffResult & { json?: IDataObject };

const runningOf = (results: ResumeResult[]) => results.flatMap((result) => (result.kind === 'started' ? [result.kickoff] : []));

/** Sends every item's resume (`POST /resume`), one after another, in order. */
async function sendResumes(context: IExecuteFunctions, itemCount: number, tools: OperationTools, round: ResumeRound): Promise<ResumeResult[]> {
	const results: ResumeResult[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			round.check(itemIndex);
			const connection = await getCrewConnection(context, itemIndex);
			const sent = await sendResume(context, itemIndex, connection, tools, round.sender);
			const kickoff = { itemIndex, kickoffId: sent.kickoffId, startedAt: sent.startedAt, seen: sent.seen };
			results.push({ kind: 'started', kickoff, json: sent.json, outputFields: { resumed_kickoff_id: sent.json.resumed_kickoff_id } });
		} catch (error) {
			const itemError = toItemError(context.getNode(), error, itemIndex);
			if (!context.continueOnFail()) throw await round.failed(itemError, runningOf(results));
			results.push({ kind: 'error', itemIndex, error: itemError });
		}
	}
	return results;
}

/**
 * Continues crews paused for human input, approving or rejecting the paused task:
 * each item's resume on its own, or with Wait for the Resumed Run, all of them
 * resumed and then waited on together.
 */
export async function executeBatch(this: IExecuteFunctions, itemCount: number, tools: OperationTools): Promise<ItemOutcome[]> {
	if (this.getNodeParameter('waitForResumedRun', 0, false) === true) return await resumeAndWait(this, itemCount, tools);
	const results = await sendResumes(this, itemCount, tools, { sender: this, check: () => undefined, failed: async (error) => error });
	return results.map((result) => (result.kind === 'started' ? { json: result.json ?? {} } : { error: result.error }));
}

/**
 * Wait for the Resumed Run: resumes every item in order, then waits on all the
 * resumed runs together as Kickoff and Wait waits on its crews (nodes/waiting/:
 * one deadline, the same status reading, item outcomes and, from version 1.4,
 * the same stops on cancel and at the timeout).
 */
async function resumeAndWait(context: IExecuteFunctions, itemCount: number, tools: OperationTools): Promise<ItemOutcome[]> {
	const options = context.getNodeParameter('options', 0, {}) as WaitOptions & StopOptions;
	const settings = readWaitSettings(options);
	const { typeVersion } = context.getNode();
	const stopping = resumeStopSettings(options, typeVersion);
	const deadline = tools.now() + settings.timeoutMs;
	const results = await sendResumes(context, itemCount, tools, {
		// As Kickoff and Wait's kickoffs: a resume in flight at the cancel is let finish, so that the run it starts is known and stopped.
		sender: kickoffSender(context, stopping),
		check: (itemIndex) => {
			// So no resume goes out after the cancel; before 1.4 the cancel aborts it (the node's own context), as it always did.
			if (typeVersion >= RESUME_STOPS_VERSION && tools.isCancelled()) {
				throw new NodeOperationError(context.getNode(), 'The execution was stopped before this crew was resumed', { itemIndex });
			}
		},
		failed: async (error, running) => {
			// As for a kickoff: a cancel stops the runs already resumed; otherwise the error says which they are.
			const connection = running.length > 0 && stopping.stopOnCancel ? await getCrewConnection(context, 0) : undefined;
			return await batchFailure(context, error, running, connection, stopping, tools.isCancelled);
		},
	});
	return await waitByPolling(context, results, { settings, stopping, deadline }, tools);
}
