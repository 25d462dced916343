import {
	MAX_KICKOFF_TIMEOUT_SECONDS,
	readKickoffTimeoutMs,
} from '../../../nodes/kickoff/startCrew';
import { DEFAULT_KICKOFF_TIMEOUT_SECONDS } from '../../../nodes/transport';

describe('the Kickoff Timeout option', () => {
	it('reads seconds as milliseconds, the default when empty or not positive, at most the bound', () => {
		expect(readKickoffTimeoutMs(45)).toBe(45_000);
		expect(readKickoffTimeoutMs('90')).toBe(90_000);
		for (const empty of [undefined, null, '', 0, -3, 'soon'])
			expect(readKickoffTimeoutMs(empty)).toBe(DEFAULT_KICKOFF_TIMEOUT_SECONDS * 1000);
		expect(readKickoffTimeoutMs(10 * MAX_KICKOFF_TIMEOUT_SECONDS)).toBe(
			MAX_KICKOFF_TIMEOUT_SECONDS * 1000,
		);
	});
});
