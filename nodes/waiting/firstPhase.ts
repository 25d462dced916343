import type { CrewStatus } from '../status/crewStatus';
import { firstMemory } from '../status/notFound';
import { nextPollDelay } from './pollPolicy';
import type { PollPolicy } from './pollPolicy';
import { readEnding } from './waitForCompletion';
import type { RunningKickoff, WaitDependencies, WaitOutcome } from './waitForCompletion';

/**
 * What the first phase learnt of a crew it did not see end: it is parked, or timed out with this.
 */
export interface StillRunning {
	kind: 'running';
	lastStatus?: CrewStatus;
	lastError?: Error;
}

export type FirstPhaseOutcome = WaitOutcome | StillRunning;

/**
 * The first phase of a batch waiting by callback: it only has to tell whether
 * every crew has ended, not when each did. So each round reads the crews not
 * yet seen ending, in order, and stops at the first one still running; the
 * rounds follow polling's schedule. A batch that ends inside the phase costs
 * about one read per crew plus one per round, against polling's one read per
 * crew per round, which keeps reads low for the part of the wait that follows.
 * Every crew still running at the deadline had its last read at the deadline
 * or in the round that found it running.
 */
export async function watchFirstPhase(
	kickoffs: readonly RunningKickoff[],
	policy: PollPolicy,
	deadline: number,
	dependencies: Omit<WaitDependencies, 'maxConcurrentReads'>,
): Promise<FirstPhaseOutcome[]> {
	const outcomes: FirstPhaseOutcome[] = kickoffs.map(() => ({ kind: 'running' }));
	const pending = kickoffs.map((_, position) => position);
	if (pending.length === 0) return outcomes;
	const batchStartedAt = Math.min(...kickoffs.map((kickoff) => kickoff.startedAt));
	const lastKickoffAt = Math.max(...kickoffs.map((kickoff) => kickoff.startedAt));
	let nextRoundAt = Math.min(lastKickoffAt + policy.pollIntervalMs, deadline);

	const notFound = kickoffs.map((kickoff) => firstMemory(kickoff.seen));
	const readUntilOneRunning = async () => {
		while (pending.length > 0) {
			const position = pending[0];
			const reading = await dependencies.readStatus(kickoffs[position]);
			const previous = outcomes[position] as StillRunning;
			if (reading.kind === 'fatal') outcomes[position] = { kind: 'error', error: reading.error };
			else if (reading.kind === 'passingFailure')
				return void (outcomes[position] = { ...previous, lastError: reading.error });
			else {
				const { ending, memory } = readEnding(
					reading.status,
					notFound[position],
					dependencies.now() - kickoffs[position].startedAt,
				);
				notFound[position] = memory;
				const shown = ending?.status ?? reading.status;
				if (dependencies.onStatus && shown.state !== 'not_found')
					await dependencies.onStatus(kickoffs[position], shown);
				// A tolerated NOT FOUND counts as still running: the round stops here, as for a running
				// crew.
				if (!ending)
					return void (outcomes[position] = {
						kind: 'running',
						lastStatus: reading.status.state === 'not_found' ? previous.lastStatus : reading.status,
					});
				outcomes[position] = ending;
			}
			pending.shift();
		}
	};

	for (;;) {
		const now = dependencies.now();
		if (dependencies.isCancelled()) {
			for (const position of pending)
				outcomes[position] = {
					kind: 'cancelled',
					lastStatus: (outcomes[position] as StillRunning).lastStatus,
				};
			return outcomes;
		}
		if (now < nextRoundAt) {
			await dependencies.sleep(nextRoundAt - now);
			continue;
		}
		await readUntilOneRunning();
		const readAt = dependencies.now();
		if (pending.length === 0 || readAt >= deadline) return outcomes;
		nextRoundAt = Math.min(readAt + nextPollDelay(policy, readAt - batchStartedAt), deadline);
	}
}
