import {
	holdStopsUntil,
	MAX_RATE_LIMITED_STOP_WAIT_MS,
	RATE_LIMITED_STOP_ATTEMPTS,
	RATE_LIMITED_STOP_WAIT_MS,
	rateLimitedStopPause,
} from '../../../nodes/stop/rateLimitedStop';

describe("a wait's stop answered 429", () => {
	it("is sent again after the service's Retry-After, capped, as often as the Stop operation's at most", () => {
		expect(rateLimitedStopPause(1, 1_500)).toBe(1_500);
		expect(rateLimitedStopPause(2, 0)).toBe(0);
		expect(rateLimitedStopPause(1, 120_000)).toBe(MAX_RATE_LIMITED_STOP_WAIT_MS);
		expect(RATE_LIMITED_STOP_ATTEMPTS).toBe(4);
		const pauses = [1, 2, 3, 4, 5].map((attempt) => rateLimitedStopPause(attempt, 1_000));
		expect(pauses).toEqual([1_000, 1_000, 1_000, undefined, undefined]);
	});

	it('without Retry-After, waits longer after each 429: 2 s, 4 s, 6 s', () => {
		expect([1, 2, 3].map((attempt) => rateLimitedStopPause(attempt, undefined))).toEqual([
			RATE_LIMITED_STOP_WAIT_MS,
			2 * RATE_LIMITED_STOP_WAIT_MS,
			3 * RATE_LIMITED_STOP_WAIT_MS,
		]);
		expect(rateLimitedStopPause(RATE_LIMITED_STOP_ATTEMPTS, undefined)).toBeUndefined();
	});

	it('holds the whole batch until the latest pause any 429 asked for, never shortening a hold', () => {
		expect(holdStopsUntil(0, 10_000, 1_000)).toBe(11_000);
		expect(holdStopsUntil(11_000, 10_500, 200)).toBe(11_000);
		expect(holdStopsUntil(11_000, 10_500, 2_000)).toBe(12_500);
	});
});
