import { sleep as n8nSleep } from 'n8n-workflow';

/** Waits up to `ms`; returns early, without throwing, once the execution is cancelled. */
export type Sleep = (ms: number) => Promise<void>;

/**
 * n8n-workflow ≤ 2.33 has `sleep(ms)`; later releases have `sleep(ms, signal)` that rejects on
 * abort.
 */
export type N8nSleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Cancellation is noticed within this, even where `sleep` ignores the signal. */
export const SLEEP_CHUNK_MS = 250;

/**
 * A sleep that works with both `sleep` APIs of n8n-workflow (the peer range is
 * `*`, so either may be loaded): it sleeps in short chunks, passes the signal
 * for the versions that listen, and checks it between chunks for those that do
 * not. Node code may not use setTimeout, so n8n's own sleep does the waiting.
 */
export function createCancellableSleep(
	signal: AbortSignal | undefined,
	sleep: N8nSleep = n8nSleep as N8nSleep,
	now: () => number = Date.now,
): Sleep {
	return async (ms: number) => {
		const wakeAt = now() + ms;
		while (!signal?.aborted) {
			const left = wakeAt - now();
			if (left <= 0) return;
			// The new sleep rejects when the signal fires: then the rejection is the
			// wake-up, not a failure. Anything else is real and goes to the caller,
			// whose operation reports it as the item's error.
			const failure = await sleep(Math.min(left, SLEEP_CHUNK_MS), signal).then(
				() => undefined,
				(error: unknown) => (signal?.aborted ? undefined : { error }),
			);
			if (failure) throw failure.error;
		}
	};
}
