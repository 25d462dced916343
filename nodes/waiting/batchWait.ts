import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { readCrewStatus } from '../status/crewStatus';
import type { CrewStatus } from '../status/crewStatus';
import type { StopResult } from '../stop/stopAnswer';
import type { DeploymentKind } from '../records/crewInputs';
import { createPollPolicy, statusReadTimeout } from './pollPolicy';
import { waitForCompletion } from './waitForCompletion';
import type { RunningKickoff, StatusReading, WaitOutcome } from './waitForCompletion';
import { crewAnswerError, notFoundError } from '../transport/crewErrors';
import { isPassingFailure, isSuccess, retryAfterOf } from '../transport';
import { requestCrewStatus } from '../status/statusRequest';
import type { CrewConnection, CrewContext } from '../transport';
import type { OperationTools } from '../execution/operationTools';
import type { ItemOutcome } from '../itemResults/outputItems';

/**
 * The batch wait engine: what Kickoff and Wait (both Wait By modes) and Resume's
 * Wait for the Resumed Run share to wait on many runs at once and turn each run's
 * end into its item. The operations only start their runs and hand them here.
 */

export const DEFAULT_TIMEOUT_SECONDS = 600;
export const MAX_TIMEOUT_SECONDS = 86_400;
export const DEFAULT_POLL_INTERVAL_SECONDS = 2;
export const DEFAULT_MAX_CONCURRENT_KICKOFFS = 10;
/** Status reads in flight at once, whatever the number of items. */
export const MAX_CONCURRENT_STATUS_READS = 20;

export interface WaitOptions {
	pollInterval?: number;
	timeout?: number;
	maxConcurrentKickoffs?: number;
}

export interface WaitSettings {
	timeoutMs: number;
	pollIntervalMs: number;
	maxConcurrentKickoffs: number;
}

/**
 * The wait settings, with 0, empty and out-of-range values read as the documented defaults and
 * bounds.
 */
export function readWaitSettings(options: WaitOptions): WaitSettings {
	const timeoutSeconds =
		Number(options.timeout) > 0
			? Math.min(Number(options.timeout), MAX_TIMEOUT_SECONDS)
			: DEFAULT_TIMEOUT_SECONDS;
	const pollSeconds =
		Number(options.pollInterval) > 0
			? Math.max(Number(options.pollInterval), 0.1)
			: DEFAULT_POLL_INTERVAL_SECONDS;
	const concurrency =
		Number(options.maxConcurrentKickoffs) >= 1
			? Math.floor(Number(options.maxConcurrentKickoffs))
			: DEFAULT_MAX_CONCURRENT_KICKOFFS;
	return {
		timeoutMs: timeoutSeconds * 1000,
		pollIntervalMs: Math.round(pollSeconds * 1000),
		maxConcurrentKickoffs: concurrency,
	};
}

/**
 * A crew's wait outcome as its item; Wait By: Callback maps its confirming read here too, so both
 * modes give the same.
 */
export function outcomeToItem(
	node: INode,
	kickoff: RunningKickoff,
	outcome: WaitOutcome,
	timeoutMs: number,
): ItemOutcome {
	const { itemIndex, kickoffId } = kickoff;
	switch (outcome.kind) {
		case 'completed':
		case 'paused':
			return { json: outcome.status };
		case 'failed':
			return {
				kickoffId,
				error: new NodeOperationError(
					node,
					`The crew failed (kickoff ID ${kickoffId}): ${outcome.status.error ?? 'no reason given'}`,
					{
						itemIndex,
						description:
							'The crew ran and reported a failure. Fix its cause (often an API key or an integration the crew uses) and start it again; Get Status with this kickoff ID shows the whole record.',
					},
				),
			};
		case 'stopped':
			// An error, as for a failed crew: the workflow asked for a result and there is none to pass
			// on.
			return {
				kickoffId,
				error: new NodeOperationError(
					node,
					`The crew was stopped before it finished (kickoff ID ${kickoffId})`,
					{
						itemIndex,
						description:
							"The crew service reports the run as stopped (REVOKED): it was stopped through the Stop operation, the crew's dashboard, or another workflow, and has no result. Start it again if the result is still needed; with Continue On Fail (Using Error Output) the other items go on.",
					},
				),
			};
		case 'notFound':
			return { kickoffId, error: notFoundError(node, kickoffId, itemIndex, outcome.reads) };
		case 'error':
			return { kickoffId, error: outcome.error };
		case 'timedOut':
			return timedOutItem(node, kickoff, outcome, timeoutMs);
		case 'cancelled':
			return { kickoffId, error: cancelledError(node, kickoff, outcome.stop) };
	}
}

function stoppingFailed(reason: string, kickoffId: string): string {
	return `Stopping it failed (${reason}), so it may still be running: stop it with the Stop operation and kickoff ID ${kickoffId}, or in the crew's dashboard.`;
}

