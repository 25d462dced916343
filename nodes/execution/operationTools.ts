import type { IExecuteFunctions } from 'n8n-workflow';

import { createCancellableSleep } from './cancellableSleep';
import type { Sleep } from './cancellableSleep';

/** What the operations need from the world besides `this`: time and cancellation. */
export interface OperationTools {
	now: () => number;
	sleep: Sleep;
	isCancelled: () => boolean;
}

/** The tools of one run of the node: the real clock, and the execution's cancel signal. */
export function createOperationTools(context: IExecuteFunctions): OperationTools {
	// Older n8n versions have no cancel signal; those runs can only end by the timeout.
	const signal =
		typeof context.getExecutionCancelSignal === 'function'
			? context.getExecutionCancelSignal()
			: undefined;
	return {
		now: () => Date.now(),
		sleep: createCancellableSleep(signal),
		isCancelled: () => signal?.aborted === true,
	};
}
