import {
	DEFAULT_POLL_INTERVAL_SECONDS,
	DEFAULT_TIMEOUT_SECONDS,
	MAX_TIMEOUT_SECONDS,
	readWaitSettings,
} from '../../../nodes/waiting/batchWait';

describe('readWaitSettings', () => {
	it('uses the documented defaults when nothing is set', () => {
		expect(readWaitSettings({})).toEqual({
			timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000,
			pollIntervalMs: DEFAULT_POLL_INTERVAL_SECONDS * 1000,
			maxConcurrentKickoffs: 10,
		});
	});

	it.each([0, undefined, Number.NaN, -5])(
		'reads a timeout of %p as the default, never as forever',
		(timeout) => {
			expect(readWaitSettings({ timeout }).timeoutMs).toBe(600_000);
		},
	);

	it('caps the timeout at 24 hours and keeps fractions of seconds', () => {
		expect(readWaitSettings({ timeout: 10 * MAX_TIMEOUT_SECONDS }).timeoutMs).toBe(86_400_000);
		expect(readWaitSettings({ timeout: 0.5, pollInterval: 0.25 })).toMatchObject({
			timeoutMs: 500,
			pollIntervalMs: 250,
		});
	});

	it('never polls faster than every 0.1 s and starts at least one kickoff at a time', () => {
		expect(readWaitSettings({ pollInterval: 0.01, maxConcurrentKickoffs: 0 })).toMatchObject({
			pollIntervalMs: 100,
			maxConcurrentKickoffs: 10,
		});
		expect(readWaitSettings({ maxConcurrentKickoffs: 3.7 }).maxConcurrentKickoffs).toBe(3);
	});
});
