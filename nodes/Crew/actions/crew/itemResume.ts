import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { buildResumeBody, readResumedRunId } from '../../../records/resumeBody';
import type { ResumeUrls } from '../../../records/resumeBody';
import { isPlainObject } from '../../../records/plainObject';
import { checkUrlOptions, URL_OPTIONS } from '../../../records/urlOptions';
import { crewAnswerError } from '../../../transport/crewErrors';
import { getCrewConnection, isSuccess } from '../../../transport';
import type { CrewConnection, CrewContext } from '../../../transport';
import { postAtMostOnce } from '../../../transport/postOnce';
import type { OperationTools } from '../../../execution/operationTools';
import { failedSend } from '../../../kickoff/sendOutcome';
import {
	callbackHumanInputField,
	callbackStreamField,
	hashCallbackToken,
	newCallbackToken,
} from '../../../callbacksOut/resumeCallbacks';
import type { RunningKickoff } from '../../../waiting/waitForCompletion';
import type { CallbackStart } from '../../../waiting/waitByCallback';
import type { Tries } from '../../../retryOnFail/triesMemory';
import { PAUSED_CREW_IDS_ADVICE, readKickoffId } from '../common/kickoffId';
import { eachItemInOrder } from '../common/perItem';

/**
 * Resume's resumes, item by item: each item's `POST /resume`, sent at most once across the tries
 * of the node, as Kickoff and Wait's itemKickoff.ts sends a kickoff.
 */

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

export interface ResumeRound {
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
export type ResumeResult = CallbackStart & { json?: IDataObject };

export const runningOf = (results: ResumeResult[]) =>
	results.flatMap((result) => (result.kind === 'started' ? [result.kickoff] : []));

/** Sends every item's resume (`POST /resume`), one after another, in order. */
export async function sendResumes(
	context: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
	round: ResumeRound,
): Promise<ResumeResult[]> {
	const resume = async (itemIndex: number): Promise<ResumeResult> => {
		round.check(itemIndex);
		const connection = await getCrewConnection(context, itemIndex);
		const sent = await sendResume(context, itemIndex, connection, tools, round);
		const { kickoffId, startedAt, seen, tokenHash, json } = sent;
		const kickoff = { itemIndex, kickoffId, startedAt, seen };
		const outputFields = { resumed_kickoff_id: json.resumed_kickoff_id };
		return { kind: 'started', kickoff, tokenHash, json, outputFields };
	};
	const stopWith = async (error: Error, done: ResumeResult[]) =>
		await round.failed(error, runningOf(done));
	const outcomes = await eachItemInOrder(context, itemCount, resume, stopWith);
	return outcomes.map((outcome) =>
		'result' in outcome
			? outcome.result
			: { kind: 'error', itemIndex: outcome.itemIndex, error: outcome.error },
	);
}
