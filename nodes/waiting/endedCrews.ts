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
	/**
	 * The crew's outcome: remembered if it ended; else joins a read of it already in
	 * flight (calls that arrive together would otherwise each read every crew);
	 * else `read()`, remembered when it says the crew ended. Undefined: still running.
	 */
	outcomeOf(crewKey: string, read: () => Promise<WaitOutcome | undefined>): Promise<WaitOutcome | undefined>;
	forget(crewKeys: readonly string[]): void;
	/** True for the first call that asks for a batch: two calls that both find it complete must not both resume it. */
	claimResume(batchKey: string): boolean;
	/** Forgets everything, as a restart does. */
	clear(): void;
}

/** An end no later read changes; an error is read again (it may have been the service's passing state). */
function ended(outcome: WaitOutcome): boolean {
	return outcome.kind === 'completed' || outcome.kind === 'failed' || outcome.kind === 'paused';
}

/** Longer than the longest timeout (24 h): an entry outlives its batch's wait. */
const KEEP_MS = 25 * 60 * 60 * 1000;
const MAX_ENTRIES = 20_000;

export function createEndedCrews(now: () => number, maxEntries = MAX_ENTRIES): EndedCrews {
	const outcomes = new Map<string, { outcome: WaitOutcome; at: number }>();
	const reading = new Map<string, Promise<WaitOutcome | undefined>>();
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
		async outcomeOf(crewKey, read) {
			const known = outcomes.get(crewKey)?.outcome ?? reading.get(crewKey);
			if (known) return await known;
			const pending = read().then((outcome) => {
				if (outcome && ended(outcome)) {
					outcomes.set(crewKey, { outcome, at: now() });
					prune(outcomes, (value: { at: number }) => value.at);
				}
				return outcome;
			});
			reading.set(crewKey, pending);
			try {
				return await pending;
			} finally {
				reading.delete(crewKey);
			}
		},
		forget(crewKeys) {
			for (const key of crewKeys) outcomes.delete(key);
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
