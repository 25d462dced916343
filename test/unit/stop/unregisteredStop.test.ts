import { judgeNotFound } from '../../../nodes/status/notFound';
import { REGISTRATION_WINDOW_MS } from '../../../nodes/status/registrationWindow';
import {
	FIRST_STOP_RETRY_MS,
	MAX_STOP_RETRY_MS,
	nextStopRetry,
} from '../../../nodes/stop/unregisteredStop';

describe('a stop answered "Execution not found" in a run\'s first seconds', () => {
	it('is asked again exactly while a status read of the run would still wait for its registration', () => {
		const neverSeen = { seen: false, notFoundReads: 1 };
		for (const since of [
			0,
			1,
			REGISTRATION_WINDOW_MS / 2,
			REGISTRATION_WINDOW_MS - 1,
			REGISTRATION_WINDOW_MS,
			REGISTRATION_WINDOW_MS + 1,
		]) {
			expect([since, nextStopRetry(1, 0, since) !== undefined]).toEqual([
				since,
				judgeNotFound(neverSeen, since) === 'tolerate',
			]);
		}
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
		expect(pauses.slice(0, 4)).toEqual([
			FIRST_STOP_RETRY_MS,
			2 * FIRST_STOP_RETRY_MS,
			MAX_STOP_RETRY_MS,
			MAX_STOP_RETRY_MS,
		]);
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
