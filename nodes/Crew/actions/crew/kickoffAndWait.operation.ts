import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { mapWithConcurrency } from '../../../waiting/concurrency';
import { readCrewStatus } from '../../../records/crewStatus';
import { createPollPolicy, MAX_POLL_INTERVAL_MS, statusReadTimeout } from '../../../waiting/pollPolicy';
import { crewAnswerError, notFoundError } from '../../transport/crewErrors';
import { getCrewConnection, isPassingFailure, isSuccess, requestCrewStatus, retryAfterOf } from '../../transport';
import type { CrewConnection, CrewContext } from '../../transport';
import { waitForCompletion } from '../../../waiting/waitForCompletion';
import type { RunningKickoff, StatusReading, WaitOutcome } from '../../../waiting/waitForCompletion';
import { startingOptions } from '../crewStart/inputs.description';
import { toItemError } from '../itemResults/itemError';
import { liveProgress } from './liveProgress';
import type { ItemOutcome, OperationTools } from '../itemResults/operationTools';
import { readKickoffBody, startCrew } from '../crewStart/startCrew';
import { deploymentOf } from '../crewStart/deployment';
import type { DeploymentKind } from '../../../records/crewInputs';
import { waitByDescription, waitByOptions } from './waitBy.description';

export const DEFAULT_TIMEOUT_SECONDS = 600;
export const MAX_TIMEOUT_SECONDS = 86_400;
export const DEFAULT_POLL_INTERVAL_SECONDS = 2;
export const DEFAULT_MAX_CONCURRENT_KICKOFFS = 10;
/** Status reads in flight at once, whatever the number of items. */
const MAX_CONCURRENT_STATUS_READS = 20;

export const description: INodeProperties[] = [
	waitByDescription,
	startingOptions('kickoffAndWait', [
		...waitByOptions,
		{
			displayName: 'Max Concurrent Kickoffs',
			name: 'maxConcurrentKickoffs',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: DEFAULT_MAX_CONCURRENT_KICKOFFS,
			description: 'How many kickoff requests are in flight at once when there are many items. The crews themselves all run at the same time.',
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: 0.1, numberPrecision: 1 },
			default: DEFAULT_POLL_INTERVAL_SECONDS,
			description: `Wait between status reads of a running crew. Once a twentieth of the crew's run time is longer, the wait is that (up to ${MAX_POLL_INTERVAL_MS / 1000} seconds), so a finished crew is noticed within 5% of its run time.`,
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_TIMEOUT_SECONDS },
			default: DEFAULT_TIMEOUT_SECONDS,
			description: `How long to wait for all crews together, counted from the first kickoff. Crews still running then are not stopped: their items get an error with the kickoff ID, to read later with Get Status. 0 or empty means the default, ${DEFAULT_TIMEOUT_SECONDS} seconds; at most ${MAX_TIMEOUT_SECONDS} (24 hours).`,
		},
	]),
];

interface WaitOptions {
	pollInterval?: number;
	timeout?: number;
	maxConcurrentKickoffs?: number;
}

/** The wait settings, with 0, empty and out-of-range values read as the documented defaults and bounds. */
export function readWaitSettings(options: WaitOptions) {
	const timeoutSeconds = Number(options.timeout) > 0 ? Math.min(Number(options.timeout), MAX_TIMEOUT_SECONDS) : DEFAULT_TIMEOUT_SECONDS;
	const pollSeconds = Number(options.pollInterval) > 0 ? Math.max(Number(options.pollInterval), 0.1) : DEFAULT_POLL_INTERVAL_SECONDS;
	const concurrency = Number(options.maxConcurrentKickoffs) >= 1 ? Math.floor(Number(options.maxConcurrentKickoffs)) : DEFAULT_MAX_CONCURRENT_KICKOFFS;
	return { timeoutMs: timeoutSeconds * 1000, pollIntervalMs: Math.round(pollSeconds * 1000), maxConcurrentKickoffs: concurrency };
}

type KickoffResult = { kind: 'started'; kickoff: RunningKickoff } | { kind: 'error'; itemIndex: number; error: Error };

/** A crew's wait outcome as its item; Wait By: Callback maps its confirming read here too, so both modes give the same. */
export function outcomeToItem(node: INode, kickoff: RunningKickoff, outcome: WaitOutcome, timeoutMs: number): ItemOutcome {
	const { itemIndex, kickoffId } = kickoff;
	switch (outcome.kind) {
		case 'completed':
		case 'paused':
			return { json: outcome.status };
		case 'failed':
			return {
				kickoffId,
				error: new NodeOperationError(node, `The crew failed (kickoff ID ${kickoffId}): ${outcome.status.error ?? 'no reason given'}`, {
					itemIndex,
					description: 'The crew ran and reported a failure. Fix its cause (often an API key or an integration the crew uses) and start it again; Get Status with this kickoff ID shows the whole record.',
				}),
			};
		case 'notFound':
			return { kickoffId, error: notFoundError(node, kickoffId, itemIndex, outcome.reads) };
		case 'error':
			return { kickoffId, error: outcome.error };
		case 'timedOut': {
			const lastState = outcome.lastStatus ? `; it was last ${outcome.lastStatus.state}` : '';
			const lastError = outcome.lastError && !outcome.lastStatus ? ` The last status read failed: ${outcome.lastError.message}` : '';
			return {
				kickoffId,
				error: new NodeOperationError(node, `The crew did not finish within ${timeoutMs / 1000} seconds (kickoff ID ${kickoffId})${lastState}`, {
					itemIndex,
					description: `The crew was not stopped and may still finish. Read its result later with the Get Status operation and kickoff ID ${kickoffId}, or raise Timeout in this node's options.${lastError}`,
				}),
			};
		}
		case 'cancelled':
			return {
				kickoffId,
				error: new NodeOperationError(node, `The execution was stopped while waiting for the crew (kickoff ID ${kickoffId})`, {
					itemIndex,
					description: `The crew keeps running on the service. Read its result later with the Get Status operation and kickoff ID ${kickoffId}.`,
				}),
			};
	}
}

