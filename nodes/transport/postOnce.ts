import type { IDataObject } from 'n8n-workflow';

import type { Sleep } from '../execution/cancellableSleep';
import { sendCrewRequest } from './index';
import type { CrewAnswer, CrewConnection, CrewContext } from './index';
import type { StreamBody } from './streamedBody';

/**
 * A JSON body, or a streamed one made afresh for each attempt (a read stream cannot be sent twice).
 */
export type PostBody = IDataObject | (() => StreamBody);

/** A 429 says the request was not processed, so it alone may be sent again, this often at most. */
const RATE_LIMITED_ATTEMPTS = 4;
const RATE_LIMITED_WAIT_MS = 2_000;
const MAX_RATE_LIMITED_WAIT_MS = 60_000;

/**
 * Sends a POST that must not take effect twice (a kickoff starts a crew, a
 * resume moves one on). It is sent again only after a 429; after a network
 * error or a 5xx it may have taken effect, so the caller reports, not retries.
 * A streamed body (a multipart kickoff) follows the same rules: after a 429 it is
 * built again, its files read again from the start.
 */
export async function postAtMostOnce(
	context: CrewContext,
	connection: CrewConnection,
	path: string,
	/** None for a POST that takes no body (a stop). */
	body: PostBody | undefined,
	sleep: Sleep,
	timeoutMs?: number,
	/** Secrets a streamed body carries, which the transport cannot read in it (see CrewRequest). */
	carries?: readonly string[],
): Promise<CrewAnswer> {
	const send = async () =>
		await sendCrewRequest(
			context,
			connection,
			typeof body === 'function'
				? { method: 'POST', path, stream: body(), timeoutMs, carries }
				: { method: 'POST', path, body, timeoutMs, carries },
		);
	let answer = await send();
	for (
		let attempt = 1;
		attempt < RATE_LIMITED_ATTEMPTS && answer.kind === 'http' && answer.statusCode === 429;
		attempt++
	) {
		await sleep(
			Math.min(answer.retryAfterMs ?? RATE_LIMITED_WAIT_MS * attempt, MAX_RATE_LIMITED_WAIT_MS),
		);
		answer = await send();
	}
	return answer;
}
