import type { IDataObject } from 'n8n-workflow';

import type { Sleep } from './cancellableSleep';

/** What the operations need from the world besides `this`: time and cancellation. */
export interface OperationTools {
	now: () => number;
	sleep: Sleep;
	isCancelled: () => boolean;
}

/**
 * One input item's outcome: its output, or its error (with the kickoff ID when one exists).
 * `sendMessage` is what n8n's chat shows while the execution waits at this node (an item of
 * a parked execution, nodes/waiting/chatWhileParked.ts).
 */
export type ItemOutcome = { json: IDataObject; sendMessage?: string } | { error: Error; kickoffId?: string };
