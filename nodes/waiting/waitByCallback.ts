import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { callbackHumanInputField, callbackStreamField, hashCallbackToken, newCallbackToken } from '../callbacksOut/resumeCallbacks';
import { batchTimeoutMarker, callbackRefusal, firstPhaseDeadline, readFirstPhaseMs, shouldPark, timeoutMarker, waitingRecord } from './callbackWait';
import type { AwaitedKickoff, TimeoutMarker } from './callbackWait';
import { mapWithConcurrency } from './concurrency';
import { watchFirstPhase } from './firstPhase';
import { createPollPolicy } from './pollPolicy';
import { getCrewConnection } from '../transport';
import type { RunningKickoff, WaitOutcome } from './waitForCompletion';
import { outcomeToItem, readWaitSettings, statusReader } from './batchWait';
import { startedCrews } from './startedCrews';
import { toItemError } from '../itemResults/itemError';
import { liveProgress } from './liveProgress';
import { chatWhileParked } from './chatWhileParked';
import { kickoffSender, readStopSettings, stopCrewsLeft } from '../stop/stopCrews';
import type { StopOptions } from '../stop/stopCrews';
import type { ItemOutcome, OperationTools } from '../itemResults/operationTools';
import { errorDetails } from '../itemResults/outputItems';
import { readKickoffBody, startCrew } from '../kickoff/startCrew';
import { readItemFiles } from '../files/itemFiles';
import { deploymentOf } from '../kickoff/deployment';
import { credentialSecrets, itemRequest, startOnce, triesMemory } from '../retryOnFail/triesMemory';
import { rememberEnding, tryEndingOf } from '../retryOnFail/earlierTries';
import type { RunMemory } from '../retryOnFail/earlierTries';

/**
 * Kickoff and Wait, Wait By: Callback, the park step: start every item's crew with the
 * execution's resume URL to call, watch them for a first phase, then park the execution
 * once for the batch. What a call to that URL does is nodes/callbacksIn/parkedResume.ts.
 */

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
 * for the whole batch. The stack entry's items become what the resume webhook
 * (nodes/callbacksIn/parkedResume.ts) reads and what n8n outputs at the timeout,
 * since n8n runs none of this node's code after a resume.
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
	const { running, connection } = await startedCrews(this, started, stopping, tools.isCancelled);

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
	const shown: ItemOutcome[] = items.map(({ result, outcome }, itemIndex) =>
		result.kind === 'started' && outcome?.kind === 'running' ? { json: waitingRecord(result.kickoff.kickoffId, waitTill) } : { json: parked[itemIndex].json },
	);
	// n8n's chat shows the first item's message while the execution waits.
	const awaitedIds = items.flatMap(({ result, outcome }) => (result.kind === 'started' && outcome?.kind === 'running' ? [result.kickoff.kickoffId] : []));
	return shown.map((item, itemIndex) => (itemIndex === 0 && 'json' in item ? { ...item, sendMessage: chatWhileParked(awaitedIds) } : item));
}
