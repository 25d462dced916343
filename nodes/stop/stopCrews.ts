import type { IExecuteFunctions } from 'n8n-workflow';

import { readStopAnswer, stopResultOf } from './stopAnswer';
import type { StopResult } from './stopAnswer';
import { mapWithConcurrency } from '../execution/concurrency';
import { readServiceMessage } from '../transport/serviceMessage';
import { sendStopOnce } from './stopRun';
import { getCrewConnection } from '../transport';
import type { CrewAnswer, CrewConnection } from '../transport';
import { createCancellableSleep } from '../execution/cancellableSleep';
import type { Sleep } from '../execution/cancellableSleep';
import { nextStopRetry } from './unregisteredStop';
import { holdStopsUntil, rateLimitedStopPause } from './rateLimitedStop';

/**
 * Stopping many crews this node started, at once: the stops a wait sends for the crews it
 * gives up on (nodes/waiting/waitStops.ts decides which).
 */

/**
 * A crew this node started: its kickoff ID, and when its kickoff was answered (the registration
 * window counts from it).
 */
export interface StartedCrew {
	kickoffId: string;
	startedAt: number;
}

/**
 * Stops in flight at once. A stop is one small request: a batch of up to 500 crews (the
 * largest the load tests run) is stopped in one go, as a plain client would send them
 * (npm run bench:stop), and a larger one in turns. A service that cannot take that many
 * answers 429, and then every stop still to be sent waits (rateLimitedStop.ts); each is
 * bounded by its request timeout.
 */
export const MAX_CONCURRENT_STOPS = 500;

/**
 * The clock of the stops: a sleep no cancel cuts short, since the stops are sent because of one.
 */
export interface StopClock {
	now: () => number;
	sleep: Sleep;
}

export const REAL_CLOCK: StopClock = {
	now: () => Date.now(),
	sleep: createCancellableSleep(undefined),
};

/**
 * A 404 "Execution not found" (not the bare route 404): a run the service may not have registered
 * yet.
 */
function isUnknownRun(answer: CrewAnswer): boolean {
	return (
		answer.kind === 'http' && readStopAnswer(answer.statusCode, answer.body).kind === 'unknownRun'
	);
}

/**
 * The batch's pace: once the service answered 429, no stop of the batch goes out before the pause
 * has passed.
 */
interface StopPace {
	/** Resolves once no pause holds the batch. */
	ready(): Promise<void>;
	/**
	 * A stop was answered 429: the batch waits this long from now (or longer, if already held
	 * longer).
	 */
	hold(pauseMs: number): void;
}

function createStopPace(clock: StopClock): StopPace {
	let heldUntil = 0;
	return {
		async ready() {
			// Another 429 may extend the hold while this one sleeps.
			for (let left = heldUntil - clock.now(); left > 0; left = heldUntil - clock.now())
				await clock.sleep(left);
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
async function stopStartedCrew(
	sender: IExecuteFunctions,
	connection: CrewConnection,
	kickoff: StartedCrew,
	clock: StopClock,
	pace: StopPace,
): Promise<CrewAnswer> {
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
 * Stops every crew at once (bounded): one stop each, sent again only while the service does
 * not know the run yet, or after a 429 (stopStartedCrew); what each stop did, in order. After a
 * cancel `sender` is a context without the cancel signal (stopRun.ts, outlivingCancel): through
 * the node's own the requests would be aborted unsent.
 */
export async function stopStartedCrews(
	sender: IExecuteFunctions,
	connection: CrewConnection,
	crews: readonly StartedCrew[],
	clock: StopClock = REAL_CLOCK,
): Promise<StopResult[]> {
	// The credential read once for the whole batch, sent within moments: n8n would otherwise read it
	// (from its database, decrypted) for every stop. If that read fails, each stop reads it as
	// before.
	const stopConnection = await getCrewConnection(sender, 0, { reuseCredential: true }).catch(
		() => connection,
	);
	const pace = createStopPace(clock);
	return await mapWithConcurrency(
		crews,
		MAX_CONCURRENT_STOPS,
		async (crew): Promise<StopResult> => {
			const answer = await stopStartedCrew(sender, stopConnection, crew, clock, pace);
			if (answer.kind === 'network')
				return { kind: 'notStopped', reason: `${answer.code}: ${answer.message}` };
			const said = readServiceMessage(answer.body);
			return stopResultOf(answer.statusCode, answer.body, said);
		},
	);
}
