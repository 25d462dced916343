import { NOT_FOUND_TOLERATED_READS } from '../../../nodes/status/notFound';
import { FIRST_STOP_RETRY_MS, MAX_STOP_RETRY_MS, nextStopRetry, REGISTRATION_WINDOW_MS } from '../../../nodes/stop/unregisteredStop';

describe('a stop answered "Execution not found" in a run\'s first seconds', () => {
	it('gives a stop the span the status reads of a fresh run get: the tolerated NOT FOUND reads at the default 2 s interval', () => {
		expect(REGISTRATION_WINDOW_MS).toBe(NOT_FOUND_TOLERATED_READS * 2_000);
	});

	it('asks again with a growing pause, capped, and never past the window', () => {
		const start = 1_000_000;
		let now = start;
		const pauses: number[] = [];
		for (let attempt = 1; ; attempt++) {
			const pause = nextStopRetry(attempt, start, now);
			if (pause === undefined) break;
			pauses.push(pause);
			now += pause;
		}
		expect(pauses.slice(0, 4)).toEqual([FIRST_STOP_RETRY_MS, 2 * FIRST_STOP_RETRY_MS, MAX_STOP_RETRY_MS, MAX_STOP_RETRY_MS]);
		expect(Math.max(...pauses)).toBe(MAX_STOP_RETRY_MS);
		expect(now).toBe(start + REGISTRATION_WINDOW_MS);
		expect(pauses.length).toBeLessThanOrEqual(10);
	});

	it('asks no more once the window after the kickoff has passed', () => {
		expect(nextStopRetry(1, 0, REGISTRATION_WINDOW_MS)).toBeUndefined();
		expect(nextStopRetry(1, 0, REGISTRATION_WINDOW_MS + 50_000)).toBeUndefined();
		expect(nextStopRetry(1, 0, REGISTRATION_WINDOW_MS - 100)).toBe(100);
	});
});
