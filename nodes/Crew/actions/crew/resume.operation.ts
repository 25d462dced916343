import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { buildResumeBody, readResumedRunId } from '../../../records/resumeBody';
import type { ResumeUrls } from '../../../records/resumeBody';
import { isPlainObject } from '../../../records/plainObject';
import { crewAnswerError } from '../../../transport/crewErrors';
import { getCrewConnection, isSuccess } from '../../../transport';
import type { CrewConnection, CrewContext } from '../../../transport';
import { postAtMostOnce } from '../../../transport/postOnce';
import { checkUrlOptions, URL_OPTIONS } from '../../../records/urlOptions';
import type { RunningKickoff } from '../../../waiting/waitForCompletion';
import { toItemError } from '../../../itemResults/itemError';
import { PAUSED_CREW_IDS_ADVICE, readKickoffId } from '../common/kickoffId';
import { withTries } from '../../../retryOnFail/triesMemory';
import type { Tries } from '../../../retryOnFail/triesMemory';
import { failedSend } from '../../../kickoff/sendOutcome';
import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';
import { readWaitSettings } from '../../../waiting/batchWait';
import type { WaitOptions } from '../../../waiting/batchWait';
import { waitByPolling } from '../../../waiting/pollingWait';
import { prepareCallbackWait, waitByCallback } from '../../../waiting/waitByCallback';
import type { CallbackStart } from '../../../waiting/waitByCallback';
import { batchFailure } from '../../../waiting/startedCrews';
import {
	callbackHumanInputField,
	callbackStreamField,
	hashCallbackToken,
	newCallbackToken,
} from '../../../callbacksOut/resumeCallbacks';
import { readStopSettings } from '../descriptions/stop.description';
import type { StopOptions } from '../descriptions/stop.description';
import { kickoffSender } from '../../../waiting/waitStops';
import type { StopSettings } from '../../../waiting/waitStops';
import { HUMAN_IN_THE_LOOP_VERSION, RESUME_STOPS_VERSION } from '../../../versions/crewVersions';

export { description } from './resume.description';

/**
 * What Resume's wait stops, by the options and the node's version: nothing before 1.4, as when
 * saved (tested directly).
 */
export function resumeStopSettings(options: StopOptions, typeVersion: number): StopSettings {
	if (typeVersion < RESUME_STOPS_VERSION) return { stopAtTimeout: false, stopOnCancel: false };
	return readStopSettings(options, typeVersion);
}

/**
 * How Wait for the Resumed Run waits: Resume nodes before version 1.5 poll, as they did when saved.
 */
export function resumeWaitBy(waitBy: unknown, typeVersion: number): 'polling' | 'callback' {
	return typeVersion >= HUMAN_IN_THE_LOOP_VERSION && waitBy === 'callback' ? 'callback' : 'polling';
}

function requiredText(
	context: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = String(context.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `${label} is empty`, {
			itemIndex,
			description: PAUSED_CREW_IDS_ADVICE,
		});
	}
	return value;
}

/**
 * The webhook URLs to send again, each checked before any request (a bad one is the item's error,
 * made in sendResumes).
 */
function readResumeUrls(context: IExecuteFunctions, itemIndex: number): ResumeUrls {
	const options = context.getNodeParameter('options', itemIndex, {}) as ResumeUrls;
	checkUrlOptions(options, { ...URL_OPTIONS, humanInputWebhookUrl: 'Human Input Webhook URL' });
	return {
		taskWebhookUrl: options.taskWebhookUrl,
		stepWebhookUrl: options.stepWebhookUrl,
		crewWebhookUrl: options.crewWebhookUrl,
		humanInputWebhookUrl: options.humanInputWebhookUrl,
	};
}

/**
 * One resume sent: the run to follow (the new kickoff ID when the service gave one) and the output
 * item.
 */
