import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { watchFirstPhase } from '../../../nodes/waiting/firstPhase';
import { createPollPolicy } from '../../../nodes/waiting/pollPolicy';
import type { RunningKickoff, StatusReading } from '../../../nodes/waiting/waitForCompletion';

describe('watchFirstPhase', () => {
	function world(endsAt: Record<string, number | 'fails'>) {
		let clock = 0;
		const reads: string[] = [];
		const readStatus = async (kickoff: RunningKickoff): Promise<StatusReading> => {
			reads.push(kickoff.kickoffId);
			const end = endsAt[kickoff.kickoffId];
			if (end === 'fails') return { kind: 'passingFailure', error: new Error('reset') };
			return {
				kind: 'status',
				status: readCrewStatus(kickoff.kickoffId, {
					status: clock >= end ? 'completed' : 'running',
				}),
			};
		};
		const dependencies = {
			readStatus,
			now: () => clock,
			sleep: async (ms: number) => void (clock += ms),
			isCancelled: () => false,
		};
		return { reads, dependencies, now: () => clock };
	}
	const kickoffs = (count: number): RunningKickoff[] =>
		Array.from({ length: count }, (_, itemIndex) => ({
			itemIndex,
			kickoffId: `k${itemIndex}`,
			startedAt: 0,
		}));

	it('reads each round up to the first crew still running, and ends when all have ended', async () => {
		const { reads, dependencies, now } = world({ k0: 1_000, k1: 3_000, k2: 2_000 });
		const outcomes = await watchFirstPhase(
			kickoffs(3),
			createPollPolicy(1_000),
			10_000,
			dependencies,
		);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual([
			'completed',
			'completed',
			'completed',
		]);
		// 1 s: k0 ended, k1 running; 2 s: k1 running; 3 s: k1 and k2 ended.
		expect(reads).toEqual(['k0', 'k1', 'k1', 'k1', 'k2']);
		expect(now()).toBe(3_000);
	});

	it('stops at the deadline with the crews it did not see end as running, their last reading kept', async () => {
		const { reads, dependencies, now } = world({ k0: 500, k1: 60_000, k2: 'fails' });
		const outcomes = await watchFirstPhase(
			kickoffs(3),
			createPollPolicy(1_000),
			2_500,
			dependencies,
		);
		expect(outcomes[0].kind).toBe('completed');
		expect(outcomes[1]).toMatchObject({ kind: 'running', lastStatus: { state: 'running' } });
		expect(outcomes[2]).toEqual({ kind: 'running' });
		expect(reads).toEqual(['k0', 'k1', 'k1', 'k1']);
		expect(now()).toBe(2_500);
	});

	it('gives every crew not seen ending the cancelled outcome once the execution is stopped', async () => {
		const { dependencies } = world({ k0: 60_000, k1: 60_000 });
		const outcomes = await watchFirstPhase(kickoffs(2), createPollPolicy(1_000), 10_000, {
			...dependencies,
			isCancelled: () => true,
		});
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['cancelled', 'cancelled']);
	});
});
