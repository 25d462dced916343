import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, INodeExecutionData, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createCancellableSleep } from '../transport/cancellableSleep';
import { isFlowEndEvent, readCallback } from './callbackVerdict';
import { createEndedCrews, crewKey } from '../waiting/endedCrews';
import { AWAITED_ROWS_EXPRESSION, awaitedOfRow, callerOf, othersInReadingOrder, readHumanInputCall, readParkedEntry } from './parkedBatch';
import type { ParkedEntry } from './parkedBatch';
import { pausedFromNotFound, pauseOfHumanInputCall } from '../status/notFound';
import { createPollPolicy } from '../waiting/pollPolicy';
import { getCrewConnection } from '../transport';
import type { CrewConnection, CrewContext } from '../transport';
import { isEndState, waitForCompletion } from '../waiting/waitForCompletion';
import type { RunningKickoff, WaitOutcome } from '../waiting/waitForCompletion';
import { outcomeToItem, statusReader } from '../waiting/batchWait';
import type { ItemOutcome, OperationTools } from '../itemResults/operationTools';
import { errorOutputItem } from '../itemResults/outputItems';
import type { DeploymentKind } from '../records/crewInputs';
import type { PausedTask } from '../records/pausedTask';

/**
 * Wait By: Callback's resume: the webhook of an execution parked for a batch of crews
 * (nodes/waiting/waitByCallback.ts parks it). It reads the parked batch, checks each call,
 * confirms a crew's end with a status read and, once every crew has ended, resumes the
 * execution with the batch's output.
 */

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
	deployment: DeploymentKind,
	/** A human-input call's task: the reads confirm that pause (NOT FOUND is it). */
	humanInputTask?: PausedTask,
): Promise<WaitOutcome> {
	const read = statusReader(context, connection, pollIntervalMs, deployment);
	const [outcome] = await waitForCompletion([kickoff], createPollPolicy(pollIntervalMs), deadline, {
		readStatus: humanInputTask
			? async (running) => {
					const reading = await read(running);
					return reading.kind === 'status' ? { ...reading, status: pauseOfHumanInputCall(reading.status, humanInputTask) } : reading;
				}
			: read,
		now: tools.now,
		sleep: tools.sleep,
		isCancelled: tools.isCancelled,
		maxConcurrentReads: 1,
	});
	return outcome;
}

/**
 * The parked batch, read the only way a webhook can: by expression, over the
 * waiting node's stack entry (n8n-core's WebhookContext takes its items as the
 * node's input). Undefined when any item is not one this node parked.
 */
function readParkedBatch(context: IWebhookFunctions): ParkedEntry[] | undefined {
	const jsons = context.evaluateExpression('{{ $input.all().map((item) => item.json) }}', 0);
	if (!Array.isArray(jsons) || jsons.length === 0) return undefined;
	const entries = jsons.map((json, itemIndex) => readParkedEntry(json, itemIndex));
	return entries.every((entry) => entry !== undefined) ? (entries as ParkedEntry[]) : undefined;
}

/** The crews still awaited when the batch parked: all a call needs until it finds the batch complete. */
function readAwaitedCrews(context: IWebhookFunctions): Array<ParkedEntry & { kind: 'awaited' }> {
	const rows = context.evaluateExpression(AWAITED_ROWS_EXPRESSION, 0);
	if (!Array.isArray(rows)) return [];
	return rows.flatMap((row, itemIndex) => {
		const entry = awaitedOfRow(row, itemIndex);
		return entry ? [entry] : [];
	});
}

function answer(context: IWebhookFunctions, statusCode: number, body: IDataObject): IWebhookResponseData {
	context.getResponseObject().status(statusCode).json(body);
	return { noWebhookResponse: true };
}

/** Ended crews this process has read, to spare status reads (see nodes/waiting/endedCrews.ts); never needed for the answer. */
export const endedCrews = createEndedCrews(() => Date.now());

