import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createCancellableSleep } from '../transport/cancellableSleep';
import {
	callbackHumanInputField,
	callbackRefusal,
	callbackStreamField,
	firstPhaseDeadline,
	hashCallbackToken,
	isFlowEndEvent,
	newCallbackToken,
	readCallback,
	readFirstPhaseMs,
	shouldPark,
	timeoutMarker,
	waitingRecord,
} from './callbackWait';
import type { AwaitedKickoff, TimeoutMarker } from './callbackWait';
import { mapWithConcurrency } from './concurrency';
import { createEndedCrews, crewKey } from './endedCrews';
import { watchFirstPhase } from './firstPhase';
import { AWAITED_ROWS_EXPRESSION, awaitedOfRow, batchTimeoutMarker, callerOf, othersInReadingOrder, readHumanInputCall, readParkedEntry } from '../callbacksIn/parkedBatch';
import type { ParkedEntry } from '../callbacksIn/parkedBatch';
import { pausedFromNotFound, pauseOfHumanInputCall } from '../status/notFound';
import { createPollPolicy } from './pollPolicy';
import { getCrewConnection } from '../transport';
import type { CrewConnection, CrewContext } from '../transport';
import { isEndState, waitForCompletion } from './waitForCompletion';
import type { RunningKickoff, WaitOutcome } from './waitForCompletion';
import { outcomeToItem, readWaitSettings, statusReader, withRunningCrews } from './batchWait';
import { toItemError } from '../Crew/actions/common/itemError';
import { liveProgress } from './liveProgress';
import { kickoffSender, readStopSettings, stopCrewsLeft, stopOnCancel } from '../stop/stopCrews';
import type { StopOptions } from '../stop/stopCrews';
import type { ItemOutcome, OperationTools } from '../Crew/actions/common/operationTools';
import { errorDetails, errorOutputItem } from '../Crew/actions/common/outputItems';
import { readKickoffBody, startCrew } from '../kickoff/startCrew';
import { readItemFiles } from '../files/itemFiles';
import { deploymentOf } from '../kickoff/deployment';
import type { DeploymentKind } from '../records/crewInputs';
import { credentialSecrets, itemRequest, startOnce, triesMemory } from '../retryOnFail/triesMemory';
import { rememberEnding, tryEndingOf } from '../retryOnFail/earlierTries';
import type { RunMemory } from '../retryOnFail/earlierTries';

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
	humanInputTask?: { taskId: string | null },
): Promise<WaitOutcome> {
	const read = statusReader(context, connection, pollIntervalMs, deployment);
	const [outcome] = await waitForCompletion([kickoff], createPollPolicy(pollIntervalMs), deadline, {
		readStatus: humanInputTask
			? async (running) => {
					const reading = await read(running);
					return reading.kind === 'status' ? { ...reading, status: pauseOfHumanInputCall(reading.status, humanInputTask.taskId) } : reading;
				}
			: read,
		now: tools.now,
		sleep: tools.sleep,
		isCancelled: tools.isCancelled,
		maxConcurrentReads: 1,
	});
	return outcome;
}

/** The resume URL n8n gives this execution: the same for every item, so read once. */
function readResumeUrl(context: IExecuteFunctions): string {
	const resumeUrl = String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0) ?? '');
	if (!/^https?:\/\//i.test(resumeUrl)) {
		throw new NodeOperationError(context.getNode(), 'n8n gave no resume URL for this execution, so the crew could not call back', {
			itemIndex: 0,
			description: 'Set Wait By to Polling. Callback needs an n8n that gives $execution.resumeUrl (n8n 1.x and 2.x do, with WEBHOOK_URL set to an address the crew service can reach).',
		});
	}
	return resumeUrl;
}

type StartedItem = { kind: 'started'; kickoff: RunningKickoff; tokenHash: string } | { kind: 'error'; itemIndex: number; error: Error };

