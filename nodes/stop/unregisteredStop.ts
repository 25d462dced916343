import { NOT_FOUND_TOLERATED_READS } from '../status/notFound';

/**
 * A stop in a run's first seconds. The hosted service does not know a run at once:
 * right after a kickoff a few status reads answer NOT FOUND (status/notFound.ts). A stop
 * sent then may get `404 {"error": "Execution not found"}` though the run is about
 * to start, and a stop sent once would leave it running and spending. So a 404 of
 * that kind is asked again, with a growing pause, for as long as a registration
 * takes; after that it is the service's word that it knows no such run. Pure, so
 * the schedule is tested without a service or a clock.
 */

/**
 * The status reads of a fresh run are given NOT_FOUND_TOLERATED_READS reads at the
 * default 2 s poll interval (about six seconds) to show the run before the wait
 * reports it unknown; a stop is given the same span. For a run this node started it
 * counts from the kickoff's answer; for the Stop operation, which does not know when
 * the run was started, from its first 404. A kickoff ID that never existed thus fails
 * within about six seconds, saying so.
 */
export const REGISTRATION_WINDOW_MS = NOT_FOUND_TOLERATED_READS * 2_000;
/** The first pause before a stop is asked again: most registrations are quicker than the window. */
export const FIRST_STOP_RETRY_MS = 250;
/** The longest pause between two stops of a run not registered yet. */
export const MAX_STOP_RETRY_MS = 1_000;

/**
 * The pause before stop number `attempt + 1` of a run the service answered
 * "Execution not found" to, or undefined when the window has passed and the 404
 * stands. `windowStart`: the kickoff's answer, or the first 404 when not known.
 * No pause ends past the window: the last stop goes out inside it.
 */
export function nextStopRetry(attempt: number, windowStart: number, now: number): number | undefined {
	const windowEnd = windowStart + REGISTRATION_WINDOW_MS;
	if (now >= windowEnd) return undefined;
	const pause = Math.min(MAX_STOP_RETRY_MS, FIRST_STOP_RETRY_MS * 2 ** Math.max(0, attempt - 1));
	return Math.min(pause, windowEnd - now);
}
