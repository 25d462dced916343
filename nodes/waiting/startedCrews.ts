import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { getCrewConnection } from '../transport';
import type { CrewConnection } from '../transport';
import { stopOnCancel } from './waitStops';
import type { StopSettings } from './waitStops';
import { withRunningCrews } from './batchWait';
import type { RunningKickoff } from './waitForCompletion';
import type { FirstPhaseOutcome } from './firstPhase';
import type { ItemOutcome } from '../itemResults/outputItems';

/**
 * How each started run's wait ended, as a wait reports it once it knows: Retry On Fail keeps it
 * (nodes/retryOnFail/triesMemory.ts), so that a retry follows again the runs still worth it.
 */
export interface WaitEndings {
	/** The started runs and their outcomes, in the same order. */
	ended(
		kickoffs: ReadonlyArray<{ itemIndex: number }>,
		outcomes: readonly FirstPhaseOutcome[],
	): void;
}

/**
 * One item's start in a batch wait: its run, started, or the error its item ends with.
 * `outputFields` are added to the run's record when it ends (Resume's `resumed_kickoff_id`).
 */
export type KickoffResult =
	| { kind: 'started'; kickoff: RunningKickoff; outputFields?: IDataObject }
	| { kind: 'error'; itemIndex: number; error: Error };

/**
 * An item's outcome with the fields its start asked for: a record gets them, an error is left as it
 * is.
 */
export function withOutputFields(
	outcome: ItemOutcome,
	outputFields: IDataObject | undefined,
): ItemOutcome {
	return outputFields && 'json' in outcome
		? { json: { ...outcome.json, ...outputFields } }
		: outcome;
}

/**
 * The crews a batch's kickoffs started, in item order, and the connection to wait on
 * them with (none when no crew started): Kickoff and Wait's step between the kickoffs
 * and the wait, by polling and by callback alike. Without Continue On Fail the first
 * failed kickoff fails the node, naming the crews that keep running.
 */
export async function startedCrews(
	context: IExecuteFunctions,
	kickoffs: readonly KickoffResult[],
	stopping: StopSettings,
	isCancelled: () => boolean,
): Promise<{ running: RunningKickoff[]; connection: CrewConnection | undefined }> {
	const running = kickoffs.flatMap((result) => (result.kind === 'started' ? [result.kickoff] : []));
	const firstFailure = kickoffs.find((result) => result.kind === 'error');
	const connection = running.length > 0 ? await getCrewConnection(context, 0) : undefined;
	if (firstFailure?.kind === 'error' && !context.continueOnFail())
		throw await batchFailure(
			context,
			firstFailure.error,
			running,
			connection,
			stopping,
			isCancelled,
		);
	return { running, connection };
}

/**
 * The error a batch's first failed item ends the node with, given the crews already started
 * (or resumed): after a cancel they are stopped first and the item's own error stands;
 * otherwise the error names them, since they keep running. Kickoff and Wait's kickoffs and
 * Resume's resumes alike.
 */
export async function batchFailure(
	context: IExecuteFunctions,
	error: Error,
	running: RunningKickoff[],
	connection: CrewConnection | undefined,
	stopping: StopSettings,
	isCancelled: () => boolean,
): Promise<Error> {
	if (await stopOnCancel(context, connection, running, stopping, isCancelled)) return error;
	return withRunningCrews(error, running);
}