/** One read of another crew of the batch: its outcome if it ended, undefined while it may still be running. */
async function readOther(read: ReturnType<typeof statusReader>, kickoff: RunningKickoff): Promise<WaitOutcome | undefined> {
	const reading = await read(kickoff);
	if (reading.kind === 'fatal') return { kind: 'error', error: reading.error };
	if (reading.kind === 'passingFailure') return undefined;
	const { status } = reading;
	// An awaited crew's kickoff was answered with this id, and the first phase has passed: its
	// registration is over, so NOT FOUND now is the live service's word for waiting on a human.
	if (status.state === 'not_found') return { kind: 'paused', status: pausedFromNotFound(status) };
	return isEndState(status.state) ? { kind: status.state, status } : undefined;
}

/** The node's output once every crew of the batch has ended: polling's items, in input order. */
function batchOutput(node: INode, entries: readonly ParkedEntry[], outcomes: ReadonlyMap<number, ItemOutcome>): INodeExecutionData[] {
	return entries.map((entry) => {
		const { itemIndex } = entry;
		if (entry.kind === 'record') return { json: entry.json, pairedItem: { item: itemIndex } };
		const outcome: ItemOutcome =
			entry.kind === 'error'
				? { error: new NodeOperationError(node, entry.message, { itemIndex, description: entry.description }), kickoffId: entry.kickoffId }
				: (outcomes.get(itemIndex) as ItemOutcome);
		// A run Resume resumed names the paused run, as Resume's polling gives it.
		const resumed = entry.kind === 'awaited' && entry.resumedKickoffId ? { resumed_kickoff_id: entry.resumedKickoffId } : {};
		return 'json' in outcome ? { json: { ...outcome.json, ...resumed }, pairedItem: { item: itemIndex } } : errorOutputItem(node, outcome, itemIndex);
	});
}

