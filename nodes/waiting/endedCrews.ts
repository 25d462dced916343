import type { WaitOutcome } from './waitForCompletion';

/**
 * What one n8n process has read of a batch's crews that ended: a record that
 * no longer changes. A saving of status reads only, never needed for the right
 * answer: a call handled by another process, or after a restart, finds nothing
 * here and reads the service instead (the waiting execution holds all the
 * webhook needs). Without it every call would re-read the crews that ended
 * before it, one read more per crew for each call that follows.
 */
export interface EndedCrews {
	/** A crew this process has read ended; undefined otherwise. */
	ended(crewKey: string): WaitOutcome | undefined;
	/**
	 * The crew's outcome: remembered if it ended; else joins a read of it in flight
	 * that started at `notBefore` or later (calls that arrive together would otherwise
	 * each read every crew; an older read may predate the crew's end); else `read()`,
	 * remembered when it says the crew ended. Undefined: still running.
	 */
	outcomeOf(crewKey: string, notBefore: number, read: () => Promise<WaitOutcome | undefined>): Promise<WaitOutcome | undefined>;
	forget(crewKeys: readonly string[]): void;
	/** Replaces what is known of an ended crew: a human-input call names the task a pause read without it. */
	remember(crewKey: string, outcome: WaitOutcome): void;
	/** True for the first call that asks for a batch: two calls that both find it complete must not both resume it. */
	claimResume(batchKey: string): boolean;
	/** Forgets everything, as a restart does. */
	clear(): void;
}

/** An end no later read changes; an error is read again (it may have been the service's passing state). */
function ended(outcome: WaitOutcome): boolean {
	return outcome.kind === 'completed' || outcome.kind === 'failed' || outcome.kind === 'stopped' || outcome.kind === 'paused';
}

/** Longer than the longest timeout (24 h): an entry outlives its batch's wait. */
const KEEP_MS = 25 * 60 * 60 * 1000;
const MAX_ENTRIES = 20_000;

export function createEndedCrews(now: () => number, maxEntries = MAX_ENTRIES): EndedCrews {
	const outcomes = new Map<string, { outcome: WaitOutcome; at: number }>();
	const reading = new Map<string, { startedAt: number; outcome: Promise<WaitOutcome | undefined> }>();
	const claims = new Map<string, number>();
	const prune = (entries: Map<string, unknown>, atOf: (value: never) => number) => {
		const oldest = now() - KEEP_MS;
		for (const [key, value] of entries) {
			// Insertion order is age order: stop at the first young entry.
			if (entries.size <= maxEntries && atOf(value as never) >= oldest) break;
			entries.delete(key);
		}
	};
	return {
		ended: (crewKey) => outcomes.get(crewKey)?.outcome,
		async outcomeOf(crewKey, notBefore, read) {
			const known = outcomes.get(crewKey)?.outcome;
			if (known) return known;
			const inFlight = reading.get(crewKey);
			if (inFlight && inFlight.startedAt >= notBefore) return await inFlight.outcome;
			const mine = {
				startedAt: now(),
				outcome: read().then((outcome) => {
					if (outcome && ended(outcome)) {
						outcomes.set(crewKey, { outcome, at: now() });
						prune(outcomes, (value: { at: number }) => value.at);
					}
					return outcome;
				}),
			};
			reading.set(crewKey, mine);
			try {
				return await mine.outcome;
			} finally {
				if (reading.get(crewKey) === mine) reading.delete(crewKey);
			}
		},
		forget(crewKeys) {
			for (const key of crewKeys) outcomes.delete(key);
		},
		remember(crewKey, outcome) {
			if (!ended(outcome)) return;
			outcomes.delete(crewKey);
			outcomes.set(crewKey, { outcome, at: now() });
			prune(outcomes, (value: { at: number }) => value.at);
		},
		claimResume(batchKey) {
			prune(claims, (at: number) => at);
			if (claims.has(batchKey)) return false;
			claims.set(batchKey, now());
			return true;
		},
		clear() {
			outcomes.clear();
			reading.clear();
			claims.clear();
		},
	};
}

/** A crew as the cache knows it: the service it runs on and its kickoff id. */
export function crewKey(baseUrl: string, kickoffId: string): string {
	return `${baseUrl}\n${kickoffId}`;
}
