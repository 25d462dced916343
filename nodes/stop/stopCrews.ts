import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readStopAnswer, stopResultOf } from './stopAnswer';
import type { StopResult } from './stopAnswer';
import { mapWithConcurrency } from '../execution/concurrency';
import type { RunningKickoff, WaitOutcome } from '../waiting/waitForCompletion';
import { scrubSecret } from '../transport/hiddenSecrets';
import { readServiceMessage } from '../transport/serviceMessage';
import { outlivingCancel, sendStopOnce } from './stopRun';
import { getCrewConnection } from '../transport';
import type { CrewAnswer, CrewConnection } from '../transport';
import { createCancellableSleep } from '../execution/cancellableSleep';
import type { Sleep } from '../execution/cancellableSleep';
import { nextStopRetry } from './unregisteredStop';
import { holdStopsUntil, rateLimitedStopPause } from './rateLimitedStop';

// From this node version on, a cancelled execution stops its crews unless the option says not to.
import { STOP_ON_CANCEL_VERSION } from '../versions/crewVersions';

/**
 * Stopping the crews a wait gives up on: at the timeout when On Timeout says so,
 * and every crew not ended when n8n cancels the execution (the editor's Stop
 * button, the REST API, a queue worker told to stop).
 */
/**
 * Stops in flight at once. A stop is one small request: a batch of up to 500 crews (the
 * largest the load tests run) is stopped in one go, as a plain client would send them
 * (npm run bench:stop), and a larger one in turns. A service that cannot take that many
 * answers 429, and then every stop still to be sent waits (rateLimitedStop.ts); each is
 * bounded by its request timeout.
 */
export const MAX_CONCURRENT_STOPS = 500;

export type OnTimeout = 'leaveRunning' | 'stopCrews';

export interface StopOptions {
	onTimeout?: OnTimeout;
	stopCrewsOnCancel?: boolean;
}

export interface StopSettings {
	stopAtTimeout: boolean;
	stopOnCancel: boolean;
}

/** What happens to the crews still running at the timeout: the same choice in every operation that waits. */
export const onTimeoutField: INodeProperties = {
	displayName: 'On Timeout',
	name: 'onTimeout',
	type: 'options',
	options: [
		{ name: 'Leave Crews Running', value: 'leaveRunning', description: 'The items get an error with the kickoff ID; read the result later with Get Status' },
		{ name: 'Stop Crews Still Running', value: 'stopCrews', description: 'Stop every crew that has not ended, so it spends nothing more; the items say it was stopped' },
	],
	default: 'leaveRunning',
	description: 'What happens to the crews still running when Timeout is reached. With Wait By: Callback this applies while the node watches the crews before the execution waits; once it waits, n8n runs no node code at the timeout: follow it with a Crew node with the Stop operation instead (see the advice of the timeout item).',
};

/** Whether a cancelled execution stops the crews: on by default from the node version that brought it to the operation. */
export const stopCrewsOnCancelField: INodeProperties = {
	displayName: 'Stop Crews When the Execution Is Stopped',
	name: 'stopCrewsOnCancel',
	type: 'boolean',
	default: true,
	description:
		'Whether stopping the execution (the Stop button, n8n\'s API, a worker in queue mode) also stops every crew this node started that has not ended. Kickoff and Wait nodes added before version 1.3 of this node leave them running unless this option is added and on; Resume offers it from version 1.4. An execution waiting for a callback runs no node code when it is stopped: stop its crews with the Stop operation.',
};

/** The two options of Kickoff and Wait that stop crews, for its Options collection. */
export const stopOptionFields: INodeProperties[] = [onTimeoutField, stopCrewsOnCancelField];

/** The settings by the options, and by the node's version where the cancel option is not set. */
export function readStopSettings(options: StopOptions, typeVersion: number): StopSettings {
	return {
		stopAtTimeout: options.onTimeout === 'stopCrews',
		stopOnCancel: typeof options.stopCrewsOnCancel === 'boolean' ? options.stopCrewsOnCancel : typeVersion >= STOP_ON_CANCEL_VERSION,
	};
}

/** The positions of the outcomes whose crew is to be stopped: still running at a timeout or at a cancel, as the settings say. */
export function crewsToStop(outcomes: readonly WaitOutcome[], settings: StopSettings): number[] {
	return outcomes.flatMap((outcome, position) =>
		(outcome.kind === 'timedOut' && settings.stopAtTimeout) || (outcome.kind === 'cancelled' && settings.stopOnCancel) ? [position] : [],
	);
}

/** The clock of the stops: a sleep no cancel cuts short, since the stops are sent because of one. */
export interface StopClock {
	now: () => number;
	sleep: Sleep;
}

const REAL_CLOCK: StopClock = { now: () => Date.now(), sleep: createCancellableSleep(undefined) };

