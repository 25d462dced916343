import { parseRetryAfter } from '../../../nodes/transport/retryAfter';

describe('parseRetryAfter', () => {
	const now = Date.parse('2026-11-22T10:00:00Z');

	it('reads seconds and HTTP dates', () => {
		expect(parseRetryAfter('3', now)).toBe(3_000);
		expect(parseRetryAfter(['1.5'], now)).toBe(1_500);
		expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5_000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
	});

	it('reads nothing from a missing or unreadable header', () => {
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
		expect(parseRetryAfter('soon', now)).toBeUndefined();
	});
});
