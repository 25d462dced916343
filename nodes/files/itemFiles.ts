import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import {
	base64ByteLength,
	missingBinaryError,
	readFileEntries,
	readSendFilesMode,
} from './kickoffFiles';
import type { BinaryFileEntry } from './kickoffFiles';
import type { FilePart } from './multipartBody';

/**
 * The size of the pieces read from the binary data store: each piece passes through a few
 * streams on its way to the socket, so larger pieces cost less time per byte (bench:files);
 * the request holds at most about 16 of them.
 */
const STREAM_CHUNK_BYTES = 256 * 1024;

/** One item's files, ready to send: parts that open their bytes when sent, or URLs. */
export type ItemFiles =
	| { mode: 'multipart' | 'upload'; files: FilePart[] }
	| { mode: 'urls'; urls: Record<string, string> };

/** The binary data an entry names, or its error listing what the item has. */
function findBinary(
	context: IExecuteFunctions,
	itemIndex: number,
	entry: BinaryFileEntry,
): IBinaryData {
	const item = context.getInputData()[itemIndex];
	const binary = item?.binary?.[entry.binaryProperty];
	if (binary) return binary;
	// n8n 2.x can keep binary data in the item's JSON (the workflow's combined binary mode); n8n's
	// own helper knows where.
	try {
		return context.helpers.assertBinaryData(itemIndex, entry.binaryProperty);
	} catch {
		throw missingBinaryError(entry, Object.keys(item?.binary ?? {}));
	}
}

async function countBytes(source: AsyncIterable<Buffer | Uint8Array | string>): Promise<number> {
	let count = 0;
	for await (const chunk of source)
		count += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
	return count;
}

/**
 * A file part that reads the binary data the way its store holds it: with an id
 * (filesystem, n8n 2.x's default, or a database or object store in queue mode) as
 * a stream from n8n's binary data service, its exact size from the metadata there;
 * without one (in-memory mode) from the base64 n8n already holds in memory.
 */
async function filePart(
	context: IExecuteFunctions,
	entry: BinaryFileEntry,
	binary: IBinaryData,
): Promise<FilePart> {
	const fileName = binary.fileName ?? entry.field;
	const mimeType = binary.mimeType || 'application/octet-stream';
	const { id } = binary;
	if (id) {
		const open = async () => await context.helpers.getBinaryStream(id, STREAM_CHUNK_BYTES);
		const metadata = await context.helpers.getBinaryMetadata(id);
		// A store whose metadata lacks the size: count the bytes once, still without holding them.
		const size =
			typeof metadata.fileSize === 'number' && metadata.fileSize >= 0
				? metadata.fileSize
				: await countBytes(await open());
		return { name: entry.field, fileName, mimeType, size, open };
	}
	// Decoded only when sent: a batch waiting for its turn holds no second copy of its files.
	const { data } = binary;
	return {
		name: entry.field,
		fileName,
		mimeType,
		size: base64ByteLength(data),
		open: async () => Buffer.from(data, 'base64'),
	};
}

/**
 * The item's Files parameters, checked and resolved before any request: an empty
 * field name, a field given twice, a URL that is not http(s) or a missing binary
 * property is this item's error, and nothing is sent for it. Undefined without files.
 */
export async function readItemFiles(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<ItemFiles | undefined> {
	// From node version 1.5 a switch says whether to send any (files.description.ts); earlier nodes
	// have none.
	if (context.getNodeParameter('withFiles', itemIndex, true) === false) return undefined;
	const mode = readSendFilesMode(context.getNodeParameter('sendFiles', itemIndex, 'multipart'));
	const given = readFileEntries(
		mode,
		context.getNodeParameter('files', itemIndex, {}),
		context.getNodeParameter('fileUrls', itemIndex, {}),
	);
	if (given.entries.length === 0) return undefined;
	if (given.mode === 'urls')
		return {
			mode: 'urls',
			urls: Object.fromEntries(given.entries.map((entry) => [entry.field, entry.url])),
		};
	const files: FilePart[] = [];
	for (const entry of given.entries)
		files.push(await filePart(context, entry, findBinary(context, itemIndex, entry)));
	return { mode: given.mode, files };
}
