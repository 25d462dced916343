import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { describeSize } from './kickoffFiles';
import { isPlainObject } from '../records/plainObject';
import type { CrewAnswer, HttpAnswer } from '../transport/answers';
import { adviceFor } from '../transport/errorAdvice';
import { scrubSecret } from '../transport/hiddenSecrets';
import { readMissingInputs, readServiceMessage } from '../transport/serviceMessage';

/**
 * The answers only a request with files gets: a deployment on a crewAI release
 * without native file inputs refusing them, and a proxy refusing a body too large.
 */

/** How the files went: which request the deployment answered. */
export type FileRequest = 'multipart' | 'upload';

/** A file as the errors name it. */
export interface SentFile {
	field: string;
	fileName: string;
	size?: number;
}

export const FILES_REFUSED_ADVICE =
	'This deployment does not take files: it needs a crewAI release with native file inputs (crewAI 1.x, input_files). Redeploy the crew on a current crewAI 1.x release; until then, host the file elsewhere, pass its link as an ordinary input and give the crew a tool that downloads it (File URLs need native file inputs too). Nothing was started.';

/**
 * FastAPI's 422 for a route that takes a JSON object and got form data: one detail
 * about the whole body (`loc: ["body"]`), not about a field of it.
 */
function isWholeBodyRefusal(body: unknown): boolean {
	if (!isPlainObject(body) || !Array.isArray(body.detail)) return false;
	return body.detail.some(
		(entry) =>
			isPlainObject(entry) &&
			Array.isArray(entry.loc) &&
			entry.loc.length === 1 &&
			entry.loc[0] === 'body',
	);
}

/**
 * Whether the answer says the deployment takes no files: to a multipart kickoff a
 * 400 or 415, or a 422 about the body as a whole (a 422 naming missing inputs is
 * about the inputs, as for a JSON kickoff); to `POST /files` a 404 or 405 (no such route).
 */
export function isFilesRefusal(answer: HttpAnswer, request: FileRequest): boolean {
	if (request === 'upload') return answer.statusCode === 404 || answer.statusCode === 405;
	if (answer.statusCode === 400 || answer.statusCode === 415) return true;
	return (
		answer.statusCode === 422 &&
		readMissingInputs(answer.body).length === 0 &&
		isWholeBodyRefusal(answer.body)
	);
}

/**
 * A NodeApiError that says exactly this: n8n's error classes swap some messages for their own
 * generic sentence, so message and description are set again.
 */
function apiErrorSaying(
	node: INode,
	message: string,
	description: string,
	itemIndex: number,
	httpCode?: number,
): NodeApiError {
	const options = {
		message,
		description,
		itemIndex,
		...(httpCode === undefined ? {} : { httpCode: String(httpCode) }),
	};
	const error = new NodeApiError(node, { message } as JsonObject, options);
	error.message = message;
	error.description = description;
	return error;
}

function fileApiError(
	node: INode,
	summary: string,
	advice: string,
	answer: HttpAnswer,
	itemIndex: number,
	secret: string,
): NodeApiError {
	return apiErrorSaying(
		node,
		scrubSecret(summary, secret),
		scrubSecret(advice, secret),
		itemIndex,
		answer.statusCode,
	);
}

function withServiceWords(summary: string, answer: HttpAnswer): string {
	const words = readServiceMessage(answer.body);
	return words ? `${summary}: ${words}` : summary;
}

export function filesRefusedError(
	node: INode,
	answer: HttpAnswer,
	request: FileRequest,
	itemIndex: number,
	secret: string,
): NodeApiError {
	const what =
		request === 'upload'
			? 'the file upload (POST /files)'
			: 'the kickoff with files (multipart/form-data)';
	return fileApiError(
		node,
		withServiceWords(
			`This deployment does not take files: it answered ${answer.statusCode} to ${what}`,
			answer,
		),
		FILES_REFUSED_ADVICE,
		answer,
		itemIndex,
		secret,
	);
}