/**
 * A call to the resume URL. It is checked against the crew its token belongs to;
 * an authentic end is confirmed by a status read of that crew. The live human-input
 * call has no token: it is heard only when it names an awaited crew, and the read
 * must confirm the pause (NOT FOUND, or paused), which ends that crew with the
 * call's task id. Then the call reads
 * the other crews still awaited, stopping at the first still running (answered 200,
 * the execution keeps waiting). The call that finds every crew ended resumes the
 * execution with exactly polling's output for the same crews. Since the service
 * marks a crew ended before it calls, of two crews ending at once the later call
 * always sees the other ended. Never throws: n8n would resume with an empty item
 * and wipe the earlier nodes' data.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const awaited = readAwaitedCrews(this);
	if (awaited.length === 0) return answer(this, 409, { error: 'this execution is not waiting for a crew' });
	const authorization = this.getHeaderData().authorization;
	const tokenCaller = callerOf(awaited, authorization);
	// Without a crew's token, only the live human-input call may be heard: it carries none (README, Wait By: Callback).
	const humanInput = tokenCaller ? undefined : readHumanInputCall(this.getBodyData(), awaited);
	const caller = tokenCaller ?? (humanInput?.kind === 'awaited' ? humanInput.caller : undefined);
	if (!caller) return answer(this, 401, { error: humanInput ? 'the call names no crew this execution waits for' : 'invalid callback token' });
	let eventType = 'crew_kickoff_completed';
	if (!humanInput) {
		const verdict = readCallback({ body: this.getBodyData(), authorization }, caller);
		if (verdict.kind === 'rejected') return answer(this, verdict.statusCode, { error: verdict.reason });
		if (verdict.kind === 'notFinal') return { webhookResponse: { received: true } };
		eventType = verdict.eventType;
	}
	const pausedTask = humanInput?.kind === 'awaited' ? humanInput.task : undefined;

	// Every read below starts after this call arrived, so after its crew's end: never one that predates it.
	const arrivedAt = Date.now();
	// A flow's end event was asked for only by a flow's kickoff: the batch's records are a flow's (flow_state).
	const deployment: DeploymentKind = isFlowEndEvent(eventType) ? 'flow' : 'crew';
	const node = this.getNode();
	const outcomes = new Map<number, ItemOutcome>();
	let batchKey = awaited[0].kickoffId;
	let keys: string[] = [];
	try {
		const connection = await getCrewConnection(this, 0);
		const keyOf = (kickoffId: string) => crewKey(connection.baseUrl, kickoffId);
		batchKey = keyOf(awaited[0].kickoffId);
		keys = awaited.map((entry) => keyOf(entry.kickoffId));
		const now = () => Date.now();
		const kickoffOf = (entry: { itemIndex: number; kickoffId: string }): RunningKickoff => ({ itemIndex: entry.itemIndex, kickoffId: entry.kickoffId, startedAt: 0 });

		// startedAt one interval back: the first read is at once.
		const confirm = async () => {
			const readNow = { ...kickoffOf(caller), startedAt: now() - CONFIRM_POLL_MS };
			const tools: OperationTools = { now, sleep: createCancellableSleep(undefined), isCancelled: () => false };
			const confirmed = await waitFor(this, connection, readNow, CONFIRM_POLL_MS, now() + CONFIRM_WINDOW_MS, tools, deployment, pausedTask);
			return confirmed.kind === 'timedOut' ? undefined : confirmed;
		};
		const known = endedCrews.ended(keyOf(caller.kickoffId));
		// A pause another call read as NOT FOUND, now with the task the human-input call names.
		if (pausedTask && known?.kind === 'paused') endedCrews.remember(keyOf(caller.kickoffId), { kind: 'paused', status: pauseOfHumanInputCall(known.status, pausedTask) });
		if (awaited.length > 1 && known) {
			// Its end was already received here, and the call that read it checked the batch then; every crew
			// that ended since calls too. A repeat costs no read.
			return answer(this, 200, { received: true, resumed: false, reason: 'this crew\'s end was already received' });
		}
		const own = await endedCrews.outcomeOf(keyOf(caller.kickoffId), arrivedAt, confirm);
		if (!own && pausedTask) {
			// The call was a hint (it carries no secret): the service, read after it, says the crew still runs.
			return answer(this, 202, { received: true, resumed: false, reason: 'the crew service does not report the crew as paused' });
		}
		if (!own) {
			// The service says the crew is still running: the timeout decides (README, Wait By: Callback).
			return answer(this, 202, { received: true, resumed: false, reason: 'the crew service still reports the crew as running' });
		}
		outcomes.set(caller.itemIndex, outcomeToItem(node, kickoffOf(caller), own, 0));

		const read = statusReader(this, connection, CONFIRM_POLL_MS, deployment);
		for (const other of othersInReadingOrder(awaited, caller)) {
			const outcome = await endedCrews.outcomeOf(keyOf(other.kickoffId), arrivedAt, async () => await readOther(read, kickoffOf(other)));
			if (!outcome) return answer(this, 200, { received: true, resumed: false, reason: 'other crews of this batch are still running' });
			outcomes.set(other.itemIndex, outcomeToItem(node, kickoffOf(other), outcome, 0));
		}
	} catch (error) {
		// As for one crew: an error no read foresaw ends every crew still awaited with it.
		for (const entry of awaited) if (!outcomes.has(entry.itemIndex)) outcomes.set(entry.itemIndex, { error: error as Error, kickoffId: entry.kickoffId });
	}
	// Every crew has ended: now, once, the whole batch (the records and errors seen before parking too).
	const entries = readParkedBatch(this);
	if (!entries) return answer(this, 409, { error: 'this execution is not waiting for a crew' });
	// n8n 1.x does not refuse a second resume of the same execution; within one process, this does.
	if (!endedCrews.claimResume(batchKey)) return answer(this, 200, { received: true, resumed: false, reason: 'the batch is already being resumed' });
	endedCrews.forget(keys);
	return { webhookResponse: { received: true }, workflowData: [batchOutput(node, entries, outcomes)] };
}
