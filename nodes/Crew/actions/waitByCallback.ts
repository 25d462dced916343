import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createCancellableSleep } from '../../waiting/cancellableSleep';
import {
	callbackRefusal,
	callbackStreamField,
	firstPhaseDeadline,
	hashCallbackToken,
	newCallbackToken,
	readCallback,
	readFirstPhaseMs,
	shouldPark,
	timeoutMarker,
	waitingRecord,
} from '../../waiting/callbackWait';
import type { AwaitedKickoff } from '../../waiting/callbackWait';
import { createPollPolicy } from '../../waiting/pollPolicy';
import { getCrewConnection } from '../transport';
import type { CrewConnection, CrewContext } from '../transport';
import { waitForCompletion } from '../../waiting/waitForCompletion';
import type { RunningKickoff, WaitOutcome } from '../../waiting/waitForCompletion';
import { outcomeToItem, readWaitSettings, statusReader } from './kickoffAndWait.operation';
import { liveProgress } from './liveProgress';
import type { LiveProgress } from './liveProgress';
import type { ItemOutcome, OperationTools } from './operationTools';
import { errorOutputItem } from './outputItems';
import { readKickoffBody, startCrew } from './startCrew';

/**
 * The resume webhook. n8n calls `webhook()` when the execution's resume URL is
 * called; the path is empty because the service is handed that URL verbatim.
 */
export const callbackWebhook: IWebhookDescription = {
	name: 'default',
	httpMethod: 'POST',
	path: '',
	restartWebhook: true,
	isFullPath: true,
	responseMode: 'onReceived',
	// Without it n8n answers the literal text "firstEntryJson".
	responseData: '',
};

/** The confirming read after a callback: re-read a moment later while the service still says running. */
const CONFIRM_POLL_MS = 1_000;
/** Well inside the service's patience with a callback (the reference service waits 5 s). */
const CONFIRM_WINDOW_MS = 3_000;

async function waitFor(
	context: CrewContext,
	connection: CrewConnection,
	kickoff: RunningKickoff,
	pollIntervalMs: number,
	deadline: number,
	tools: OperationTools,
	onStatus?: LiveProgress['onStatus'],
): Promise<WaitOutcome> {
	const [outcome] = await waitForCompletion([kickoff], createPollPolicy(pollIntervalMs), deadline, {
		readStatus: statusReader(context, connection, pollIntervalMs),
		now: tools.now,
		sleep: tools.sleep,
		isCancelled: tools.isCancelled,
		maxConcurrentReads: 1,
		onStatus,
	});
	return outcome;
}

/**
 * Kickoff and Wait, Wait By: Callback. One item: kick off with the execution's resume
 * URL as the crew's event stream, poll for a first phase (a quick crew is answered here,
 * with polling's own outcome), then park the execution until the crew calls back or the
 * timeout. The stack entry's item becomes what webhook() reads and what n8n outputs on
 * timeout, since n8n runs none of this node's code after a resume.
 */
