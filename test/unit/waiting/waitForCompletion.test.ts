import type { CrewStatus } from '../../../nodes/status/crewStatus';
import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { createPollPolicy } from '../../../nodes/waiting/pollPolicy';
import { waitForCompletion } from '../../../nodes/waiting/waitForCompletion';
import type {
	RunningKickoff,
	StatusReading,
	WaitDependencies,
} from '../../../nodes/waiting/waitForCompletion';

/** Simulated time: sleeping moves the clock, so hours pass in milliseconds. */
function simulatedWorld() {
	let clock = 0;
	const polls: Array<{ kickoffId: string; at: number }> = [];
	let cancelled = false;
	let inFlight = 0;
	let maxInFlight = 0;
	return {
		now: () => clock,
		polls,
		cancel: () => {
			cancelled = true;
		},
		get maxInFlight() {
			return maxInFlight;
		},
		dependencies(
			readStatus: (kickoff: RunningKickoff, at: number) => StatusReading,
			maxConcurrentReads = 20,
		): WaitDependencies {
			return {
				now: () => clock,
				sleep: async (ms: number) => {
					clock += ms;
				},
				isCancelled: () => cancelled,
				maxConcurrentReads,
				readStatus: async (kickoff) => {
					inFlight++;
					maxInFlight = Math.max(maxInFlight, inFlight);
					polls.push({ kickoffId: kickoff.kickoffId, at: clock });
					await Promise.resolve();
					inFlight--;
					return readStatus(kickoff, clock);
				},
			};
		},
	};
}

/** A crew that is running until `durationMs` after its kickoff, then has `finalRecord`. */
function crewLasting(
	durationMs: number,
	finalRecord: object = { state: 'SUCCESS', result: 'done' },
) {
	return (kickoff: RunningKickoff, at: number): StatusReading => ({
		kind: 'status',
		status: readCrewStatus(
			kickoff.kickoffId,
			at - kickoff.startedAt >= durationMs ? finalRecord : { state: 'RUNNING' },
		),
	});
}

const kickoff = (itemIndex: number, startedAt = 0): RunningKickoff => ({
	itemIndex,
	kickoffId: `k${itemIndex}`,
	startedAt,
});