interface SentResume {
	kickoffId: string;
	/** When the run to follow was started: now, or by an earlier try of the node. */
	startedAt: number;
	seen?: boolean;
	/** Wait By: Callback: the hash of the token the resumed run calls back with. */
	tokenHash?: string;
	json: IDataObject;
}

/**
 * Sends `POST /resume` for one item, once: never again on any retry (the hosted service answers
 * every resume with a new run, so a second one is a second decision); a retried item gives the run
 * the first resume started, and its answer when this process has it. The hosted service answers
 * with the resumed run's own kickoff ID; the documented service with a status, the run keeping its
 * ID. Either way `kickoff_id` is the run to follow (what Get Status and this node's Kickoff ID read
 * by default) and `resumed_kickoff_id` the paused one. With a resume URL (Wait By: Callback) the
 * resume asks the resumed run to call it, as a kickoff does: its event stream with a token of its
 * own, and its human-input URL.
 */
async function sendResume(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: CrewConnection,
	tools: OperationTools,
	round: ResumeRound,
): Promise<SentResume> {
	const resumedKickoffId = readKickoffId(context, itemIndex, 'resume');
	const body = buildResumeBody({
		kickoffId: resumedKickoffId,
		taskId: requiredText(context, 'taskId', 'Task ID', itemIndex),
		humanFeedback: String(context.getNodeParameter('humanFeedback', itemIndex, '') ?? ''),
		isApprove: context.getNodeParameter('isApprove', itemIndex, true) as boolean,
		...readResumeUrls(context, itemIndex),
	});
	const { resumeUrl } = round;
	// The resume URL (n8n may sign it) and the run's token go with the resume: the transport hides
	// both in its answer.
	const token = resumeUrl === undefined ? undefined : newCallbackToken();
	const callback =
		resumeUrl !== undefined && token !== undefined
			? {
					webhooks: callbackStreamField(resumeUrl, token),
					...callbackHumanInputField(body, resumeUrl),
				}
			: {};
	const crew = token === undefined ? {} : { tokenHash: hashCallbackToken(token) };
	const sent = await round.tries.send(itemIndex, crew, async () => {
		const answer = await postAtMostOnce(
			round.sender,
			connection,
			'/resume',
			{ ...body, ...callback },
			tools.sleep,
		);
		if (!isSuccess(answer))
			return failedSend(
				crewAnswerError(context.getNode(), answer, {
					action: 'resume',
					itemIndex,
					kickoffId: resumedKickoffId,
					baseUrl: connection.baseUrl,
				}),
				answer,
			);
		return {
			kind: 'started',
			kickoffId: readResumedRunId(answer.body) ?? resumedKickoffId,
			answer: isPlainObject(answer.body) ? answer.body : {},
		};
	});
	const json = {
		...(sent.answer ?? {}),
		kickoff_id: sent.kickoffId,
		resumed_kickoff_id: resumedKickoffId,
	};
	return {
		kickoffId: sent.kickoffId,
		startedAt: sent.startedAt,
		seen: sent.seen,
		tokenHash: sent.tokenHash,
		json,
	};
}

interface ResumeRound {
	/** What sends the resumes: the node's context, or one a cancel does not cut short. */
	sender: CrewContext;
	/** What the earlier tries resumed: each item's resume is sent once across them. */
	tries: Pick<Tries, 'send'>;
	/** Throws when no more resumes are to be sent. */
	check: (itemIndex: number) => void;
	/**
	 * The error that ends the node at the first failed item (without Continue On Fail), given the
	 * runs already resumed.
	 */
	failed: (error: Error, running: RunningKickoff[]) => Promise<Error>;
	/** Wait By: Callback: the URL the resumed runs are to call. */
	resumeUrl?: string;
}

/** A resume sent: its run, started, with the answer's fields for its item; or the item's error. */
type ResumeResult = CallbackStart & { json?: IDataObject };

const runningOf = (results: ResumeResult[]) =>
	results.flatMap((result) => (result.kind === 'started' ? [result.kickoff] : []));

