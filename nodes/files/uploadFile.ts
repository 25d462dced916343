import type { Sleep } from '../execution/cancellableSleep';
import { sendCrewRequest } from '../transport/index';
import type { CrewAnswer, CrewConnection, CrewContext } from '../transport/index';
import { buildMultipartBody } from './multipartBody';
import type { FilePart } from './multipartBody';

/** Attempts of one upload: it starts no run, so a lost or failed one may be sent again. */
export const UPLOAD_ATTEMPTS = 3;
const UPLOAD_RETRY_WAIT_MS = 1_000;
const MAX_UPLOAD_RETRY_WAIT_MS = 30_000;

/**
 * Whether an upload's answer may be followed by another attempt: a network failure,
 * a 429 or a 5xx. `POST /files` only stores a file, so a repeat costs at most an
 * unused upload; a 4xx would be answered the same again.
 */
export function mayRepeatUpload(answer: CrewAnswer): boolean {
	if (answer.kind === 'network') return true;
	return answer.statusCode === 429 || (answer.statusCode >= 500 && answer.statusCode <= 599);
}

/**
 * `POST /files` for one file (multipart: `file` and `field_name`), its bytes streamed
 * from n8n's binary data store, read again from the start for each attempt.
 */
export async function uploadFile(
	context: CrewContext,
	connection: CrewConnection,
	file: FilePart,
	sleep: Sleep,
	timeoutMs?: number,
): Promise<CrewAnswer> {
	const body = () =>
		buildMultipartBody([
			{ ...file, name: 'file' },
			{ name: 'field_name', text: file.name },
		]);
	let answer = await sendCrewRequest(context, connection, {
		method: 'POST',
		path: '/files',
		stream: body(),
		timeoutMs,
	});
	for (let attempt = 1; attempt < UPLOAD_ATTEMPTS && mayRepeatUpload(answer); attempt++) {
		const retryAfter = answer.kind === 'http' ? answer.retryAfterMs : undefined;
		await sleep(Math.min(retryAfter ?? UPLOAD_RETRY_WAIT_MS * attempt, MAX_UPLOAD_RETRY_WAIT_MS));
		answer = await sendCrewRequest(context, connection, {
			method: 'POST',
			path: '/files',
			stream: body(),
			timeoutMs,
		});
	}
	return answer;
}
