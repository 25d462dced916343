import { randomBytes } from 'node:crypto';

import { StreamedBody } from '../transport/streamedBody';
import type { StreamBody } from '../transport/streamedBody';

/**
 * A multipart/form-data body written as it is read: each file is opened only when
 * the request reaches it, and its bytes pass through in the chunks the binary data
 * store gives, so a file of any size costs a few chunks of memory. The package has
 * no runtime dependencies, so this replaces the `form-data` package n8n itself uses.
 */

/** Where a file's bytes come from: n8n's binary data stream, or bytes already in memory. */
export type FileSource = AsyncIterable<Buffer | Uint8Array | string> | Buffer;

export interface TextPart {
	name: string;
	text: string;
}

export interface FilePart {
	name: string;
	fileName: string;
	mimeType: string;
	/**
	 * The exact byte count: the body's Content-Length is the sum, so every size must be known before
	 * sending.
	 */
	size: number;
	/** Opens the file's bytes; called once, when the body reaches this part. */
	open: () => Promise<FileSource>;
}

export type FormPart = TextPart | FilePart;

const CRLF = '\r\n';

export function isFilePart(part: FormPart): part is FilePart {
	return 'open' in part;
}

export function newBoundary(): string {
	return `----n8nCrewFormBoundary${randomBytes(12).toString('hex')}`;
}

/**
 * A name or file name inside a quoted header parameter, escaped as browsers do (WHATWG's form-data
 * encoding).
 */
export function quoteParameter(value: string): string {
	return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

/**
 * The delimiter and headers that open a part. File names and types pass as n8n holds them, in
 * UTF-8.
 */
export function partHead(boundary: string, part: FormPart): Buffer {
	let head = `--${boundary}${CRLF}Content-Disposition: form-data; name="${quoteParameter(part.name)}"`;
	if (isFilePart(part)) {
		const type = part.mimeType.replace(/[\r\n]/g, '') || 'application/octet-stream';
		head += `; filename="${quoteParameter(part.fileName)}"${CRLF}Content-Type: ${type}`;
	}
	return Buffer.from(`${head}${CRLF}${CRLF}`, 'utf8');
}

export function closingDelimiter(boundary: string): Buffer {
	return Buffer.from(`--${boundary}--${CRLF}`, 'utf8');
}

/** The body's exact length in bytes. */
export function multipartLength(boundary: string, parts: readonly FormPart[]): number {
	let length = closingDelimiter(boundary).length;
	for (const part of parts) {
		const content = isFilePart(part) ? part.size : Buffer.byteLength(part.text, 'utf8');
		length += partHead(boundary, part).length + content + CRLF.length;
	}
	return length;
}

/**
 * Thrown into the request when a file's bytes differ from its stated size: a short body would hang
 * or corrupt the upload.
 */
export class FileSizeMismatchError extends Error {
	constructor(
		readonly fileName: string,
		readonly expected: number,
		readonly actual: number,
	) {
		super(
			`The file ${fileName} had ${actual} bytes where n8n's binary data store said ${expected}`,
		);
		this.name = 'FileSizeMismatchError';
	}
}

async function* partBytes(boundary: string, parts: readonly FormPart[]): AsyncGenerator<Buffer> {
	for (const part of parts) {
		yield partHead(boundary, part);
		if (!isFilePart(part)) {
			yield Buffer.from(part.text, 'utf8');
		} else {
			const source = await part.open();
			let sent = 0;
			if (Buffer.isBuffer(source)) {
				sent = source.length;
				yield source;
			} else {
				for await (const chunk of source) {
					const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
					sent += bytes.length;
					yield bytes;
				}
			}
			if (sent !== part.size) throw new FileSizeMismatchError(part.fileName, part.size, sent);
		}
		yield Buffer.from(CRLF, 'utf8');
	}
	yield closingDelimiter(boundary);
}

/**
 * The body for these parts, in order. Its chunks are produced only as the request
 * pulls them, so reading a file goes as fast as the socket drains.
 */
export function buildMultipartBody(
	parts: readonly FormPart[],
	boundary: string = newBoundary(),
): StreamBody {
	const contentLength = multipartLength(boundary, parts);
	const contentType = `multipart/form-data; boundary=${boundary}`;
	return {
		stream: new StreamedBody(contentLength, contentType, () => partBytes(boundary, parts)),
		contentType,
		contentLength,
	};
}
