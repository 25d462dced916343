import type { IExecuteFunctions } from 'n8n-workflow';

import type { CrewConnection } from '../transport';
import { outlivingCancel } from '../stop/stopRun';
import { stopStartedCrews } from '../stop/stopCrews';
import type { StopClock } from '../stop/stopCrews';
import type { RunningKickoff, WaitOutcome } from './waitForCompletion';

/**
 * The stops of a wait: the crews it gives up on, at the timeout when On Timeout says so, and
 * every crew not ended when n8n cancels the execution (the editor's Stop button, the REST API,
 * a queue worker told to stop). The same for every wait, Kickoff and Wait's and Resume's.
 */

/** What a wait stops, as its operation read it from the options and the node's version. */
export interface StopSettings {
	stopAtTimeout: boolean;
	stopOnCancel: boolean;
}

/**
 * The positions of the outcomes whose crew is to be stopped: still running at a timeout or at a
 * cancel, as the settings say.
 */
export function crewsToStop(outcomes: readonly WaitOutcome[], settings: StopSettings): number[] {
	return outcomes.flatMap((outcome, position) =>
		(outcome.kind === 'timedOut' && settings.stopAtTimeout) ||
		(outcome.kind === 'cancelled' && settings.stopOnCancel)
			? [position]
			: [],
	);
}

/**
 * Stops the crews of the outcomes `crewsToStop` names, all at once (stop/stopCrews.ts),
 * and returns the outcomes with what each stop did. After a cancel the stops go through
 * a context without the cancel signal (stop/stopRun.ts, outlivingCancel).
 */
export async function stopCrewsLeft(
	context: IExecuteFunctions,
	connection: CrewConnection,
	running: readonly RunningKickoff[],
	outcomes: readonly WaitOutcome[],
	settings: StopSettings,
	clock?: StopClock,
): Promise<WaitOutcome[]> {
	const positions = crewsToStop(outcomes, settings);
	if (positions.length === 0) return [...outcomes];
	const sender = positions.some((position) => outcomes[position].kind === 'cancelled')
		? outlivingCancel(context)
		: context;
	const results = await stopStartedCrews(
		sender,
		connection,
		positions.map((position) => running[position]),
		clock,
	);
	const stopped = [...outcomes];
	positions.forEach((position, index) => {
		const outcome = stopped[position];
		if (outcome.kind === 'timedOut' || outcome.kind === 'cancelled')
			stopped[position] = { ...outcome, stop: results[index] };
	});
	return stopped;
}

/**
 * Stops crews that were started but will not be waited for (a failed kickoff ends the node):
 * only on a cancel, as the settings say. True when it sent the stops.
 */
export async function stopOnCancel(
	context: IExecuteFunctions,
	connection: CrewConnection | undefined,
	running: readonly RunningKickoff[],
	settings: StopSettings,
	isCancelled: () => boolean,
): Promise<boolean> {
	if (!connection || running.length === 0 || !isCancelled() || !settings.stopOnCancel) return false;
	await stopCrewsLeft(
		context,
		connection,
		running,
		running.map((): WaitOutcome => ({ kind: 'cancelled' })),
		settings,
	);
	return true;
}

/**
 * What sends the kickoffs of a wait. When a cancel is to stop the crews, a kickoff in
 * flight at the cancel is let finish (bounded by Kickoff Timeout), so that its crew,
 * started on the service anyway, is known and stopped; n8n would abort it unanswered.
 */
export function kickoffSender(
	context: IExecuteFunctions,
	settings: StopSettings,
): IExecuteFunctions {
	return settings.stopOnCancel ? outlivingCancel(context) : context;
}
