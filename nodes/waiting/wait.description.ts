import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_POLL_INTERVAL_SECONDS, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from './batchWait';
import { MAX_POLL_INTERVAL_MS } from './pollPolicy';

/**
 * The two settings of the batch wait (batchWait.ts, readWaitSettings), one definition for
 * every operation that waits: Kickoff and Wait, and Resume's Wait for the Resumed Run.
 */

export const pollIntervalField: INodeProperties = {
	displayName: 'Poll Interval (Seconds)',
	name: 'pollInterval',
	type: 'number',
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	default: DEFAULT_POLL_INTERVAL_SECONDS,
	description: `Wait between status reads of a running crew. Once a twentieth of the crew's run time is longer, the wait is that (up to ${MAX_POLL_INTERVAL_MS / 1000} seconds), so a finished crew is noticed within 5% of its run time.`,
};

export const timeoutField: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_TIMEOUT_SECONDS },
	default: DEFAULT_TIMEOUT_SECONDS,
	description: `How long to wait for all crews together, counted from when the node starts them. Crews still running then get an error item with the kickoff ID, and keep running unless On Timeout says to stop them. 0 or empty means the default, ${DEFAULT_TIMEOUT_SECONDS} seconds; at most ${MAX_TIMEOUT_SECONDS} (24 hours).`,
};
