/**
 * A stop the service answered 429. A 429 says the request was not processed, so the
 * stop is sent again, as the Stop operation's is (transport/postOnce.ts), once the
 * service allows: after its Retry-After, or 2 s, 4 s, 6 s without one. A wait sends
 * its stops together (stopCrews.ts), so the pause holds back every stop of the batch
 * still to be sent, not only the one refused: the service's limit is respected by the
 * batch, not answered with the rest of it. Pure, so the schedule is tested without a
 * service or a clock.
 */

/** A stop is sent this often at most while the service answers 429: as the Stop operation's. */
export const RATE_LIMITED_STOP_ATTEMPTS = 4;
/** The pause after the n-th 429 that names no Retry-After: n times this. */
export const RATE_LIMITED_STOP_WAIT_MS = 2_000;
/**
 * The longest pause, whatever Retry-After says: the stops at a timeout hold the node's
 * output until they are answered, so three pauses cost at most half a minute.
 */
export const MAX_RATE_LIMITED_STOP_WAIT_MS = 10_000;

/**
 * The pause before stop number `attempt + 1` of a crew whose stop number `attempt` was
 * answered 429, or undefined when it has been sent RATE_LIMITED_STOP_ATTEMPTS times and
 * the 429 stands (the item then says the stop failed, and why).
 */
export function rateLimitedStopPause(
	attempt: number,
	retryAfterMs: number | undefined,
): number | undefined {
	if (attempt >= RATE_LIMITED_STOP_ATTEMPTS) return undefined;
	return Math.min(
		retryAfterMs ?? RATE_LIMITED_STOP_WAIT_MS * attempt,
		MAX_RATE_LIMITED_STOP_WAIT_MS,
	);
}

/**
 * Until when the batch's stops wait once a stop was answered 429 at `now` with this pause: the
 * later of the two holds.
 */
export function holdStopsUntil(heldUntil: number, now: number, pause: number): number {
	return Math.max(heldUntil, now + pause);
}