/** One item's crew, started with the resume URL as its event stream and a token of its own. */
async function startItemCrew(context: IExecuteFunctions, itemIndex: number, resumeUrl: string, tools: OperationTools, sender: IExecuteFunctions, memory: RunMemory): Promise<StartedItem> {
	const node = context.getNode();
	try {
		const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
		if (typeof options.eventStreamUrl === 'string' && options.eventStreamUrl.trim() !== '') {
			throw new NodeOperationError(node, 'Event Stream cannot be set with Wait By: Callback', {
				itemIndex,
				description: 'Wait By: Callback uses the crew\'s event stream to be called back. Remove the Event Stream option, or set Wait By to Polling and stream events to a Crew Trigger.',
			});
		}
		const deployment = await deploymentOf(context, tools);
		const body = await readKickoffBody(context, itemIndex, deployment);
		const files = await readItemFiles(context, itemIndex);
		const connection = await getCrewConnection(context, itemIndex);
		if (tools.isCancelled()) throw new NodeOperationError(node, 'The execution was stopped before this crew was started', { itemIndex });
		// The request as the item asks for it, without this try's token: a crew an earlier try started keeps calling with its own.
		// The resume URL names the execution: a crew started for another one calls that one back.
		const request = itemRequest(context, itemIndex, connection.secret, resumeUrl);
		// The resume URL (n8n may sign it) and the crew's token are sent with the kickoff: a service answer that echoes them is not kept with them.
		const secrets = [...(await credentialSecrets(context, itemIndex)), resumeUrl, signatureOf(resumeUrl)];
		const started = await startOnce(memory, { node, itemIndex, request, secrets }, tools.now, async () => {
			const token = newCallbackToken();
			secrets.push(token);
			const crew = await startCrew(context, connection, itemIndex, { ...body, webhooks: callbackStreamField(resumeUrl, token, deployment), ...callbackHumanInputField(body, resumeUrl, deployment) }, tools.sleep, files, sender);
			return { kickoffId: crew.kickoffId, tokenHash: hashCallbackToken(token) };
		});
		if (started.tokenHash === undefined) throw new NodeOperationError(node, 'The crew an earlier try started has no callback token remembered', { itemIndex });
		return { kind: 'started', kickoff: { itemIndex, kickoffId: started.kickoffId, startedAt: started.startedAt, seen: started.seen }, tokenHash: started.tokenHash };
	} catch (error) {
		return { kind: 'error', itemIndex, error: toItemError(node, error, itemIndex) };
	}
}

/** The signature n8n may add to a resume URL (`?signature=…`), a secret of its own. */
function signatureOf(resumeUrl: string): string | undefined {
	try {
		return new URL(resumeUrl).searchParams.get('signature') ?? undefined;
	} catch {
		return undefined;
	}
}

/**
 * On Timeout: Stop Crews Still Running cannot act once the execution waits: n8n outputs the
 * parked items at the timeout without running node code. The item says so, and how to stop it.
 */
export const PARKED_TIMEOUT_STOP_ADVICE =
	'On Timeout is set to stop the crews, but n8n runs no node code when a waiting execution times out, so this crew was not stopped. To stop it, follow this node with a Crew node, operation Stop, Kickoff ID {{ $json.kickoff_id ?? $json.error.match(/kickoff ID ([^)]+)/)[1] }} (at the timeout n8n keeps only the message, which names the kickoff ID).';

function withStopAdvice(marker: TimeoutMarker): TimeoutMarker {
	const description = `${marker.description} ${PARKED_TIMEOUT_STOP_ADVICE}`;
	return { ...marker, description, json: { ...marker.json, description } };
}

/** An error item as n8n saves it with the waiting execution, and outputs it if the timeout comes first. */
function parkedErrorItem(node: INode, outcome: { error: Error; kickoffId?: string }, itemIndex: number): INodeExecutionData {
	return { json: errorDetails(outcome), error: toItemError(node, outcome.error, itemIndex), pairedItem: { item: itemIndex } };
}

/**
 * Kickoff and Wait, Wait By: Callback, for any number of items. Every item's crew
 * is started with the execution's resume URL as its event stream (each with its
 * own token); a first phase watches them as polling would (a batch that ends in
 * it is answered with polling's own outcomes); then the execution is parked once,
 * for the whole batch. The stack entry's items become what webhook() reads and
 * what n8n outputs at the timeout, since n8n runs none of this node's code after
 * a resume.
 */