function timedOutItem(
	node: INode,
	kickoff: RunningKickoff,
	outcome: Extract<WaitOutcome, { kind: 'timedOut' }>,
	timeoutMs: number,
): ItemOutcome {
	const { itemIndex, kickoffId } = kickoff;
	const lastState = outcome.lastStatus ? `; it was last ${outcome.lastStatus.state}` : '';
	const lastError =
		outcome.lastError && !outcome.lastStatus
			? ` The last status read failed: ${outcome.lastError.message}`
			: '';
	const within = `The crew did not finish within ${timeoutMs / 1000} seconds`;
	const fail = (message: string, description: string) => ({
		kickoffId,
		error: new NodeOperationError(node, message, { itemIndex, description }),
	});
	switch (outcome.stop?.kind) {
		case 'stopped':
			return fail(
				`${within} and was stopped (kickoff ID ${kickoffId})${lastState}`,
				`On Timeout is set to stop the crews still running, and the crew service stopped this one: it spends nothing more and has no result. Raise Timeout in this node's options if the crew needs longer.${lastError}`,
			);
		case 'ended':
			return fail(
				`${within} (kickoff ID ${kickoffId}); it had just ended (${outcome.stop.state}) when it was to be stopped`,
				`Read its result with the Get Status operation and kickoff ID ${kickoffId}, or raise Timeout in this node's options.`,
			);
		case 'notStopped':
			return fail(
				`${within} (kickoff ID ${kickoffId})${lastState}`,
				`${stoppingFailed(outcome.stop.reason, kickoffId)}${lastError}`,
			);
		default:
			return fail(
				`${within} (kickoff ID ${kickoffId})${lastState}`,
				`The crew was not stopped and may still finish. Read its result later with the Get Status operation and kickoff ID ${kickoffId}, or raise Timeout in this node's options.${lastError}`,
			);
	}
}

function cancelledError(
	node: INode,
	kickoff: RunningKickoff,
	stop: StopResult | undefined,
): NodeOperationError {
	const { itemIndex, kickoffId } = kickoff;
	const waiting = `The execution was stopped while waiting for the crew (kickoff ID ${kickoffId})`;
	switch (stop?.kind) {
		case 'stopped':
			return new NodeOperationError(node, `${waiting}; the crew was stopped too`, {
				itemIndex,
				description: 'The crew service stopped the crew: it spends nothing more and has no result.',
			});
		case 'ended':
			return new NodeOperationError(
				node,
				`${waiting}; the crew had already ended (${stop.state})`,
				{
					itemIndex,
					description: `Read its result with the Get Status operation and kickoff ID ${kickoffId}.`,
				},
			);
		case 'notStopped':
			return new NodeOperationError(node, waiting, {
				itemIndex,
				description: stoppingFailed(stop.reason, kickoffId),
			});
		default:
			return new NodeOperationError(node, waiting, {
				itemIndex,
				description: `The crew keeps running on the service. Read its result later with the Get Status operation and kickoff ID ${kickoffId}.`,
			});
	}
}

/**
 * One status read of a running crew, as the wait loop takes it: a record, a failure worth another
 * read, or a fatal one.
 */
export function statusReader(
	context: CrewContext,
	connection: CrewConnection,
	pollIntervalMs: number,
	deployment: DeploymentKind = 'crew',
) {
	const timeoutMs = statusReadTimeout(pollIntervalMs);
	return async (kickoff: RunningKickoff): Promise<StatusReading> => {
		const answer = await requestCrewStatus(context, connection, kickoff.kickoffId, timeoutMs);
		if (isSuccess(answer))
			return { kind: 'status', status: readCrewStatus(kickoff.kickoffId, answer.body, deployment) };
		const error = crewAnswerError(context.getNode(), answer, {
			action: 'getStatus',
			itemIndex: kickoff.itemIndex,
			kickoffId: kickoff.kickoffId,
			baseUrl: connection.baseUrl,
		});
		if (!isPassingFailure(answer)) return { kind: 'fatal', error };
		return { kind: 'passingFailure', error, retryAfterMs: retryAfterOf(answer) };
	};
}

/**
 * The node stops at a failed start; the crews already started for other items run on, and the user
 * is told which.
 */
export function withRunningCrews(error: Error, running: RunningKickoff[]): Error {
	if (running.length === 0) return error;
	const holder = error as Error & { description?: string | null };
	const ids = running.map((kickoff) => kickoff.kickoffId).join(', ');
	holder.description =
		`${holder.description ?? ''} The crews started for the other items keep running: kickoff IDs ${ids}.`.trim();
	return error;
}

export interface PollingWait {
	connection: CrewConnection;
	settings: Pick<WaitSettings, 'pollIntervalMs'>;
	deadline: number;
	deployment?: DeploymentKind;
	onStatus?: (kickoff: RunningKickoff, status: CrewStatus) => Promise<void>;
}

/**
 * Polls every running crew together until each has ended or the one deadline has passed; outcomes
 * in the order given.
 */
export async function pollRunningCrews(
	context: IExecuteFunctions,
	running: RunningKickoff[],
	wait: PollingWait,
	tools: Pick<OperationTools, 'now' | 'sleep' | 'isCancelled'>,
): Promise<WaitOutcome[]> {
	if (running.length === 0) return [];
	return await waitForCompletion(
		running,
		createPollPolicy(wait.settings.pollIntervalMs),
		wait.deadline,
		{
			readStatus: statusReader(
				context,
				wait.connection,
				wait.settings.pollIntervalMs,
				wait.deployment,
			),
			now: tools.now,
			sleep: tools.sleep,
			isCancelled: tools.isCancelled,
			maxConcurrentReads: MAX_CONCURRENT_STATUS_READS,
			onStatus: wait.onStatus,
		},
	);
}
