import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import {
	awaitedItemJson,
	batchTimeoutMarker,
	callbackRefusal,
	firstPhaseDeadline,
	readFirstPhaseMs,
	shouldPark,
	timeoutMarker,
	waitingRecord,
} from './callbackWait';
import type { AwaitedKickoff, TimeoutMarker } from './callbackWait';
import { watchFirstPhase } from './firstPhase';
import { createPollPolicy } from './pollPolicy';
import type { WaitOutcome } from './waitForCompletion';
import { outcomeToItem, statusReader } from './batchWait';
import type { WaitSettings } from './batchWait';
import { startedCrews, withOutputFields } from './startedCrews';
import type { KickoffResult, WaitEndings } from './startedCrews';
import { liveProgress } from './liveProgress';
import { chatWhileParked } from './chatWhileParked';
import { stopCrewsLeft } from './waitStops';
import type { StopSettings } from './waitStops';
import type { OperationTools } from '../execution/operationTools';
import type { ItemOutcome } from '../itemResults/outputItems';
import { errorDetails } from '../itemResults/outputItems';
import { toItemError } from '../itemResults/itemError';
import type { DeploymentKind } from '../records/crewInputs';

/**
 * Wait By: Callback, the park step, for Kickoff and Wait and Resume's Wait for the Resumed Run:
 * the runs, started with the execution's resume URL to call, are watched for a first phase,
 * then the execution is parked once for the batch. What a call to that URL does is
 * nodes/callbacksIn/parkedResume.ts.
 */

/** The resume URL n8n gives this execution: the same for every item, so read once. */
function readResumeUrl(context: IExecuteFunctions): string {
	const resumeUrl = String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0) ?? '');
	if (!/^https?:\/\//i.test(resumeUrl)) {
		throw new NodeOperationError(
			context.getNode(),
			'n8n gave no resume URL for this execution, so the crew could not call back',
			{
				itemIndex: 0,
				description:
					'Set Wait By to Polling. Callback needs an n8n that gives $execution.resumeUrl (n8n 1.x and 2.x do, with WEBHOOK_URL set to an address the crew service can reach).',
			},
		);
	}
	return resumeUrl;
}

/**
 * One item's run, started to call this execution back, with the hash of its token (none: it calls
 * another execution back, one a retry from the Executions list retries); or the item's error.
 * Kickoff and Wait's kickoffs (nodes/Crew/actions/crew/itemKickoff.ts) and Resume's resumes start
 * them.
 */
export type CallbackStart =
	| (KickoffResult & { kind: 'started'; tokenHash?: string })
	| (KickoffResult & { kind: 'error' });

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

/**
 * An error item as n8n saves it with the waiting execution, and outputs it if the timeout comes
 * first.
 */
function parkedErrorItem(
	node: INode,
	outcome: { error: Error; kickoffId?: string },
	itemIndex: number,
): INodeExecutionData {
	return {
		json: errorDetails(outcome),
		error: toItemError(node, outcome.error, itemIndex),
		pairedItem: { item: itemIndex },
	};
}

/**
 * Where the runs of a batch waiting by callback are to call: this execution's resume URL; or,
 * when this node cannot wait by callback (as an AI tool, or n8n gives no resume URL), every
 * item's error, so that none is silently dropped (with Continue On Fail, all are output).
 */
export function prepareCallbackWait(
	context: IExecuteFunctions,
	itemCount: number,
): { resumeUrl: string } | { outcomes: ItemOutcome[] } {
	const node = context.getNode();
	const refusal = callbackRefusal(node.type);
	if (refusal) {
		return {
			outcomes: Array.from({ length: itemCount }, (_, itemIndex) => ({
				error: new NodeOperationError(node, refusal.message, {
					itemIndex,
					description: refusal.description,
				}),
			})),
		};
	}
	try {
		return { resumeUrl: readResumeUrl(context) };
	} catch (error) {
		return { outcomes: Array.from({ length: itemCount }, () => ({ error: error as Error })) };
	}
}

/**
 * A batch waiting by callback, its runs started: its options, and when its first run was started.
 */
export interface CallbackBatch {
	settings: WaitSettings;
	stopping: StopSettings;
	startedAt: number;
	/** The First Phase option as given. */
	firstPhase: unknown;
	resumeUrl: string;
	/** A flow's records are read as a flow's; known once a run has started. */
	deployment?: DeploymentKind;
}

/**
 * Wait By: Callback for a batch of runs already started with the resume URL as their event stream
 * (each with its own token): Kickoff and Wait's crews and Resume's resumed runs alike. A first
 * phase watches them as polling would (a batch that ends in it is answered with polling's own
 * outcomes); then the execution is parked once, for the whole batch. The stack entry's items
 * become what the resume webhook (nodes/callbacksIn/parkedResume.ts) reads and what n8n outputs
 * at the timeout, since n8n runs none of this node's code after a resume.
 */