export function fileNames(files: readonly SentFile[]): string {
	return files
		.map((file) => `${file.fileName} (for ${file.field}, ${describeSize(file.size)})`)
		.join(', ');
}

/** A 413: the files that made the body too large, with their sizes. Nothing was started. */
export function filesTooLargeError(
	node: INode,
	answer: HttpAnswer,
	files: readonly SentFile[],
	itemIndex: number,
	secret: string,
): NodeApiError {
	const which =
		files.length === 1 ? `The file ${fileNames(files)} is` : `The files ${fileNames(files)} are`;
	return fileApiError(
		node,
		withServiceWords(`${which} too large for the crew service (it answered 413)`, answer),
		'The service, or a proxy in front of it, refuses a request this large; nothing was started. Send a smaller file (compress it, or split it), or host it elsewhere and send its URL (Send Files: How to Send, File URLs).',
		answer,
		itemIndex,
		secret,
	);
}

/**
 * An upload that failed otherwise (after its repeats): which file, what the service said; no crew
 * was started.
 */
export function uploadFailedError(
	node: INode,
	answer: CrewAnswer,
	file: SentFile,
	itemIndex: number,
	secret: string,
	attempts: number,
): NodeApiError {
	const named = fileNames([file]);
	if (answer.kind === 'network') {
		const message = scrubSecret(
			`Could not upload the file ${named} to the crew service (${answer.code}: ${answer.message})`,
			secret,
		);
		const description = `The upload (POST /files) was tried ${attempts} times; no crew was started for this item. Check that the service is reachable from n8n and run again.`;
		return apiErrorSaying(node, message, description, itemIndex);
	}
	const advice =
		answer.statusCode === 401 || answer.statusCode === 403
			? adviceFor('kickoff', answer.statusCode, [], readServiceMessage(answer.body) ?? '')
			: `No crew was started for this item. ${answer.statusCode >= 500 || answer.statusCode === 429 ? `The upload was tried ${attempts} times; run again later.` : "Check the file and the File Field Name against the crew's file inputs."}`;
	return fileApiError(
		node,
		withServiceWords(
			`The crew service answered ${answer.statusCode} to the upload of the file ${named}`,
			answer,
		),
		advice,
		answer,
		itemIndex,
		secret,
	);
}

/** An upload answered 2xx without the URL the kickoff must name. */
export function uploadWithoutUrlError(
	node: INode,
	answer: HttpAnswer,
	file: SentFile,
	itemIndex: number,
	secret: string,
): NodeApiError {
	return fileApiError(
		node,
		`The crew service answered ${answer.statusCode} to the upload of the file ${fileNames([file])} but gave no URL for it`,
		'The Base URL may point at something other than a crew service (a web page, a proxy). Check it in the Crew API credential. No crew was started for this item.',
		answer,
		itemIndex,
		secret,
	);
}

/**
 * A body whose sending the service cut off (EPIPE: it closed the connection while the files were
 * still being written). A service cannot start a run from a body it did not read to its end, so
 * nothing was started; a proxy refusing a large body often answers 413 and closes at once, and the
 * close can reach n8n before the answer does.
 */
export function filesCutOffError(
	node: INode,
	code: string,
	files: readonly SentFile[],
	itemIndex: number,
	baseUrl: string,
): NodeApiError {
	const which =
		files.length === 1 ? `the file ${fileNames(files)}` : `the files ${fileNames(files)}`;
	const message = `The crew service at ${baseUrl} closed the connection while ${which} was being sent (${code})`;
	const description =
		'The service did not read the whole request, so no crew was started. A proxy in front of the service often does this for a body over its size limit (its 413 can arrive after the connection closed). Send a smaller file, or host it elsewhere and send its URL (Send Files: How to Send, File URLs); if the files are small, run again later.';
	return apiErrorSaying(node, message, description, itemIndex);
}
