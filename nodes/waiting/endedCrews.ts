import type { WaitOutcome } from './waitForCompletion';
import type { PausedTask } from '../records/pausedTask';

/**
 * What one n8n process remembers of the parked batches it is called for: which awaited crews it saw
 * end, by their own call or a read (their keys, and what a human-input call said of a pause's task:
 * the person judges its output), the reads of crews in flight, and which batches it resumed. No
 * status record and no result outlive a read: the call that completes a batch reads the records of
 * the crews earlier calls saw end. The crews and reads are a saving of status reads (without them
 * every call would read again the crews that ended before it, and calls that arrive together would
 * each read every crew), never needed for the right answer: a call handled by another process, or
 * after a restart, finds nothing here and reads the service instead.
 */

/**
 * A crew seen ending. `pausedTask`: what a human-input call said of the task it paused on, kept
 * until its batch resumes.
 */
export interface CrewEnd {
	pausedTask?: PausedTask;
}

export interface EndedCrews {
	/** The crew's end as this process saw it; undefined when it did not. */
	endOf(crewKey: string): CrewEnd | undefined;
	remember(crewKey: string, end: CrewEnd): void;
	/**
	 * The crew's outcome from `read()`, or from a read of it in flight that started at
	 * `notBefore` or later (an older read may predate the crew's end); a final one is
	 * remembered as the crew's end. Undefined: it may still be running.
	 */
	readOnce(
		crewKey: string,
		notBefore: number,
		read: () => Promise<WaitOutcome | undefined>,
	): Promise<WaitOutcome | undefined>;
	forget(crewKeys: readonly string[]): void;
	/**
	 * True for the first call that asks for a batch: two calls that both find it complete must not
	 * both resume it.
	 */
	claimResume(batchKey: string): boolean;
	/** Gives a claim back: the batch turned out not to be complete after all. */
	releaseResume(batchKey: string): void;
	/** Forgets everything, as a restart does. */
	clear(): void;
}

/** Longer than the longest timeout (24 h): an entry outlives its batch's wait. */
const KEEP_MS = 25 * 60 * 60 * 1000;
/** A key and a few bytes each: a few megabytes at most, whatever the batches. */
const MAX_ENTRIES = 20_000;

/** An end no later read changes; an error or a run not found is read again by the next call. */
function isFinal(outcome: WaitOutcome | undefined): boolean {
	return (
		outcome?.kind === 'completed' ||
		outcome?.kind === 'failed' ||
		outcome?.kind === 'stopped' ||
		outcome?.kind === 'paused'
	);
}

export function createEndedCrews(now: () => number, maxEntries = MAX_ENTRIES): EndedCrews {
	const ends = new Map<string, CrewEnd & { at: number }>();
	const reading = new Map<string, { at: number; outcome: Promise<WaitOutcome | undefined> }>();
	const claims = new Map<string, { at: number }>();
	/** Drops the entries past their time, and the oldest beyond the bound. */
	const add = <T extends { at: number }>(entries: Map<string, T>, key: string, value: T) => {
		entries.delete(key);
		entries.set(key, value);
		const oldest = now() - KEEP_MS;
		for (const [entryKey, entry] of entries) {
			// Insertion order is age order: stop at the first young entry.
			if (entries.size <= maxEntries && entry.at >= oldest) break;
			entries.delete(entryKey);
		}
	};
	return {
		endOf: (crewKey) => ends.get(crewKey),
		remember: (crewKey, end) => add(ends, crewKey, { ...end, at: now() }),
		async readOnce(crewKey, notBefore, read) {
			const inFlight = reading.get(crewKey);
			if (inFlight && inFlight.at >= notBefore) return await inFlight.outcome;
			const mine = { at: now(), outcome: read() };
			reading.set(crewKey, mine);
			try {
				const outcome = await mine.outcome;
				if (isFinal(outcome) && !ends.has(crewKey)) add(ends, crewKey, { at: now() });
				return outcome;
			} finally {
				if (reading.get(crewKey) === mine) reading.delete(crewKey);
			}
		},
		forget(crewKeys) {
			for (const key of crewKeys) ends.delete(key);
		},
		claimResume(batchKey) {
			const claim = claims.get(batchKey);
			if (claim && claim.at >= now() - KEEP_MS) return false;
			add(claims, batchKey, { at: now() });
			return true;
		},
		releaseResume: (batchKey) => void claims.delete(batchKey),
		clear() {
			ends.clear();
			reading.clear();
			claims.clear();
		},
	};
}

/** A crew as this memory knows it: the service it runs on and its kickoff id. */
export function crewKey(baseUrl: string, kickoffId: string): string {
	return `${baseUrl}\n${kickoffId}`;
}