export function statusReader(context: CrewContext, connection: CrewConnection, pollIntervalMs: number, deployment: DeploymentKind = 'crew') {
	const timeoutMs = statusReadTimeout(pollIntervalMs);
	return async (kickoff: RunningKickoff): Promise<StatusReading> => {
		const answer = await requestCrewStatus(context, connection, kickoff.kickoffId, timeoutMs);
		if (isSuccess(answer)) return { kind: 'status', status: readCrewStatus(kickoff.kickoffId, answer.body, deployment) };
		const error = crewAnswerError(context.getNode(), answer, {
			action: 'getStatus',
			itemIndex: kickoff.itemIndex,
			kickoffId: kickoff.kickoffId,
			secret: connection.secret,
			baseUrl: connection.baseUrl,
		});
		if (!isPassingFailure(answer)) return { kind: 'fatal', error };
		return { kind: 'passingFailure', error, retryAfterMs: retryAfterOf(answer) };
	};
}

/** The node stops at a failed kickoff; the crews already started for other items run on, and the user is told which. */
export function withRunningCrews(error: Error, running: RunningKickoff[]): Error {
	if (running.length === 0) return error;
	const holder = error as Error & { description?: string | null };
	const ids = running.map((kickoff) => kickoff.kickoffId).join(', ');
	holder.description = `${holder.description ?? ''} The crews started for the other items keep running: kickoff IDs ${ids}.`.trim();
	return error;
}

/**
 * Kicks off a crew for every item (a bounded number of requests at once), then
 * waits on all of them together until each has finished, failed, or the one
 * deadline has passed. Sees the whole batch, unlike the per-item operations.
 */
export async function executeBatch(this: IExecuteFunctions, itemCount: number, tools: OperationTools): Promise<ItemOutcome[]> {
	const startedAt = tools.now();
	const settings = readWaitSettings(this.getNodeParameter('options', 0, {}) as WaitOptions);
	const deadline = startedAt + settings.timeoutMs;
	const itemIndexes = Array.from({ length: itemCount }, (_, index) => index);

	const kickoffs = await mapWithConcurrency(itemIndexes, settings.maxConcurrentKickoffs, async (itemIndex): Promise<KickoffResult> => {
		try {
			const body = await readKickoffBody(this, itemIndex, await deploymentOf(this, tools));
			const connection = await getCrewConnection(this, itemIndex);
			if (tools.isCancelled()) throw new NodeOperationError(this.getNode(), 'The execution was stopped before this crew was started', { itemIndex });
			const { kickoffId } = await startCrew(this, connection, itemIndex, body, tools.sleep);
			return { kind: 'started', kickoff: { itemIndex, kickoffId, startedAt: tools.now() } };
		} catch (error) {
			return { kind: 'error', itemIndex, error: toItemError(this.getNode(), error, itemIndex) };
		}
	});

	const running = kickoffs.flatMap((result) => (result.kind === 'started' ? [result.kickoff] : []));
	const firstFailure = kickoffs.find((result) => result.kind === 'error');
	if (firstFailure?.kind === 'error' && !this.continueOnFail()) {
		throw withRunningCrews(firstFailure.error, running);
	}

	const connection = running.length > 0 ? await getCrewConnection(this, 0) : undefined;
	// Known once a crew has started: its kickoff needed it (no second request).
	const deployment = running.length > 0 ? await deploymentOf(this, tools) : 'crew';
	const progress = liveProgress(this);
	const waitOutcomes = connection
		? await waitForCompletion(running, createPollPolicy(settings.pollIntervalMs), deadline, {
				readStatus: statusReader(this, connection, settings.pollIntervalMs, deployment),
				now: tools.now,
				sleep: tools.sleep,
				isCancelled: tools.isCancelled,
				maxConcurrentReads: MAX_CONCURRENT_STATUS_READS,
				onStatus: progress.onStatus,
			})
		: [];

	// Both lists are in item order, so the wait outcomes line up with the started kickoffs.
	let position = 0;
	const outcomes = kickoffs.map((result) =>
		result.kind === 'error' ? { error: result.error } : outcomeToItem(this.getNode(), result.kickoff, waitOutcomes[position++], settings.timeoutMs),
	);
	for (const kickoff of running) await progress.finish(kickoff, outcomes[kickoff.itemIndex]);
	return outcomes;
}
