import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { mapWithConcurrency } from '../../../execution/concurrency';
import { startingOptions } from '../descriptions/inputs.description';
import { liveProgress } from '../../../waiting/liveProgress';
import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';
import { deploymentOf } from '../../../kickoff/deployment';
import type { Tries } from '../../../retryOnFail/triesMemory';
import { startItemKickoff } from './itemKickoff';
import { readWaitPlan, waitAsPlanned } from './waitPlan';
import { triedBatch } from '../common/triedBatch';
import {
	DEFAULT_MAX_CONCURRENT_KICKOFFS,
	DEFAULT_TIMEOUT_SECONDS,
	MAX_TIMEOUT_SECONDS,
} from '../../../waiting/batchWait';
import { pollIntervalField, timeoutField } from '../descriptions/wait.description';
import { waitByCallbackNotice, waitByDescription, waitByOptions } from './waitBy.description';
import { readStopSettings, stopOptionFields } from '../descriptions/stop.description';
import { kickoffSender } from '../../../waiting/waitStops';

export const description: INodeProperties[] = [
	waitByDescription,
	waitByCallbackNotice,
	startingOptions('kickoffAndWait', [
		...waitByOptions,
		{
			displayName: 'Max Concurrent Kickoffs',
			name: 'maxConcurrentKickoffs',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: DEFAULT_MAX_CONCURRENT_KICKOFFS,
			description:
				'How many kickoff requests are in flight at once when there are many items. The crews themselves all run at the same time.',
		},
		pollIntervalField(),
		timeoutField(
			`How long to wait for all crews together, counted from the first kickoff (each try of Retry On Fail counts anew). Crews still running then get an error item with the kickoff ID, and keep running unless On Timeout says to stop them. 0 or empty means the default, ${DEFAULT_TIMEOUT_SECONDS} seconds; at most ${MAX_TIMEOUT_SECONDS} (24 hours).`,
		),
		...stopOptionFields,
	]),
];

/**
 * Kickoff and Wait sees the whole batch, unlike the per-item operations. It kicks off a crew
 * for every item (a bounded number of requests at once), then waits on all of them together,
 * as Wait By picks: the execution parks until each crew calls back, or it stays and reads the
 * crews' status, until each has finished, failed, or the one deadline has passed. Either way
 * a retry waits on the crews an earlier try started rather than starting them again.
 */
export const executeBatch = triedBatch('kickoff', kickoffAndWait);

async function kickoffAndWait(
	context: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
	tries: Tries,
): Promise<ItemOutcome[]> {
	const { typeVersion } = context.getNode();
	const plan = readWaitPlan(context, itemCount, tools, {
		byCallback: context.getNodeParameter('waitBy', 0, 'polling') === 'callback',
		stopping: (options) => readStopSettings(options, typeVersion),
	});
	if ('outcomes' in plan) return plan.outcomes;

	const itemIndexes = Array.from({ length: itemCount }, (_, index) => index);
	const run = { sender: kickoffSender(context, plan.stopping), tries, resumeUrl: plan.resumeUrl };
	const kickoffs = await mapWithConcurrency(
		itemIndexes,
		plan.settings.maxConcurrentKickoffs,
		async (itemIndex) => await startItemKickoff(context, itemIndex, tools, run),
	);

	// Known once a crew has started: its kickoff needed it (no second request).
	const deployment = kickoffs.some((result) => result.kind === 'started')
		? await deploymentOf(context, tools)
		: 'crew';
	const progress = liveProgress(context);
	return await waitAsPlanned(context, kickoffs, plan, { deployment, progress }, tools, tries);
}
