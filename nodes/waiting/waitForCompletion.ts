import { mapWithConcurrency } from '../execution/concurrency';
import type { CrewStatus } from '../status/crewStatus';
import type { StopResult } from '../stop/stopAnswer';
import { firstMemory, judgeNotFound, pausedFromNotFound, rememberRead } from '../status/notFound';
import type { NotFoundMemory } from '../status/notFound';
import { nextPollDelay, retryDelay } from './pollPolicy';
import type { PollPolicy } from './pollPolicy';
import type { Sleep } from '../execution/cancellableSleep';

/** A started crew the node waits for. */
export interface RunningKickoff {
	itemIndex: number;
	kickoffId: string;
	/**
	 * Clock time of the kickoff's answer: the first poll is one interval after it, and the
	 * registration window counts from it.
	 */
	startedAt: number;
	/**
	 * When the first read is due, if not one interval after the kickoff: a callback's confirming read
	 * is made at once.
	 */
	firstReadAt?: number;
	/**
	 * An earlier try of the node saw the service report this run (retryOnFail/earlierTries.ts): NOT
	 * FOUND is then a pause, not registration lag.
	 */
	seen?: boolean;
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
	/**
	 * Stopped on the service (REVOKED): by the Stop operation, the dashboard, or this node at its
	 * timeout.
	 */
	| { kind: 'stopped'; status: CrewStatus }
	/** Waiting for a human: only a Resume can move it on, so waiting longer is pointless. */
	| { kind: 'paused'; status: CrewStatus }
	/** NOT FOUND after the registration window, and never seen: the service knows no such run. */
	| { kind: 'notFound'; status: CrewStatus; reads: number }
	| { kind: 'error'; error: Error }
	/**
	 * `stop`: what the stop the node sent at the timeout did (On Timeout: Stop the Crews); absent
	 * when none was sent.
	 */
	| { kind: 'timedOut'; lastStatus?: CrewStatus; lastError?: Error; stop?: StopResult }
	/**
	 * `stop`: what the stop the node sent as the execution was cancelled did; absent when none was
	 * sent.
	 */
	| { kind: 'cancelled'; lastStatus?: CrewStatus; stop?: StopResult };

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
	notFound: NotFoundMemory;
}

/** A record that ends the wait, or undefined while the crew may still move on. */
export type EndingOutcome = Extract<
	WaitOutcome,
	{ kind: 'completed' | 'failed' | 'stopped' | 'paused' | 'notFound' }
>;

/** The states a status record ends a wait with, whatever came before. */
export function isEndState(
	state: CrewStatus['state'],
): state is 'completed' | 'failed' | 'stopped' | 'paused' {
	return state === 'completed' || state === 'failed' || state === 'stopped' || state === 'paused';
}

/**
 * What one status record means for a wait, with what the earlier reads of the run
 * showed and how long after the kickoff's answer it was read: an end, or undefined to
 * read again. A NOT FOUND is judged by status/notFound.ts (registration lag, an
 * unknown run, or a pause for human input); the paused record is what the item and
 * the live progress then show.
 */
export function readEnding(
	status: CrewStatus,
	memory: NotFoundMemory,
	sinceKickoffMs: number,
): { ending?: EndingOutcome; memory: NotFoundMemory } {
	const next = rememberRead(memory, status);
	if (isEndState(status.state)) return { ending: { kind: status.state, status }, memory: next };
	if (status.state !== 'not_found') return { memory: next };
	const verdict = judgeNotFound(next, sinceKickoffMs);
	if (verdict === 'paused')
		return { ending: { kind: 'paused', status: pausedFromNotFound(status) }, memory: next };
	if (verdict === 'unknownRun')
		return { ending: { kind: 'notFound', status, reads: next.notFoundReads }, memory: next };
	return { memory: next };
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
			nextPollAt: Math.min(
				kickoff.firstReadAt ?? kickoff.startedAt + policy.pollIntervalMs,
				deadline,
			),
			consecutiveFailures: 0,
			notFound: firstMemory(kickoff.seen),
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
			const { ending, memory } = readEnding(
				reading.status,
				watch.notFound,
				readAt - watch.kickoff.startedAt,
			);
			watch.notFound = memory;
			// A tolerated NOT FOUND tells a person nothing; a pause read from one is shown as the pause.
			const shown = ending?.status ?? reading.status;
			if (dependencies.onStatus && shown.state !== 'not_found')
				await dependencies.onStatus(watch.kickoff, shown);
			if (ending) return settle(position, ending);
			if (reading.status.state !== 'not_found') watch.lastStatus = reading.status;
			watch.consecutiveFailures = 0;
			delay = nextPollDelay(policy, readAt - watch.kickoff.startedAt);
		} else {
			watch.lastError = reading.error;
			watch.consecutiveFailures += 1;
			delay = retryDelay(policy, watch.consecutiveFailures, reading.retryAfterMs);
		}
		if (readAt >= deadline) {
			return settle(position, {
				kind: 'timedOut',
				lastStatus: watch.lastStatus,
				lastError: watch.lastError,
			});
		}
		watch.nextPollAt = Math.min(readAt + delay, deadline);
	};

	while (watches.size > 0) {
		if (dependencies.isCancelled()) {
			for (const [position, watch] of [...watches])
				settle(position, { kind: 'cancelled', lastStatus: watch.lastStatus });
			break;
		}
		const now = dependencies.now();
		const due = [...watches].filter(([, watch]) => watch.nextPollAt <= now);
		if (due.length > 0) {
			await mapWithConcurrency(
				due,
				dependencies.maxConcurrentReads,
				async ([position, watch]) => await poll(position, watch),
			);
			continue;
		}
		const wakeAt = Math.min(...[...watches.values()].map((watch) => watch.nextPollAt));
		await dependencies.sleep(wakeAt - now);
	}
	return outcomes as WaitOutcome[];
}
