import type { Sleep } from '../execution/cancellableSleep';
import { isPassingFailure, retryAfterOf } from './index';
import type { CrewAnswer } from './index';

/** A read (status, inputs) is safe to send again; a few tries ride out a flaky network. */
export const READ_ATTEMPTS = 3;
export const READ_RETRY_WAIT_MS = 1_000;
/** A Retry-After longer than this is not waited for: the read fails and says why. */
export const MAX_READ_RETRY_WAIT_MS = 10_000;

/**
 * Sends a read up to READ_ATTEMPTS times while it fails for a passing reason
 * (network, 5xx, 429), waiting 1 s, then 2 s, or the service's Retry-After.
 * Never use it for a kickoff: a second POST starts a second crew.
 */
export async function retryPassingFailures(
	send: () => Promise<CrewAnswer>,
	sleep: Sleep,
	isCancelled: () => boolean,
): Promise<CrewAnswer> {
	let answer = await send();
	for (
		let attempt = 1;
		attempt < READ_ATTEMPTS && isPassingFailure(answer) && !isCancelled();
		attempt++
	) {
		const wait = Math.max(READ_RETRY_WAIT_MS * attempt, retryAfterOf(answer) ?? 0);
		if (wait > MAX_READ_RETRY_WAIT_MS) break;
		await sleep(wait);
		if (isCancelled()) break;
		answer = await send();
	}
	return answer;
}