export async function execute(this: IExecuteFunctions, itemCount: number, tools: OperationTools): Promise<ItemOutcome[]> {
	const node = this.getNode();
	const refusal = callbackRefusal(node.type);
	if (refusal) {
		// Every item gets the error, so none is silently dropped (with Continue On Fail, all are output).
		return Array.from({ length: itemCount }, (_, itemIndex) => ({
			error: new NodeOperationError(node, refusal.message, { itemIndex, description: refusal.description }),
		}));
	}

	const startedAt = tools.now();
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const settings = readWaitSettings(options);
	const stopping = readStopSettings(options as StopOptions, node.typeVersion);
	const waitTill = startedAt + settings.timeoutMs;
	let resumeUrl: string;
	try {
		resumeUrl = readResumeUrl(this);
	} catch (error) {
		return Array.from({ length: itemCount }, () => ({ error: error as Error }));
	}

	const itemIndexes = Array.from({ length: itemCount }, (_, index) => index);
	const sender = kickoffSender(this, stopping);
	// n8n's Retry On Fail runs every item again: crews an earlier try started are awaited again, not started again.
	const memory = triesMemory(this);
	const started = await mapWithConcurrency(itemIndexes, settings.maxConcurrentKickoffs, async (itemIndex) => await startItemCrew(this, itemIndex, resumeUrl, tools, sender, memory));
	const running = started.flatMap((result) => (result.kind === 'started' ? [result.kickoff] : []));
	const firstFailure = started.find((result) => result.kind === 'error');
	const connection = running.length > 0 ? await getCrewConnection(this, 0) : undefined;
	if (firstFailure?.kind === 'error' && !this.continueOnFail()) {
		if (await stopOnCancel(this, connection, running, stopping, tools.isCancelled)) throw firstFailure.error;
		throw withRunningCrews(firstFailure.error, running);
	}

	// A crew that ends before n8n has saved the execution as waiting would call a URL
	// that answers 409 and never calls again; the first phase and its last read catch it.
	const firstPhaseEnd = firstPhaseDeadline(startedAt, settings.timeoutMs, readFirstPhaseMs(options.firstPhase));
	// Known once a crew has started: its kickoff needed it (no second request).
	const deployment = running.length > 0 ? await deploymentOf(this, tools) : 'crew';
	const progress = liveProgress(this);
	const phase = connection
		? await watchFirstPhase(running, createPollPolicy(settings.pollIntervalMs), firstPhaseEnd, {
				readStatus: statusReader(this, connection, settings.pollIntervalMs, deployment),
				now: tools.now,
				sleep: tools.sleep,
				isCancelled: tools.isCancelled,
				onStatus: progress.onStatus,
			})
		: [];
	// Both lists are in item order, so the phase outcomes line up with the started kickoffs.
	let position = 0;
	const items = started.map((result) => (result.kind === 'error' ? { result } : { result, outcome: phase[position++] }));
	if (!shouldPark(phase, tools.now(), waitTill)) {
		// The batch ended (or timed out, or was cancelled) while watched: polling's outcomes, and its stops.
		const ended = phase.map((outcome): WaitOutcome => (outcome.kind === 'running' ? { kind: 'timedOut', lastStatus: outcome.lastStatus, lastError: outcome.lastError } : outcome));
		const waitOutcomes = connection ? await stopCrewsLeft(this, connection, running, ended, stopping) : ended;
		running.forEach((kickoff, runningIndex) => rememberEnding(memory, kickoff.itemIndex, tryEndingOf(waitOutcomes[runningIndex])));
		let runningIndex = 0;
		const answered = items.map(({ result, outcome }): ItemOutcome => {
			if (result.kind === 'error' || outcome === undefined) return { error: (result as { error: Error }).error };
			return outcomeToItem(node, result.kickoff, waitOutcomes[runningIndex++], settings.timeoutMs);
		});
		for (const kickoff of running) await progress.finish(kickoff, answered[kickoff.itemIndex]);
		return answered;
	}
	running.forEach((kickoff, runningIndex) => rememberEnding(memory, kickoff.itemIndex, tryEndingOf(phase[runningIndex])));
	// n8n ends a streamed response as the execution parks: close each crew's stream now.
	for (const [runningIndex, kickoff] of running.entries()) {
		const outcome = phase[runningIndex];
		if (outcome.kind === 'running') await progress.parked(kickoff);
		else await progress.finish(kickoff, outcomeToItem(node, kickoff, outcome, settings.timeoutMs));
	}

	const awaitedCount = items.filter(({ outcome }) => outcome?.kind === 'running').length;
	// New objects, not the input items: n8n saves these with the waiting execution.
	const parked = items.map(({ result, outcome }): INodeExecutionData => {
		const { itemIndex } = result.kind === 'error' ? result : result.kickoff;
		if (result.kind === 'error' || outcome === undefined) return parkedErrorItem(node, { error: (result as { error: Error }).error }, itemIndex);
		if (outcome.kind !== 'running') {
			const item = outcomeToItem(node, result.kickoff, outcome, settings.timeoutMs);
			return 'json' in item ? { json: item.json, pairedItem: { item: itemIndex } } : parkedErrorItem(node, item, itemIndex);
		}
		const awaited: AwaitedKickoff = { kickoffId: result.kickoff.kickoffId, tokenHash: result.tokenHash };
		// One item keeps the words it always had; a batch's say what its timeout item cannot know.
		const plain = itemCount === 1 ? timeoutMarker(awaited, settings.timeoutMs) : batchTimeoutMarker(awaited, settings.timeoutMs, awaitedCount);
		const marker = stopping.stopAtTimeout ? withStopAdvice(plain) : plain;
		return {
			json: marker.json,
			error: new NodeOperationError(node, marker.message, { itemIndex, description: marker.description }),
			pairedItem: { item: itemIndex },
		};
	});
	this.getExecuteData().data = { main: [parked] };
	// n8n 2.x shows it in the waiting tooltip; 1.x accepts and ignores it.
	if (typeof this.setMetadata === 'function') this.setMetadata({ resumeUrl });
	await this.putExecutionToWait(new Date(waitTill));
	return items.map(({ result, outcome }, itemIndex) =>
		result.kind === 'started' && outcome?.kind === 'running' ? { json: waitingRecord(result.kickoff.kickoffId, waitTill) } : { json: parked[itemIndex].json },
	);
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

/** Ended crews this process has read, to spare status reads (see endedCrews.ts); never needed for the answer. */
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
		return 'json' in outcome ? { json: outcome.json, pairedItem: { item: itemIndex } } : errorOutputItem(node, outcome, itemIndex);
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
	const pausedTask = humanInput?.kind === 'awaited' ? { taskId: humanInput.taskId } : undefined;

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
		if (pausedTask && known?.kind === 'paused') endedCrews.remember(keyOf(caller.kickoffId), { kind: 'paused', status: pauseOfHumanInputCall(known.status, pausedTask.taskId) });
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