export async function waitByCallback(
	context: IExecuteFunctions,
	started: readonly CallbackStart[],
	batch: CallbackBatch,
	tools: OperationTools,
	tries: WaitEndings,
): Promise<ItemOutcome[]> {
	const node = context.getNode();
	const { settings, stopping, startedAt, resumeUrl } = batch;
	const waitTill = startedAt + settings.timeoutMs;
	const { running, connection } = await startedCrews(context, started, stopping, tools.isCancelled);
	const itemCount = started.length;

	// A crew that ends before n8n has saved the execution as waiting would call a URL
	// that answers 409 and never calls again; the first phase and its last read catch it.
	// A run that calls another execution back (one a retry from the Executions list retries,
	// started by the failed execution) is read until it ends: the batch does not park.
	const callsElsewhere = started.some(
		(result) => result.kind === 'started' && result.tokenHash === undefined,
	);
	const firstPhaseEnd = callsElsewhere
		? waitTill
		: firstPhaseDeadline(startedAt, settings.timeoutMs, readFirstPhaseMs(batch.firstPhase));
	const deployment = batch.deployment ?? 'crew';
	const progress = liveProgress(context);
	const phase = connection
		? await watchFirstPhase(running, createPollPolicy(settings.pollIntervalMs), firstPhaseEnd, {
				readStatus: statusReader(context, connection, settings.pollIntervalMs, deployment),
				now: tools.now,
				sleep: tools.sleep,
				isCancelled: tools.isCancelled,
				onStatus: progress.onStatus,
			})
		: [];
	// Both lists are in item order, so the phase outcomes line up with the started kickoffs.
	let position = 0;
	const items = started.map((result) =>
		result.kind === 'error' ? { result } : { result, outcome: phase[position++] },
	);
	if (callsElsewhere || !shouldPark(phase, tools.now(), waitTill)) {
		// The batch ended (or timed out, or was cancelled) while watched: polling's outcomes, and its
		// stops.
		const ended = phase.map(
			(outcome): WaitOutcome =>
				outcome.kind === 'running'
					? { kind: 'timedOut', lastStatus: outcome.lastStatus, lastError: outcome.lastError }
					: outcome,
		);
		const waitOutcomes = connection
			? await stopCrewsLeft(context, connection, running, ended, stopping)
			: ended;
		tries.ended(running, waitOutcomes);
		let runningIndex = 0;
		const answered = items.map(({ result, outcome }): ItemOutcome => {
			if (result.kind === 'error' || outcome === undefined)
				return { error: (result as { error: Error }).error };
			return withOutputFields(
				outcomeToItem(node, result.kickoff, waitOutcomes[runningIndex++], settings.timeoutMs),
				result.outputFields,
			);
		});
		for (const kickoff of running) await progress.finish(kickoff, answered[kickoff.itemIndex]);
		return answered;
	}
	tries.ended(running, phase);
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
		if (result.kind === 'error' || outcome === undefined)
			return parkedErrorItem(node, { error: (result as { error: Error }).error }, itemIndex);
		if (outcome.kind !== 'running') {
			const item = withOutputFields(
				outcomeToItem(node, result.kickoff, outcome, settings.timeoutMs),
				result.outputFields,
			);
			return 'json' in item
				? { json: item.json, pairedItem: { item: itemIndex } }
				: parkedErrorItem(node, item, itemIndex);
		}
		// Every run here calls this execution back (a batch with one that calls another does not park).
		const awaited: AwaitedKickoff = {
			kickoffId: result.kickoff.kickoffId,
			tokenHash: result.tokenHash ?? '',
		};
		// One item keeps the words it always had; a batch's say what its timeout item cannot know.
		const plain =
			itemCount === 1
				? timeoutMarker(awaited, settings.timeoutMs)
				: batchTimeoutMarker(awaited, settings.timeoutMs, awaitedCount);
		const marker = stopping.stopAtTimeout ? withStopAdvice(plain) : plain;
		return {
			// A resumed run's item names the paused run, as its record will (parkedBatch.ts reads it
			// back).
			json: { ...awaitedItemJson(marker, result.kickoff.startedAt), ...result.outputFields },
			error: new NodeOperationError(node, marker.message, {
				itemIndex,
				description: marker.description,
			}),
			pairedItem: { item: itemIndex },
		};
	});
	context.getExecuteData().data = { main: [parked] };
	// n8n 2.x shows it in the waiting tooltip; 1.x accepts and ignores it.
	if (typeof context.setMetadata === 'function') context.setMetadata({ resumeUrl });
	await context.putExecutionToWait(new Date(waitTill));
	const shown: ItemOutcome[] = items.map(({ result, outcome }, itemIndex) =>
		result.kind === 'started' && outcome?.kind === 'running'
			? { json: waitingRecord(result.kickoff.kickoffId, waitTill) }
			: { json: parked[itemIndex].json },
	);
	// n8n's chat shows the first item's message while the execution waits.
	const awaitedIds = items.flatMap(({ result, outcome }) =>
		result.kind === 'started' && outcome?.kind === 'running' ? [result.kickoff.kickoffId] : [],
	);
	return shown.map((item, itemIndex) =>
		itemIndex === 0 && 'json' in item
			? { ...item, sendMessage: chatWhileParked(awaitedIds) }
			: item,
	);
}
