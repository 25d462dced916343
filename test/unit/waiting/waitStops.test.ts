import { crewsToStop } from '../../../nodes/waiting/waitStops';
import type { WaitOutcome } from '../../../nodes/waiting/waitForCompletion';

describe('which crews a wait stops', () => {
	it('only the crews still running at the timeout or the cancel, never one that ended', () => {
		const status = {
			kickoff_id: 'k',
			state: 'completed' as const,
			result: 'r',
			result_json: null,
			error: null,
			task_id: null,
			response: {},
		};
		const outcomes: WaitOutcome[] = [
			{ kind: 'completed', status },
			{ kind: 'timedOut' },
			{ kind: 'cancelled' },
			{ kind: 'failed', status: { ...status, state: 'failed' } },
			{ kind: 'error', error: new Error('x') },
		];
		expect(crewsToStop(outcomes, { stopAtTimeout: true, stopOnCancel: true })).toEqual([1, 2]);
		expect(crewsToStop(outcomes, { stopAtTimeout: false, stopOnCancel: true })).toEqual([2]);
		expect(crewsToStop(outcomes, { stopAtTimeout: true, stopOnCancel: false })).toEqual([1]);
		expect(crewsToStop(outcomes, { stopAtTimeout: false, stopOnCancel: false })).toEqual([]);
	});
});
