import { createHash } from 'crypto';

import {
	buildMultipartBody,
	FileSizeMismatchError,
	multipartLength,
	partHead,
	quoteParameter,
} from '../../../nodes/files/multipartBody';
import { StreamedBody } from '../../../nodes/transport/streamedBody';
import type { FilePart, FormPart } from '../../../nodes/files/multipartBody';

async function bytesOf(body: StreamedBody): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of body.stream()) chunks.push(chunk);
	return Buffer.concat(chunks);
}

/** Node's own multipart parser (undici's, behind Response.formData), independent of the builder. */
async function parse(bytes: Buffer, contentType: string): Promise<FormData> {
	return await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
}

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
	for (let offset = 0; offset < bytes.length; offset += size)
		yield bytes.subarray(offset, offset + size);
}

function pdfBytes(length: number): Buffer {
	const bytes = Buffer.alloc(length);
	bytes.write('%PDF-1.7\n');
	for (let index = 9; index < length; index++) bytes[index] = (index * 31 + 7) % 256;
	return bytes;
}

const sha256 = (bytes: Buffer | ArrayBuffer) =>
	createHash('sha256')
		.update(Buffer.from(bytes as ArrayBuffer))
		.digest('hex');

describe('buildMultipartBody', () => {
	it('gives text parts and streamed file parts that a standard parser reads back byte for byte, with name and type', async () => {
		const pdf = pdfBytes(300_000);
		const parts: FormPart[] = [
			{ name: 'inputs', text: JSON.stringify({ topic: 'Q3 report', note: 'ünïcode ✓' }) },
			{
				name: 'document',
				fileName: 'Q3 report (final).pdf',
				mimeType: 'application/pdf',
				size: pdf.length,
				open: async () => chunked(pdf, 65_536),
			},
		];
		const body = buildMultipartBody(parts);
		const bytes = await bytesOf(body.stream);
		expect(bytes.length).toBe(body.contentLength);
		expect(body.stream.size).toBe(body.contentLength);
		expect(body.stream.type).toBe(body.contentType);
		const form = await parse(bytes, body.contentType);
		expect(JSON.parse(form.get('inputs') as string)).toEqual({
			topic: 'Q3 report',
			note: 'ünïcode ✓',
		});
		const file = form.get('document') as File;
		expect(file.name).toBe('Q3 report (final).pdf');
		expect(file.type).toBe('application/pdf');
		expect(sha256(await file.arrayBuffer())).toBe(sha256(pdf));
	});

	it('takes in-memory bytes as well as a stream, and several files in order', async () => {
		const first = Buffer.from('first file');
		const second = pdfBytes(70_000);
		const body = buildMultipartBody([
			{
				name: 'a',
				fileName: 'a.txt',
				mimeType: 'text/plain',
				size: first.length,
				open: async () => first,
			},
			{
				name: 'b',
				fileName: 'b.pdf',
				mimeType: 'application/pdf',
				size: second.length,
				open: async () => chunked(second, 1000),
			},
		]);
		const form = await parse(await bytesOf(body.stream), body.contentType);
		expect(Buffer.from(await (form.get('a') as File).arrayBuffer()).toString()).toBe('first file');
		expect(sha256(await (form.get('b') as File).arrayBuffer())).toBe(sha256(second));
	});

	it('opens a file only when the body reaches it, and each file once', async () => {
		const opened: string[] = [];
		const part = (name: string): FilePart => ({
			name,
			fileName: `${name}.bin`,
			mimeType: 'application/octet-stream',
			size: 3,
			open: async () => {
				opened.push(name);
				return Buffer.from('abc');
			},
		});
		const body = buildMultipartBody([part('one'), part('two')]);
		expect(opened).toEqual([]);
		const chunks = body.stream.stream();
		await chunks.next(); // the first part's head
		expect(opened).toEqual([]);
		await chunks.next(); // its bytes
		expect(opened).toEqual(['one']);
		for await (const _ of chunks) void _;
		expect(opened).toEqual(['one', 'two']);
	});

	it('fails the body when a file has other bytes than its stated size, rather than send a malformed one', async () => {
		const body = buildMultipartBody([
			{
				name: 'doc',
				fileName: 'doc.pdf',
				mimeType: 'application/pdf',
				size: 10,
				open: async () => Buffer.from('short'),
			},
		]);
		await expect(bytesOf(body.stream)).rejects.toThrow(FileSizeMismatchError);
	});

	it('is a Blob to anything that asks (axios streams a Blob by its stream())', () => {
		const body = buildMultipartBody([{ name: 'inputs', text: '{}' }]);
		expect(Object.prototype.toString.call(body.stream)).toBe('[object Blob]');
		expect(body.stream).toBeInstanceOf(StreamedBody);
	});

	it('uses a fresh boundary each time', () => {
		const parts = [{ name: 'inputs', text: '{}' }];
		expect(buildMultipartBody(parts).contentType).not.toBe(buildMultipartBody(parts).contentType);
	});
});

describe('multipartLength', () => {
	it('counts UTF-8 bytes of the heads and texts exactly', async () => {
		const parts: FormPart[] = [
			{ name: 'inputs', text: '{"t":"été"}' },
			{
				name: 'file',
				fileName: 'résumé.pdf',
				mimeType: 'application/pdf',
				size: 4,
				open: async () => Buffer.from('%PDF'),
			},
		];
		const body = buildMultipartBody(parts, 'XYZ');
		expect(multipartLength('XYZ', parts)).toBe((await bytesOf(body.stream)).length);
	});
});

describe('partHead', () => {
	it('escapes quotes and line breaks in names as browsers do, so a file name cannot add a header', () => {
		expect(quoteParameter('a"b\r\nc')).toBe('a%22b%0D%0Ac');
		const head = partHead('B', {
			name: 'doc',
			fileName: 'x"\r\nContent-Type: text/html.pdf',
			mimeType: 'application/pdf',
			size: 0,
			open: async () => Buffer.alloc(0),
		}).toString();
		expect(head.split('\r\n')).toEqual([
			'--B',
			'Content-Disposition: form-data; name="doc"; filename="x%22%0D%0AContent-Type: text/html.pdf"',
			'Content-Type: application/pdf',
			'',
			'',
		]);
	});

	it('gives a file without a type application/octet-stream', () => {
		expect(
			partHead('B', {
				name: 'f',
				fileName: 'f',
				mimeType: '',
				size: 0,
				open: async () => Buffer.alloc(0),
			}).toString(),
		).toContain('Content-Type: application/octet-stream');
	});
});
