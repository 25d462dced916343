import { inRegistrationWindow, REGISTRATION_WINDOW_MS } from '../status/registrationWindow';

/**
 * A stop in a run's first seconds. The hosted service does not know a run at once:
 * right after a kickoff its status reads answer NOT FOUND (status/registrationWindow.ts).
 * A stop sent then may get `404 {"error": "Execution not found"}` though the run is
 * about to start, and a stop sent once would leave it running and spending. So a 404
 * of that kind is asked again, with a growing pause, for the registration window that
 * the status reads of a new run are given too; after that it is the service's word
 * that it knows no such run. For a run this node started the window counts from the
 * kickoff's answer; for the Stop operation, which does not know when the run was
 * started, from its first 404. Pure, so the schedule is tested without a service or a
 * clock.
 */

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
export function nextStopRetry(
	attempt: number,
	windowStart: number,
	now: number,
): number | undefined {
	if (!inRegistrationWindow(now - windowStart)) return undefined;
	const pause = Math.min(MAX_STOP_RETRY_MS, FIRST_STOP_RETRY_MS * 2 ** Math.max(0, attempt - 1));
	return Math.min(pause, windowStart + REGISTRATION_WINDOW_MS - now);
}
