import type { IExecuteFunctions } from 'n8n-workflow';

import { outcomeToItem, pollRunningCrews } from './batchWait';
import type { WaitSettings } from './batchWait';
import { startedCrews, withOutputFields } from './startedCrews';
import type { KickoffResult, WaitEndings } from './startedCrews';
import type { LiveProgress } from './liveProgress';
import { stopCrewsLeft } from './waitStops';
import type { StopSettings } from './waitStops';
import type { DeploymentKind } from '../records/crewInputs';
import type { OperationTools } from '../execution/operationTools';
import type { ItemOutcome } from '../itemResults/outputItems';

/**
 * Wait By: Polling for a batch of runs already started: Kickoff and Wait's crews and the runs
 * Resume's Wait for the Resumed Run resumed alike. The operations start their runs (each its
 * own way: kickoffs side by side, resumes one after another) and hand them here; from then on
 * the wait, its stops, what a retry remembers and the items are the same.
 */

export interface PollingBatch {
	settings: Pick<WaitSettings, 'pollIntervalMs' | 'timeoutMs'>;
	stopping: StopSettings;
	/** One deadline for the whole batch, counted from its first start. */
	deadline: number;
	/** A flow's records are read as a flow's; known once a run has started. */
	deployment?: DeploymentKind;
	progress?: LiveProgress;
}

/**
 * Waits on every started run together until each has ended or the deadline has passed, then
 * gives one outcome per item, in item order: the run's record (with the fields its start
 * asked for, such as Resume's `resumed_kickoff_id`) or its error. Without Continue On Fail a
 * failed start fails the node first, naming (or, after a cancel, stopping) the runs started.
 */
export async function waitByPolling(
	context: IExecuteFunctions,
	starts: readonly KickoffResult[],
	batch: PollingBatch,
	tools: OperationTools,
	tries: WaitEndings,
): Promise<ItemOutcome[]> {
	const { running, connection } = await startedCrews(
		context,
		starts,
		batch.stopping,
		tools.isCancelled,
	);
	const { settings, deadline, deployment, stopping } = batch;
	const polled = connection
		? await pollRunningCrews(
				context,
				running,
				{ connection, settings, deadline, deployment, onStatus: batch.progress?.onStatus },
				tools,
			)
		: [];
	const waitOutcomes = connection
		? await stopCrewsLeft(context, connection, running, polled, stopping)
		: [];
	// n8n's Retry On Fail runs every item again: a retry knows how each run ended.
	tries.ended(running, waitOutcomes);

	// Both lists are in item order, so the wait outcomes line up with the started runs.
	let position = 0;
	const outcomes = starts.map((start) =>
		start.kind === 'error'
			? { error: start.error }
			: withOutputFields(
					outcomeToItem(
						context.getNode(),
						start.kickoff,
						waitOutcomes[position++],
						settings.timeoutMs,
					),
					start.outputFields,
				),
	);
	if (batch.progress)
		for (const kickoff of running)
			await batch.progress.finish(kickoff, outcomes[kickoff.itemIndex]);
	return outcomes;
}