describe('waitForCompletion', () => {
	it('polls at the interval until the crew completes, then gives its status', async () => {
		const world = simulatedWorld();
		const [outcome] = await waitForCompletion(
			[kickoff(0)],
			createPollPolicy(1_000),
			60_000,
			world.dependencies(crewLasting(4_500)),
		);
		expect(outcome.kind).toBe('completed');
		expect((outcome as { status: CrewStatus }).status.result).toBe('done');
		expect(world.polls.map((poll) => poll.at)).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
	});

	it('waits on many crews at once: the wait lasts as long as the slowest, not the sum', async () => {
		const world = simulatedWorld();
		const durations = [3_000, 10_000, 5_000, 7_000, 1_000];
		const kickoffs = durations.map((_, index) => kickoff(index));
		const outcomes = await waitForCompletion(
			kickoffs,
			createPollPolicy(1_000),
			600_000,
			world.dependencies((k, at) => crewLasting(durations[k.itemIndex])(k, at)),
		);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual([
			'completed',
			'completed',
			'completed',
			'completed',
			'completed',
		]);
		expect(world.now()).toBe(10_000);
	});

	it('keeps the outcomes in the order of the kickoffs whatever order they finish in', async () => {
		const world = simulatedWorld();
		const outcomes = await waitForCompletion(
			[kickoff(0), kickoff(1), kickoff(2)],
			createPollPolicy(1_000),
			60_000,
			world.dependencies((k, at) =>
				k.itemIndex === 1
					? crewLasting(1_000, { status: 'error', error: 'boom' })(k, at)
					: crewLasting(5_000 - k.itemIndex * 1_000)(k, at),
			),
		);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['completed', 'failed', 'completed']);
		expect(
			outcomes.map((outcome) => ('status' in outcome ? outcome.status?.kickoff_id : undefined)),
		).toEqual(['k0', 'k1', 'k2']);
	});

	it('follows an hours-long crew with few polls and notices its end within the 30 s cap', async () => {
		const world = simulatedWorld();
		const threeHours = 3 * 3_600_000;
		const [outcome] = await waitForCompletion(
			[kickoff(0)],
			createPollPolicy(2_000),
			4 * 3_600_000,
			world.dependencies(crewLasting(threeHours)),
		);
		expect(outcome.kind).toBe('completed');
		expect(world.now() - threeHours).toBeLessThanOrEqual(30_000);
		// 20 reads at the interval, about 56 while the wait grows to the cap (10 min in), then one per 30 s.
		expect(world.polls.length).toBeLessThanOrEqual(20 + 56 + (threeHours - 600_000) / 30_000 + 1);
		const gaps = world.polls.slice(1).map((poll, index) => poll.at - world.polls[index].at);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2_000);
		expect(Math.max(...gaps)).toBe(30_000);
	});

	it('times out at the deadline after a last poll there, keeping the last status', async () => {
		const world = simulatedWorld();
		const [outcome] = await waitForCompletion(
			[kickoff(0)],
			createPollPolicy(4_000),
			10_000,
			world.dependencies(crewLasting(Infinity)),
		);
		expect(outcome).toMatchObject({
			kind: 'timedOut',
			lastStatus: { state: 'running', kickoff_id: 'k0' },
		});
		expect(world.polls.map((poll) => poll.at)).toEqual([4_000, 8_000, 10_000]);
	});

	it('rides out passing failures with backoff and Retry-After, then completes', async () => {
		const world = simulatedWorld();
		let calls = 0;
		const [outcome] = await waitForCompletion(
			[kickoff(0)],
			createPollPolicy(1_000),
			60_000,
			world.dependencies((k) => {
				calls++;
				if (calls === 1) return { kind: 'passingFailure', error: new Error('502') };
				if (calls === 2)
					return { kind: 'passingFailure', error: new Error('429'), retryAfterMs: 9_000 };
				if (calls === 3) return { kind: 'passingFailure', error: new Error('reset') };
				return {
					kind: 'status',
					status: readCrewStatus(k.kickoffId, { status: 'completed', result: { output: 'ok' } }),
				};
			}),
		);
		expect(outcome.kind).toBe('completed');
		// 1 s first poll, then 1 s backoff, then the 9 s Retry-After, then 4 s (third failure in a row).
		expect(world.polls.map((poll) => poll.at)).toEqual([1_000, 2_000, 11_000, 15_000]);
	});

	it('reports the last failure when only failures were seen until the deadline', async () => {
		const world = simulatedWorld();
		const [outcome] = await waitForCompletion(
			[kickoff(0)],
			createPollPolicy(1_000),
			5_000,
			world.dependencies(() => ({ kind: 'passingFailure', error: new Error('503 again') })),
		);
		expect(outcome).toMatchObject({ kind: 'timedOut', lastStatus: undefined });
		expect((outcome as { lastError: Error }).lastError.message).toBe('503 again');
	});

	it('stops waiting for a crew paused for human input, and reports it as paused', async () => {
		const world = simulatedWorld();
		const outcomes = await waitForCompletion(
			[kickoff(0), kickoff(1)],
			createPollPolicy(1_000),
			3_600_000,
			world.dependencies((k, at) =>
				k.itemIndex === 0
					? crewLasting(2_000, { state: 'PENDING_HUMAN_INPUT', task_id: 'review' })(k, at)
					: crewLasting(5_000)(k, at),
			),
		);
		expect(outcomes[0]).toMatchObject({
			kind: 'paused',
			status: { state: 'paused', task_id: 'review' },
		});
		expect(outcomes[1].kind).toBe('completed');
		expect(world.polls.filter((poll) => poll.kickoffId === 'k0')).toHaveLength(2);
	});

	it('ends the wait for a crew stopped on the service (REVOKED) at its first such read, and goes on with the others', async () => {
		const world = simulatedWorld();
		const outcomes = await waitForCompletion(
			[kickoff(0), kickoff(1)],
			createPollPolicy(1_000),
			3_600_000,
			world.dependencies((k, at) =>
				k.itemIndex === 0
					? crewLasting(2_000, { state: 'REVOKED', status: 'Task is Revoked' })(k, at)
					: crewLasting(5_000)(k, at),
			),
		);
		expect(outcomes[0]).toMatchObject({
			kind: 'stopped',
			status: { state: 'stopped', error: null },
		});
		expect(outcomes[1].kind).toBe('completed');
		expect(world.polls.filter((poll) => poll.kickoffId === 'k0')).toHaveLength(2);
	});

	it('ends an item at once on a fatal reading, and goes on with the others', async () => {
		const world = simulatedWorld();
		const outcomes = await waitForCompletion(
			[kickoff(0), kickoff(1)],
			createPollPolicy(1_000),
			60_000,
			world.dependencies((k, at) =>
				k.itemIndex === 0 ? { kind: 'fatal', error: new Error('401') } : crewLasting(3_000)(k, at),
			),
		);
		expect(outcomes[0]).toMatchObject({ kind: 'error' });
		expect(outcomes[1]).toMatchObject({ kind: 'completed' });
		expect(world.polls.filter((poll) => poll.kickoffId === 'k0')).toHaveLength(1);
	});

	it('stops waiting once cancelled, reporting every crew still running', async () => {
		const world = simulatedWorld();
		const outcomes = await waitForCompletion(
			[kickoff(0), kickoff(1)],
			createPollPolicy(1_000),
			600_000,
			world.dependencies((k, at) => {
				if (at >= 5_000) world.cancel();
				return k.itemIndex === 0 ? crewLasting(2_000)(k, at) : crewLasting(Infinity)(k, at);
			}),
		);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['completed', 'cancelled']);
		expect(world.now()).toBe(5_000);
	});

	it("starts each crew's polling one interval after its own kickoff", async () => {
		const world = simulatedWorld();
		await waitForCompletion(
			[kickoff(0, 0), kickoff(1, 700)],
			createPollPolicy(1_000),
			60_000,
			world.dependencies(crewLasting(1_500)),
		);
		expect(world.polls.filter((poll) => poll.kickoffId === 'k1').map((poll) => poll.at)).toEqual([
			1_700, 2_700,
		]);
	});

	it('bounds the status reads in flight', async () => {
		const world = simulatedWorld();
		const kickoffs = Array.from({ length: 100 }, (_, index) => kickoff(index));
		await waitForCompletion(
			kickoffs,
			createPollPolicy(1_000),
			60_000,
			world.dependencies(crewLasting(1_000), 7),
		);
		expect(world.maxInFlight).toBe(7);
	});

	it('hands every status read, the final one included, to onStatus in order, and waits for it before going on', async () => {
		const world = simulatedWorld();
		const seen: string[] = [];
		const dependencies = world.dependencies((k, at) =>
			k.itemIndex === 1
				? crewLasting(1_000, { state: 'FAILURE', result: 'boom' })(k, at)
				: crewLasting(2_500)(k, at),
		);
		dependencies.onStatus = async (k, status) => {
			await Promise.resolve();
			seen.push(`${k.kickoffId}@${world.now()}:${status.state}`);
		};
		const outcomes = await waitForCompletion(
			[kickoff(0), kickoff(1)],
			createPollPolicy(1_000),
			60_000,
			dependencies,
		);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['completed', 'failed']);
		expect(seen).toEqual([
			'k0@1000:running',
			'k1@1000:failed',
			'k0@2000:running',
			'k0@3000:completed',
		]);
	});

	it('gives onStatus nothing for a failed read', async () => {
		const world = simulatedWorld();
		const seen: string[] = [];
		const dependencies = world.dependencies((k, at) =>
			at < 2_000 ? { kind: 'passingFailure', error: new Error('reset') } : crewLasting(0)(k, at),
		);
		dependencies.onStatus = async (_, status) => {
			seen.push(status.state);
		};
		await waitForCompletion([kickoff(0)], createPollPolicy(1_000), 60_000, dependencies);
		expect(seen).toEqual(['completed']);
	});
});
