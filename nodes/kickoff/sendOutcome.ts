import type { IDataObject } from 'n8n-workflow';

import { isSuccessCode } from '../transport/answers';
import type { CrewAnswer } from '../transport/answers';
import { readServiceMessage } from '../transport/serviceMessage';

/**
 * What a kickoff (or a resume, which starts a run too) came to, as the caller needs it
 * to decide whether it may ever be sent again: a run to follow, or an error together
 * with whether the request may have started a run all the same.
 */

/** Whether a request that got no run to follow may have started one anyway. */
export type UnansweredSend =
	/** It never reached the service, or the service refused it: no run, so it may be sent again. */
	| { sent: 'no' }
	/**
	 * It went out and the answer does not say whether a run started: what the service answered, for
	 * the item's error.
	 */
	| { sent: 'maybe'; answered: string };

export type SendOutcome =
	| { kind: 'started'; kickoffId: string; answer: IDataObject }
	| ({ kind: 'failed'; error: Error } & UnansweredSend);

/**
 * Network failures that happen before a request is sent: nothing reached the
 * service (connection refused, a name that does not resolve). The same codes the
 * node's errors call "could not connect" (crewErrors.ts).
 */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a request without a run to follow may have started one. A 4xx is the service
 * refusing the request (a 429 included: not processed), so nothing ran. A 5xx (a 504
 * from a proxy after the service took the request), a 2xx without kickoff_id, a read
 * timeout or a connection dropped after the request went out may each have started
 * one. A multipart kickoff's EPIPE is its body cut off while being written
 * (fileKickoff.ts): the service never had the whole request.
 */
export function unansweredSend(answer: CrewAnswer, multipart = false): UnansweredSend {
	if (answer.kind === 'network') {
		if (NOT_SENT_CODES.has(answer.code) || (multipart && answer.code === 'EPIPE'))
			return { sent: 'no' };
		return { sent: 'maybe', answered: `no answer (${answer.code}: ${answer.message})` };
	}
	if (answer.statusCode >= 400 && answer.statusCode < 500) return { sent: 'no' };
	const said = readServiceMessage(answer.body);
	if (isSuccessCode(answer.statusCode))
		return { sent: 'maybe', answered: `${answer.statusCode} without a kickoff_id` };
	return {
		sent: 'maybe',
		answered: said ? `${answer.statusCode}: ${said}` : String(answer.statusCode),
	};
}

/**
 * The outcome of a request that gave no run to follow: its error, and whether it may have started
 * one (unansweredSend).
 */
export function failedSend(error: Error, answer: CrewAnswer, multipart = false): SendOutcome {
	return { kind: 'failed', error, ...unansweredSend(answer, multipart) };
}