/** A 404 "Execution not found" (not the bare route 404): a run the service may not have registered yet. */
function isUnknownRun(answer: CrewAnswer): boolean {
	return answer.kind === 'http' && readStopAnswer(answer.statusCode, answer.body).kind === 'unknownRun';
}

/** The batch's pace: once the service answered 429, no stop of the batch goes out before the pause has passed. */
interface StopPace {
	/** Resolves once no pause holds the batch. */
	ready(): Promise<void>;
	/** A stop was answered 429: the batch waits this long from now (or longer, if already held longer). */
	hold(pauseMs: number): void;
}

function createStopPace(clock: StopClock): StopPace {
	let heldUntil = 0;
	return {
		async ready() {
			// Another 429 may extend the hold while this one sleeps.
			for (let left = heldUntil - clock.now(); left > 0; left = heldUntil - clock.now()) await clock.sleep(left);
		},
		hold(pauseMs) {
			heldUntil = holdStopsUntil(heldUntil, clock.now(), pauseMs);
		},
	};
}

/**
 * One crew's stop: sent at once (once the batch's pace allows); asked again only while
 * the service answers "Execution not found" within the registration window after the
 * kickoff (unregisteredStop.ts), since the crew was started by this node and so exists,
 * or answers 429, which says the stop was not processed (rateLimitedStop.ts).
 */
async function stopStartedCrew(sender: IExecuteFunctions, connection: CrewConnection, kickoff: RunningKickoff, clock: StopClock, pace: StopPace): Promise<CrewAnswer> {
	let unknownRunAttempts = 0;
	let rateLimitedAttempts = 0;
	for (;;) {
		await pace.ready();
		const answer = await sendStopOnce(sender, connection, kickoff.kickoffId);
		if (answer.kind === 'http' && answer.statusCode === 429) {
			const pause = rateLimitedStopPause(++rateLimitedAttempts, answer.retryAfterMs);
			if (pause === undefined) return answer;
			pace.hold(pause);
			continue;
		}
		if (!isUnknownRun(answer)) return answer;
		const pause = nextStopRetry(++unknownRunAttempts, kickoff.startedAt, clock.now());
		if (pause === undefined) return answer;
		await clock.sleep(pause);
	}
}

/**
 * Stops the crews of the outcomes `crewsToStop` names, all at once (bounded), and
 * returns the outcomes with what each stop did. A stop is sent again only while the
 * service does not know the run yet, or after a 429 (stopStartedCrew). After a cancel the
 * requests go through a context without the cancel signal (stopRun.ts, outlivingCancel):
 * through the node's own they would be aborted unsent.
 */
export async function stopCrewsLeft(
	context: IExecuteFunctions,
	connection: CrewConnection,
	running: readonly RunningKickoff[],
	outcomes: readonly WaitOutcome[],
	settings: StopSettings,
	clock: StopClock = REAL_CLOCK,
): Promise<WaitOutcome[]> {
	const positions = crewsToStop(outcomes, settings);
	if (positions.length === 0) return [...outcomes];
	const sender = positions.some((position) => outcomes[position].kind === 'cancelled') ? outlivingCancel(context) : context;
	// The credential read once for the whole batch, sent within moments: n8n would otherwise read it (from its
	// database, decrypted) for every stop. If that read fails, each stop reads it as before.
	const stopConnection = await getCrewConnection(sender, 0, { reuseCredential: true }).catch(() => connection);
	const pace = createStopPace(clock);
	const results = await mapWithConcurrency(positions, MAX_CONCURRENT_STOPS, async (position): Promise<StopResult> => {
		const answer = await stopStartedCrew(sender, stopConnection, running[position], clock, pace);
		if (answer.kind === 'network') return { kind: 'notStopped', reason: scrubSecret(`${answer.code}: ${answer.message}`, connection.secret) };
		const said = readServiceMessage(answer.body);
		return stopResultOf(answer.statusCode, answer.body, said === undefined ? undefined : scrubSecret(said, connection.secret));
	});
	const stopped = [...outcomes];
	positions.forEach((position, index) => {
		const outcome = stopped[position];
		if (outcome.kind === 'timedOut' || outcome.kind === 'cancelled') stopped[position] = { ...outcome, stop: results[index] };
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
	await stopCrewsLeft(context, connection, running, running.map((): WaitOutcome => ({ kind: 'cancelled' })), settings);
	return true;
}

/**
 * What sends the kickoffs of a wait. When a cancel is to stop the crews, a kickoff in
 * flight at the cancel is let finish (bounded by Kickoff Timeout), so that its crew,
 * started on the service anyway, is known and stopped; n8n would abort it unanswered.
 */
export function kickoffSender(context: IExecuteFunctions, settings: StopSettings): IExecuteFunctions {
	return settings.stopOnCancel ? outlivingCancel(context) : context;
}
