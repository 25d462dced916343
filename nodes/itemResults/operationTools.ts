import type { IDataObject } from 'n8n-workflow';

import type { Sleep } from '../transport/cancellableSleep';

/** What the operations need from the world besides `this`: time and cancellation. */
export interface OperationTools {
	now: () => number;
	sleep: Sleep;
	isCancelled: () => boolean;
}

/** One input item's outcome: its output, or its error (with the kickoff ID when one exists). */
export type ItemOutcome = { json: IDataObject } | { error: Error; kickoffId?: string };
