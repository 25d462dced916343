import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { mapWithConcurrency } from '../../../waiting/concurrency';
import { getCrewConnection } from '../../../transport';
import { startingOptions } from '../../../kickoff/inputs.description';
import { toItemError } from '../../../itemResults/itemError';
import { liveProgress } from '../../../waiting/liveProgress';
import type { ItemOutcome, OperationTools } from '../../../itemResults/operationTools';
import { readKickoffBody, startCrew } from '../../../kickoff/startCrew';
import { deploymentOf } from '../../../kickoff/deployment';
import { readItemFiles } from '../../../files/itemFiles';
import { credentialSecrets, itemRequest, startOnce, triesMemory } from '../../../retryOnFail/triesMemory';
import { DEFAULT_MAX_CONCURRENT_KICKOFFS, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, readWaitSettings } from '../../../waiting/batchWait';
import { waitByPolling } from '../../../waiting/pollingWait';
import { pollIntervalField, timeoutField } from '../../../waiting/wait.description';
import type { KickoffResult } from '../../../waiting/startedCrews';
import type { WaitOptions } from '../../../waiting/batchWait';
import { waitByCallbackNotice, waitByDescription, waitByOptions } from './waitBy.description';
import { kickoffSender, readStopSettings, stopOptionFields } from '../../../stop/stopCrews';
import type { StopOptions } from '../../../stop/stopCrews';
import * as waitByCallback from '../../../waiting/waitByCallback';

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
			description: 'How many kickoff requests are in flight at once when there are many items. The crews themselves all run at the same time.',
		},
		pollIntervalField(),
		timeoutField(
			`How long to wait for all crews together, counted from the first kickoff. Crews still running then get an error item with the kickoff ID, and keep running unless On Timeout says to stop them. 0 or empty means the default, ${DEFAULT_TIMEOUT_SECONDS} seconds; at most ${MAX_TIMEOUT_SECONDS} (24 hours).`,
		),
		...stopOptionFields,
	]),
];

/**
 * Kickoff and Wait sees the whole batch, unlike the per-item operations, and its
 * Wait By picks how: the execution parks until each crew calls back, or it stays
 * and reads the crews' status.
 */
export async function executeBatch(this: IExecuteFunctions, itemCount: number, tools: OperationTools): Promise<ItemOutcome[]> {
	if (this.getNodeParameter('waitBy', 0, 'polling') === 'callback') return await waitByCallback.execute.call(this, itemCount, tools);
	return await kickoffAndPoll.call(this, itemCount, tools);
}

/**
 * Wait By: Polling. Kicks off a crew for every item (a bounded number of requests
 * at once), then waits on all of them together until each has finished, failed,
 * or the one deadline has passed.
 */
async function kickoffAndPoll(this: IExecuteFunctions, itemCount: number, tools: OperationTools): Promise<ItemOutcome[]> {
	const startedAt = tools.now();
	const options = this.getNodeParameter('options', 0, {}) as WaitOptions & StopOptions;
	const settings = readWaitSettings(options);
	const stopping = readStopSettings(options, this.getNode().typeVersion);
	const deadline = startedAt + settings.timeoutMs;
	const itemIndexes = Array.from({ length: itemCount }, (_, index) => index);

	const sender = kickoffSender(this, stopping);
	// n8n's Retry On Fail runs every item again: crews an earlier try started are waited on, not started again.
	const memory = triesMemory(this);
	const kickoffs = await mapWithConcurrency(itemIndexes, settings.maxConcurrentKickoffs, async (itemIndex): Promise<KickoffResult> => {
		try {
			const body = await readKickoffBody(this, itemIndex, await deploymentOf(this, tools));
			const files = await readItemFiles(this, itemIndex);
			const connection = await getCrewConnection(this, itemIndex);
			if (tools.isCancelled()) throw new NodeOperationError(this.getNode(), 'The execution was stopped before this crew was started', { itemIndex });
			const { kickoffId, startedAt, seen } = await startOnce(memory, { node: this.getNode(), itemIndex, request: itemRequest(this, itemIndex, connection.secret), secrets: await credentialSecrets(this, itemIndex) }, tools.now, async () => await startCrew(this, connection, itemIndex, body, tools.sleep, files, sender));
			return { kind: 'started', kickoff: { itemIndex, kickoffId, startedAt, seen } };
		} catch (error) {
			return { kind: 'error', itemIndex, error: toItemError(this.getNode(), error, itemIndex) };
		}
	});

	// Known once a crew has started: its kickoff needed it (no second request).
	const deployment = kickoffs.some((result) => result.kind === 'started') ? await deploymentOf(this, tools) : 'crew';
	return await waitByPolling(this, kickoffs, { settings, stopping, deadline, deployment, progress: liveProgress(this) }, tools);
}
