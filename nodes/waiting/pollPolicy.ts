/**
 * When to read a running crew's status next. Pure, so the schedule can be
 * tested without waiting.
 */
export interface PollPolicy {
	/** The first wait between polls, and the shortest ever. */
	pollIntervalMs: number;
	/**
	 * The wait as a share of the crew's run time so far: a crew's end is noticed
	 * at most this share of its run time late, and a long crew costs few reads
	 * (the waits grow geometrically until the cap).
	 */
	lagShare: number;
	/** The longest wait between polls: a finished crew is noticed within this. */
	maxPollIntervalMs: number;
}

export const MAX_POLL_INTERVAL_MS = 30_000;
/**
 * A 60 s crew noticed within 3 s, a 10 min crew within the 30 s cap; a 1 h crew costs under 200
 * reads at the default 2 s interval.
 */
export const LAG_SHARE = 0.05;

export function createPollPolicy(pollIntervalMs: number): PollPolicy {
	return {
		pollIntervalMs,
		lagShare: LAG_SHARE,
		maxPollIntervalMs: Math.max(MAX_POLL_INTERVAL_MS, pollIntervalMs),
	};
}

/**
 * The wait before the next status read of a crew that is still running: a
 * share of how long it has run, never shorter than the interval nor longer
 * than the cap. Short crews (most) are polled at the interval; the read after
 * a crew's end comes at most that share of its run time late.
 */
export function nextPollDelay(policy: PollPolicy, sinceKickoffMs: number): number {
	const proportional = Math.round(Math.max(0, sinceKickoffMs) * policy.lagShare);
	return Math.min(policy.maxPollIntervalMs, Math.max(policy.pollIntervalMs, proportional));
}

/**
 * The wait after a read that failed for a passing reason (network, 5xx, 429):
 * doubling per consecutive failure, at least the poll interval, at most the
 * cap, and never sooner than the service's own Retry-After.
 */
export function retryDelay(
	policy: PollPolicy,
	consecutiveFailures: number,
	retryAfterMs?: number,
): number {
	const doubled = policy.pollIntervalMs * 2 ** Math.max(0, consecutiveFailures - 1);
	const backoff = Math.min(policy.maxPollIntervalMs, doubled);
	return Math.max(backoff, retryAfterMs ?? 0);
}

/**
 * How long one status read may take while waiting. A read that hangs is given
 * up as a passing failure and asked again, so it must not eat the wait: ten
 * poll intervals, between 5 and 30 seconds.
 */
export function statusReadTimeout(pollIntervalMs: number): number {
	return Math.min(30_000, Math.max(5_000, pollIntervalMs * 10));
}