export async function execute(this: IExecuteFunctions, itemCount: number, tools: OperationTools): Promise<ItemOutcome[]> {
	const node = this.getNode();
	const refusal = callbackRefusal(itemCount, node.type);
	if (refusal) {
		// Every item gets the error, so none is silently dropped (with Continue On Fail, all are output).
		return Array.from({ length: itemCount }, (_, itemIndex) => ({
			error: new NodeOperationError(node, refusal.message, { itemIndex, description: refusal.description }),
		}));
	}

	const startedAt = tools.now();
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const settings = readWaitSettings(options);
	const waitTill = startedAt + settings.timeoutMs;
	let kickoff: RunningKickoff;
	let connection: CrewConnection;
	let tokenHash: string;
	let resumeUrl: string;
	try {
		if (typeof options.eventStreamUrl === 'string' && options.eventStreamUrl.trim() !== '') {
			throw new NodeOperationError(node, 'Event Stream cannot be set with Wait By: Callback', {
				itemIndex: 0,
				description: 'Wait By: Callback uses the crew\'s event stream to be called back. Remove the Event Stream option, or set Wait By to Polling and stream events to a Crew Trigger.',
			});
		}
		const body = await readKickoffBody(this, 0);
		resumeUrl = String(this.evaluateExpression('{{ $execution.resumeUrl }}', 0) ?? '');
		if (!/^https?:\/\//i.test(resumeUrl)) {
			throw new NodeOperationError(node, 'n8n gave no resume URL for this execution, so the crew could not call back', {
				itemIndex: 0,
				description: 'Set Wait By to Polling. Callback needs an n8n that gives $execution.resumeUrl (n8n 1.x and 2.x do, with WEBHOOK_URL set to an address the crew service can reach).',
			});
		}
		const token = newCallbackToken();
		tokenHash = hashCallbackToken(token);
		connection = await getCrewConnection(this, 0);
		if (tools.isCancelled()) throw new NodeOperationError(node, 'The execution was stopped before the crew was started', { itemIndex: 0 });
		const started = await startCrew(this, connection, 0, { ...body, webhooks: callbackStreamField(resumeUrl, token) }, tools.sleep);
		kickoff = { itemIndex: 0, kickoffId: started.kickoffId, startedAt: tools.now() };
	} catch (error) {
		return [{ error: error as Error }];
	}

	// A crew that ends before n8n has saved the execution as waiting would call a URL
	// that answers 409 and never calls again; the first phase and its last read catch it.
	const firstPhaseEnd = firstPhaseDeadline(startedAt, settings.timeoutMs, readFirstPhaseMs(options.firstPhase));
	const progress = liveProgress(this);
	const outcome = await waitFor(this, connection, kickoff, settings.pollIntervalMs, firstPhaseEnd, tools, progress.onStatus);
	if (!shouldPark(outcome, tools.now(), waitTill)) {
		const answered = outcomeToItem(node, kickoff, outcome, settings.timeoutMs);
		await progress.finish(kickoff, answered);
		return [answered];
	}
	await progress.parked(kickoff);

	const awaited: AwaitedKickoff = { kickoffId: kickoff.kickoffId, tokenHash };
	const marker = timeoutMarker(awaited, settings.timeoutMs);
	// New objects, not the input item: n8n saves this entry with the waiting execution.
	const markerItem: INodeExecutionData = {
		json: marker.json,
		error: new NodeOperationError(node, marker.message, { itemIndex: 0, description: marker.description }),
		pairedItem: { item: 0 },
	};
	this.getExecuteData().data = { main: [[markerItem]] };
	// n8n 2.x shows it in the waiting tooltip; 1.x accepts and ignores it.
	if (typeof this.setMetadata === 'function') this.setMetadata({ resumeUrl });
	await this.putExecutionToWait(new Date(waitTill));
	return [{ json: waitingRecord(kickoff.kickoffId, waitTill) }];
}

/** A value of the waiting item (the marker above), read the only way a webhook can: by expression. */
function readAwaited(context: IWebhookFunctions): AwaitedKickoff | undefined {
	const read = (field: string) => {
		const value = context.evaluateExpression(`{{ $json.${field} }}`, 0);
		return typeof value === 'string' && value !== '' ? value : undefined;
	};
	const kickoffId = read('kickoff_id');
	const tokenHash = read('callback_token_sha256');
	return kickoffId && tokenHash ? { kickoffId, tokenHash } : undefined;
}

function answer(context: IWebhookFunctions, statusCode: number, body: IDataObject): IWebhookResponseData {
	context.getResponseObject().status(statusCode).json(body);
	return { noWebhookResponse: true };
}

/**
 * A call to the resume URL. Answers without resuming (the execution keeps waiting)
 * unless it is this kickoff's authentic end and one status read confirms it; then the
 * node's output is exactly polling's for the same crew. Never throws: n8n would resume
 * with an empty item and wipe the earlier nodes' data.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const awaited = readAwaited(this);
	if (!awaited) return answer(this, 409, { error: 'this execution is not waiting for a crew' });
	const verdict = readCallback({ body: this.getBodyData(), authorization: this.getHeaderData().authorization }, awaited);
	if (verdict.kind === 'rejected') return answer(this, verdict.statusCode, { error: verdict.reason });
	if (verdict.kind === 'notFinal') return { webhookResponse: { received: true } };

	const node = this.getNode();
	const kickoff: RunningKickoff = { itemIndex: 0, kickoffId: awaited.kickoffId, startedAt: 0 };
	let outcome: ItemOutcome;
	try {
		const connection = await getCrewConnection(this, 0);
		const now = () => Date.now();
		// startedAt one interval back: the first read is at once.
		const readNow = { ...kickoff, startedAt: now() - CONFIRM_POLL_MS };
		const tools: OperationTools = { now, sleep: createCancellableSleep(undefined), isCancelled: () => false };
		const confirmed = await waitFor(this, connection, readNow, CONFIRM_POLL_MS, now() + CONFIRM_WINDOW_MS, tools);
		if (confirmed.kind === 'timedOut') {
			// The service says the crew is still running: the timeout decides (README, Wait By: Callback).
			return answer(this, 202, { received: true, resumed: false, reason: 'the crew service still reports the crew as running' });
		}
		outcome = outcomeToItem(node, kickoff, confirmed, 0);
	} catch (error) {
		outcome = { error: error as Error, kickoffId: awaited.kickoffId };
	}
	const item = 'json' in outcome ? { json: outcome.json, pairedItem: { item: 0 } } : errorOutputItem(node, outcome, 0);
	return { webhookResponse: { received: true }, workflowData: [[item]] };
}
