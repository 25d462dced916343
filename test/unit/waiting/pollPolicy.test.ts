import {
	createPollPolicy,
	nextPollDelay,
	retryDelay,
	statusReadTimeout,
} from '../../../nodes/waiting/pollPolicy';

describe('nextPollDelay', () => {
	const policy = createPollPolicy(2_000);

	it('polls at the interval while a twentieth of the run time is shorter', () => {
		expect(nextPollDelay(policy, 0)).toBe(2_000);
		expect(nextPollDelay(policy, 39_999)).toBe(2_000);
	});

	it('then waits a twentieth of the run time so far, up to the 30 s cap', () => {
		expect(nextPollDelay(policy, 60_000)).toBe(3_000);
		expect(nextPollDelay(policy, 200_000)).toBe(10_000);
		expect(nextPollDelay(policy, 600_000)).toBe(30_000);
		expect(nextPollDelay(policy, 3_600_000)).toBe(30_000);
	});

	it("notices any crew's end within 5% of its run time once past the interval, and a 1 h crew costs under 200 reads", () => {
		for (const runMs of [40_000, 60_000, 61_234, 600_000, 3_600_000]) {
			let readAt = 0;
			let reads = 0;
			while (readAt < runMs) {
				readAt += nextPollDelay(policy, readAt);
				reads++;
			}
			expect(readAt - runMs).toBeLessThanOrEqual(Math.min(runMs * 0.05, 30_000));
			if (runMs === 3_600_000) expect(reads).toBeLessThanOrEqual(200);
		}
	});

	it('never polls more often than the interval, even when the interval exceeds the cap', () => {
		const slow = createPollPolicy(45_000);
		expect(nextPollDelay(slow, 100_000)).toBe(45_000);
		expect(nextPollDelay(slow, 3_600_000)).toBe(45_000);
	});
});

describe('retryDelay', () => {
	const policy = createPollPolicy(1_000);

	it('doubles per consecutive failure, capped', () => {
		expect([1, 2, 3, 4].map((failures) => retryDelay(policy, failures))).toEqual([
			1_000, 2_000, 4_000, 8_000,
		]);
		expect(retryDelay(policy, 20)).toBe(30_000);
	});

	it('waits at least what Retry-After asks', () => {
		expect(retryDelay(policy, 1, 7_000)).toBe(7_000);
		expect(retryDelay(policy, 3, 500)).toBe(4_000);
	});
});

describe('statusReadTimeout', () => {
	it('gives a read ten poll intervals, between 5 and 30 seconds', () => {
		expect(statusReadTimeout(100)).toBe(5_000);
		expect(statusReadTimeout(2_000)).toBe(20_000);
		expect(statusReadTimeout(10_000)).toBe(30_000);
	});
});
