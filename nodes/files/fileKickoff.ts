import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Sleep } from '../execution/cancellableSleep';
import { kickoffFormFields } from './kickoffFiles';
import { isPlainObject } from '../records/plainObject';
import { isSuccess } from '../transport';
import type { CrewAnswer, CrewConnection } from '../transport';
import {
	filesCutOffError,
	filesRefusedError,
	filesTooLargeError,
	isFilesRefusal,
	uploadFailedError,
	uploadWithoutUrlError,
} from './fileErrors';
import type { SentFile } from './fileErrors';
import { buildMultipartBody } from './multipartBody';
import type { FilePart } from './multipartBody';
import type { PostBody } from '../transport/postOnce';
import { UPLOAD_ATTEMPTS, uploadFile } from './uploadFile';
import type { ItemFiles } from './itemFiles';

/**
 * What `POST /kickoff` sends for an item with files, by Send Files: the JSON body
 * with `input_files` URLs (File URLs; Upload First, after uploading each file), or
 * a multipart body built afresh for each attempt (With the Kickoff).
 */

export function sentFile(file: FilePart): SentFile {
	return { field: file.name, fileName: file.fileName, size: file.size };
}

function uploadedUrl(answer: CrewAnswer): string | undefined {
	if (answer.kind !== 'http' || !isPlainObject(answer.body)) return undefined;
	const { url } = answer.body;
	return typeof url === 'string' && url.trim() !== '' ? url.trim() : undefined;
}

/**
 * Uploads each file (`POST /files`), one after the other, and gives the crew's fields with their
 * URLs.
 */
async function uploadAll(
	context: IExecuteFunctions,
	connection: CrewConnection,
	itemIndex: number,
	files: readonly FilePart[],
	sleep: Sleep,
	timeoutMs: number,
): Promise<Record<string, string>> {
	const node = context.getNode();
	const urls: Record<string, string> = {};
	for (const file of files) {
		const answer = await uploadFile(context, connection, file, sleep, timeoutMs);
		if (answer.kind === 'http' && isFilesRefusal(answer, 'upload'))
			throw filesRefusedError(node, answer, 'upload', itemIndex, connection.secret);
		if (answer.kind === 'http' && answer.statusCode === 413)
			throw filesTooLargeError(node, answer, [sentFile(file)], itemIndex, connection.secret);
		if (!isSuccess(answer))
			throw uploadFailedError(
				node,
				answer,
				sentFile(file),
				itemIndex,
				connection.secret,
				UPLOAD_ATTEMPTS,
			);
		const url = uploadedUrl(answer);
		if (url === undefined)
			throw uploadWithoutUrlError(node, answer, sentFile(file), itemIndex, connection.secret);
		urls[file.name] = url;
	}
	return urls;
}

export async function kickoffRequestBody(
	context: IExecuteFunctions,
	connection: CrewConnection,
	itemIndex: number,
	body: IDataObject,
	files: ItemFiles | undefined,
	sleep: Sleep,
	timeoutMs: number,
): Promise<PostBody> {
	if (files === undefined) return body;
	if (files.mode === 'urls') return { ...body, input_files: files.urls };
	if (files.mode === 'upload')
		return {
			...body,
			input_files: await uploadAll(context, connection, itemIndex, files.files, sleep, timeoutMs),
		};
	const parts = [...kickoffFormFields(body), ...files.files];
	return () => buildMultipartBody(parts);
}

/**
 * The error for a multipart kickoff's answer that only files explain (refused, too large);
 * undefined for any other.
 */
export function multipartKickoffError(
	context: IExecuteFunctions,
	answer: CrewAnswer,
	files: ItemFiles | undefined,
	itemIndex: number,
	connection: CrewConnection,
) {
	if (files?.mode !== 'multipart') return undefined;
	const { secret } = connection;
	// EPIPE is a failed write: the body was cut off, so unlike a lost answer it cannot have started a
	// run.
	if (answer.kind === 'network' && answer.code === 'EPIPE')
		return filesCutOffError(
			context.getNode(),
			answer.code,
			files.files.map(sentFile),
			itemIndex,
			connection.baseUrl,
		);
	if (answer.kind !== 'http') return undefined;
	if (isFilesRefusal(answer, 'multipart'))
		return filesRefusedError(context.getNode(), answer, 'multipart', itemIndex, secret);
	if (answer.statusCode === 413)
		return filesTooLargeError(
			context.getNode(),
			answer,
			files.files.map(sentFile),
			itemIndex,
			secret,
		);
	return undefined;
}
