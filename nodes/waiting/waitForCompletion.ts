import { mapWithConcurrency } from './concurrency';
import type { CrewStatus } from '../records/crewStatus';
import { nextPollDelay, retryDelay } from './pollPolicy';
import type { PollPolicy } from './pollPolicy';
import type { Sleep } from './cancellableSleep';

/** A started crew the node waits for. */
export interface RunningKickoff {
	itemIndex: number;
	kickoffId: string;
	/** Clock time of the kickoff; the first poll is one interval after it. */
	startedAt: number;
}

/** What one status read gave. */
export type StatusReading =
	| { kind: 'status'; status: CrewStatus }
	/** Network error, 5xx or 429: ask again later. */
	| { kind: 'passingFailure'; error: Error; retryAfterMs?: number }
	/** 401, a 404 after both paths, anything asking again will not fix. */
	| { kind: 'fatal'; error: Error };

export type WaitOutcome =
	| { kind: 'completed'; status: CrewStatus }
	| { kind: 'failed'; status: CrewStatus }
	/** Waiting for a human: only a Resume can move it on, so waiting longer is pointless. */
	| { kind: 'paused'; status: CrewStatus }
	| { kind: 'error'; error: Error }
	| { kind: 'timedOut'; lastStatus?: CrewStatus; lastError?: Error }
	| { kind: 'cancelled'; lastStatus?: CrewStatus };

export interface WaitDependencies {
	readStatus: (kickoff: RunningKickoff) => Promise<StatusReading>;
	now: () => number;
	sleep: Sleep;
	isCancelled: () => boolean;
	/** Status requests in flight at once, so 500 due polls do not open 500 sockets. */
	maxConcurrentReads: number;
	/** Sees every status read, the final one included, before the wait goes on: live progress. */
	onStatus?: (kickoff: RunningKickoff, status: CrewStatus) => Promise<void>;
}

interface Watch {
	kickoff: RunningKickoff;
	nextPollAt: number;
	consecutiveFailures: number;
	lastStatus?: CrewStatus;
	lastError?: Error;
}

/**
 * Waits on every kickoff at once, in one loop: each crew is read when its own
 * next poll is due, so the whole wait lasts about as long as the slowest crew,
 * not the sum of them. Every kickoff gets a last read at the deadline before it
 * is reported as timed out. Outcomes come back in the order of `kickoffs`.
 */
export async function waitForCompletion(
	kickoffs: readonly RunningKickoff[],
	policy: PollPolicy,
	deadline: number,
	dependencies: WaitDependencies,
): Promise<WaitOutcome[]> {
	const outcomes = new Array<WaitOutcome | undefined>(kickoffs.length);
	const watches = new Map<number, Watch>();
	kickoffs.forEach((kickoff, position) => {
		watches.set(position, {
			kickoff,
			nextPollAt: Math.min(kickoff.startedAt + policy.pollIntervalMs, deadline),
			consecutiveFailures: 0,
		});
	});

	const settle = (position: number, outcome: WaitOutcome) => {
		outcomes[position] = outcome;
		watches.delete(position);
	};

	const poll = async (position: number, watch: Watch) => {
		const reading = await dependencies.readStatus(watch.kickoff);
		const readAt = dependencies.now();
		if (reading.kind === 'fatal') return settle(position, { kind: 'error', error: reading.error });
		let delay: number;
		if (reading.kind === 'status') {
			const { status } = reading;
			if (dependencies.onStatus) await dependencies.onStatus(watch.kickoff, status);
			if (status.state === 'completed') return settle(position, { kind: 'completed', status });
			if (status.state === 'failed') return settle(position, { kind: 'failed', status });
			if (status.state === 'paused') return settle(position, { kind: 'paused', status });
			watch.lastStatus = status;
			watch.consecutiveFailures = 0;
			delay = nextPollDelay(policy, readAt - watch.kickoff.startedAt);
		} else {
			watch.lastError = reading.error;
			watch.consecutiveFailures += 1;
			delay = retryDelay(policy, watch.consecutiveFailures, reading.retryAfterMs);
		}
		if (readAt >= deadline) {
			return settle(position, { kind: 'timedOut', lastStatus: watch.lastStatus, lastError: watch.lastError });
		}
		watch.nextPollAt = Math.min(readAt + delay, deadline);
	};

	while (watches.size > 0) {
		if (dependencies.isCancelled()) {
			for (const [position, watch] of [...watches]) settle(position, { kind: 'cancelled', lastStatus: watch.lastStatus });
			break;
		}
		const now = dependencies.now();
		const due = [...watches].filter(([, watch]) => watch.nextPollAt <= now);
		if (due.length > 0) {
			await mapWithConcurrency(due, dependencies.maxConcurrentReads, async ([position, watch]) => await poll(position, watch));
			continue;
		}
		const wakeAt = Math.min(...[...watches.values()].map((watch) => watch.nextPollAt));
		await dependencies.sleep(wakeAt - now);
	}
	return outcomes as WaitOutcome[];
}