/** Sends every item's resume (`POST /resume`), one after another, in order. */
async function sendResumes(
	context: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
	round: ResumeRound,
): Promise<ResumeResult[]> {
	const results: ResumeResult[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			round.check(itemIndex);
			const connection = await getCrewConnection(context, itemIndex);
			const sent = await sendResume(context, itemIndex, connection, tools, round);
			const kickoff = {
				itemIndex,
				kickoffId: sent.kickoffId,
				startedAt: sent.startedAt,
				seen: sent.seen,
			};
			results.push({
				kind: 'started',
				kickoff,
				tokenHash: sent.tokenHash,
				json: sent.json,
				outputFields: { resumed_kickoff_id: sent.json.resumed_kickoff_id },
			});
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
export async function executeBatch(
	this: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
): Promise<ItemOutcome[]> {
	const waits = this.getNodeParameter('waitForResumedRun', 0, false) === true;
	return await withTries(this, 'resume', tools.now, async (tries) => {
		if (waits) return await resumeAndWait(this, itemCount, tools, tries);
		const results = await sendResumes(this, itemCount, tools, {
			sender: this,
			tries,
			check: () => undefined,
			failed: async (error) => error,
		});
		return results.map((result) =>
			result.kind === 'started' ? { json: result.json ?? {} } : { error: result.error },
		);
	});
}

/**
 * Wait for the Resumed Run: resumes every item in order, then waits on all the resumed
 * runs together with the waiting engine (nodes/waiting/), exactly as Kickoff and Wait
 * waits on its crews: by polling (one deadline, the same status reading and item
 * outcomes and, from version 1.4, the same stops on cancel and at the timeout), or from
 * version 1.5 by callback (the execution parked until the resumed runs call back).
 */
async function resumeAndWait(
	context: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
	tries: Tries,
): Promise<ItemOutcome[]> {
	const startedAt = tools.now();
	const options = context.getNodeParameter('options', 0, {}) as WaitOptions &
		StopOptions & { firstPhase?: unknown };
	const settings = readWaitSettings(options);
	const { typeVersion } = context.getNode();
	const stopping = resumeStopSettings(options, typeVersion);
	const byCallback =
		resumeWaitBy(context.getNodeParameter('waitBy', 0, 'polling'), typeVersion) === 'callback';
	const callback = byCallback ? prepareCallbackWait(context, itemCount) : undefined;
	if (callback && 'outcomes' in callback) return callback.outcomes;
	const resumeUrl = callback?.resumeUrl;
	const results = await sendResumes(context, itemCount, tools, {
		// As Kickoff and Wait's kickoffs: a resume in flight at the cancel is let finish, so that the
		// run it starts is known and stopped.
		sender: kickoffSender(context, stopping),
		tries,
		check: (itemIndex) => {
			// So no resume goes out after the cancel; before 1.4 the cancel aborts it (the node's own
			// context), as it always did.
			if (typeVersion >= RESUME_STOPS_VERSION && tools.isCancelled()) {
				throw new NodeOperationError(
					context.getNode(),
					'The execution was stopped before this crew was resumed',
					{ itemIndex },
				);
			}
		},
		failed: async (error, running) => {
			// As for a kickoff: a cancel stops the runs already resumed; otherwise the error says which
			// they are.
			const connection =
				running.length > 0 && stopping.stopOnCancel
					? await getCrewConnection(context, 0)
					: undefined;
			return await batchFailure(context, error, running, connection, stopping, tools.isCancelled);
		},
		resumeUrl,
	});
	if (resumeUrl !== undefined)
		return await waitByCallback(
			context,
			results,
			{ settings, stopping, startedAt, firstPhase: options.firstPhase, resumeUrl },
			tools,
			tries,
		);
	return await waitByPolling(
		context,
		results,
		{ settings, stopping, deadline: startedAt + settings.timeoutMs },
		tools,
		tries,
	);
}
