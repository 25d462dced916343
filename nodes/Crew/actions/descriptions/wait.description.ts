import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_POLL_INTERVAL_SECONDS,
	DEFAULT_TIMEOUT_SECONDS,
	MAX_TIMEOUT_SECONDS,
} from '../../../waiting/batchWait';
import { MAX_POLL_INTERVAL_MS } from '../../../waiting/pollPolicy';

/**
 * The two settings of the batch wait (batchWait.ts, readWaitSettings), one definition for
 * every operation that waits: Kickoff and Wait, and Resume's Wait for the Resumed Run. Each
 * operation says in its own words what the wait counts from.
 */

/** The pause between status reads, as every wait reads it (Kickoff and Wait's words by default). */
export function pollIntervalField(description = KICKOFF_AND_WAIT_POLL_INTERVAL): INodeProperties {
	return {
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: DEFAULT_POLL_INTERVAL_SECONDS,
		description,
	};
}

/** How long the wait lasts, as every wait reads it; `description` says what it counts from. */
export function timeoutField(description: string): INodeProperties {
	return {
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_TIMEOUT_SECONDS },
		default: DEFAULT_TIMEOUT_SECONDS,
		description,
	};
}

const KICKOFF_AND_WAIT_POLL_INTERVAL = `Wait between status reads of a running crew. Once a twentieth of the crew's run time is longer, the wait is that (up to ${MAX_POLL_INTERVAL_MS / 1000} seconds), so a finished crew is noticed within 5% of its run time.`;
