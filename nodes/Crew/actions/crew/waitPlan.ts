import type { IExecuteFunctions } from 'n8n-workflow';

import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';
import type { DeploymentKind } from '../../../records/crewInputs';
import { readWaitSettings } from '../../../waiting/batchWait';
import type { WaitOptions, WaitSettings } from '../../../waiting/batchWait';
import type { LiveProgress } from '../../../waiting/liveProgress';
import { waitByPolling } from '../../../waiting/pollingWait';
import type { WaitEndings } from '../../../waiting/startedCrews';
import { prepareCallbackWait, waitByCallback } from '../../../waiting/waitByCallback';
import type { CallbackStart } from '../../../waiting/waitByCallback';
import type { StopSettings } from '../../../waiting/waitStops';
import type { StopOptions } from '../descriptions/stop.description';

/**
 * How an operation that waits (Kickoff and Wait, Resume's Wait for the Resumed Run) waits:
 * read from its options before anything is sent, then the waiting engine's wait of the runs it
 * started, by callback or by polling.
 */

export interface WaitPlan {
	/** The first start: the one deadline of the batch counts from it. */
	startedAt: number;
	settings: WaitSettings;
	stopping: StopSettings;
	/** The First Phase option as given. */
	firstPhase: unknown;
	/** Wait By: Callback: the URL the runs are to call (this execution's resume URL). */
	resumeUrl?: string;
}

/**
 * The plan from the options: how long, how often, what is stopped (by the operation's own rule,
 * `stopping`) and, by callback, where the runs are to call; or, when this node cannot wait by
 * callback here, every item's error.
 */
export function readWaitPlan(
	context: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
	how: { byCallback: boolean; stopping: (options: StopOptions) => StopSettings },
): WaitPlan | { outcomes: ItemOutcome[] } {
	const startedAt = tools.now();
	const options = context.getNodeParameter('options', 0, {}) as WaitOptions &
		StopOptions & { firstPhase?: unknown };
	const callback = how.byCallback ? prepareCallbackWait(context, itemCount) : undefined;
	if (callback && 'outcomes' in callback) return callback;
	const settings = readWaitSettings(options);
	const { firstPhase } = options;
	return {
		startedAt,
		settings,
		stopping: how.stopping(options),
		firstPhase,
		resumeUrl: callback?.resumeUrl,
	};
}

/**
 * Waits on the started runs as planned; `progress` is what a poll streams (a parked batch streams
 * its own).
 */
export async function waitAsPlanned(
	context: IExecuteFunctions,
	starts: readonly CallbackStart[],
	plan: WaitPlan,
	known: { deployment?: DeploymentKind; progress?: LiveProgress },
	tools: OperationTools,
	tries: WaitEndings,
): Promise<ItemOutcome[]> {
	const { settings, stopping, startedAt, firstPhase, resumeUrl } = plan;
	const { deployment } = known;
	if (resumeUrl !== undefined) {
		const batch = { settings, stopping, startedAt, firstPhase, resumeUrl, deployment };
		return await waitByCallback(context, starts, batch, tools, tries);
	}
	const deadline = startedAt + settings.timeoutMs;
	return await waitByPolling(
		context,
		starts,
		{ settings, stopping, deadline, ...known },
		tools,
		tries,
	);
}
