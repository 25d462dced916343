/**
 * A run's first seconds: the hosted service does not know a run at once. Right after its kickoff,
 * status reads answer NOT FOUND and a stop may get `404 Execution not found` while the crew is
 * already starting (docs/development/service-api.md#a-runs-first-seconds-the-registration-window).
 * Status reads (polling, the first phase, a parked batch, Resume's wait) and stops judge those
 * answers by one window, counted in time from the kickoff's answer, so that how often the node
 * reads does not change how long a run is given.
 */

/**
 * How long after the kickoff's answer a run may be unknown to the service. The live record
 * says only that "a few" reads right after a kickoff say NOT FOUND, and public clients poll
 * every 1 to 10 s. Before the window was counted in time the node tolerated three NOT FOUND
 * reads: at the default 2 s Poll Interval those are the reads at 2, 4 and 6 s, and the read at
 * 8 s ended the item. Eight seconds keep exactly that at the default interval and give every
 * other interval the same span; a stop is asked again for as long.
 */
export const REGISTRATION_WINDOW_MS = 8_000;

/**
 * Whether an answer that does not know the run, given this long after its kickoff's answer, may be
 * registration lag.
 */
export function inRegistrationWindow(sinceKickoffMs: number): boolean {
	return sinceKickoffMs < REGISTRATION_WINDOW_MS;
}
