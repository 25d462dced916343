import { createHash, randomBytes } from 'node:crypto';
import { MultipartParser, boundaryOf, isMultipart } from '../multipart';

// The reference service's own multipart parser (multipart.js), fed directly: parts must come out the
// same however the body is cut into chunks, and the parser must never hold more than a delimiter.

interface Part {
	name: string | null;
	filename: string | null;
	contentType: string | null;
	body: Buffer;
}

const BOUNDARY = '----n8nFormBoundary7MA4YWxkTrZu0gW';

function part(
	name: string,
	body: string | Buffer,
	file?: { filename: string; type?: string },
): Buffer {
	let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"`;
	if (file) head += `; filename="${file.filename}"`;
	head += '\r\n';
	if (file?.type) head += `Content-Type: ${file.type}\r\n`;
	return Buffer.concat([Buffer.from(`${head}\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
}

function body(...parts: Buffer[]): Buffer {
	return Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

/** Feeds `chunks` through a parser; returns the parts and the parser. */
function parse(
	chunks: Buffer[],
	boundary = BOUNDARY,
): { parts: Part[]; parser: InstanceType<typeof MultipartParser> } {
	const parts: Part[] = [];
	let data: Buffer[] = [];
	let current: Omit<Part, 'body'> | null = null;
	const parser = new MultipartParser(boundary, {
		onPartStart: (p) => {
			current = { name: p.name, filename: p.filename, contentType: p.contentType };
			data = [];
		},
		onPartData: (d) => data.push(Buffer.from(d)),
		onPartEnd: () => parts.push({ ...(current as Omit<Part, 'body'>), body: Buffer.concat(data) }),
	});
	for (const chunk of chunks) parser.push(chunk);
	parser.end();
	return { parts, parser };
}

function cut(buffer: Buffer, size: number): Buffer[] {
	const out: Buffer[] = [];
	for (let i = 0; i < buffer.length; i += size) out.push(buffer.subarray(i, i + size));
	return out;
}

// File content that looks like the multipart framing (RFC 2046 only forbids CRLF--boundary in it):
// CRLFs, a delimiter missing one character, a closing delimiter without its leading CRLF, the
// boundary without its dashes, and a CR right before the real delimiter.
const TRICKY = Buffer.from(
	`line one\r\nline two\r\n\r\n--${BOUNDARY.slice(0, -1)}\r\n\r\nx--${BOUNDARY}--\r\n${BOUNDARY}\r\n-${BOUNDARY}\r\r\n--\r`,
);

describe('reference service: multipart parser', () => {
	const sample = body(
		part('inputs', '{"topic": "AI"}'),
		part('document', TRICKY, { filename: 'report.pdf', type: 'application/pdf' }),
		part('meta', '{"reference": {"durationMs": 0}}'),
		part('empty', Buffer.alloc(0), { filename: 'empty.txt' }),
	);

	it('gives each part its name, filename, type and exact bytes, CRLFs and boundary-like text included', () => {
		const { parts } = parse([sample]);
		expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
			['inputs', null, null],
			['document', 'report.pdf', 'application/pdf'],
			['meta', null, null],
			['empty', 'empty.txt', null],
		]);
		expect(parts[1].body.equals(TRICKY)).toBe(true);
		expect(parts[0].body.toString()).toBe('{"topic": "AI"}');
		expect(parts[3].body.length).toBe(0);
	});

	it('gives the same parts for every way of cutting the body in two, and one byte at a time', () => {
		const whole = parse([sample]).parts;
		for (let at = 0; at <= sample.length; at += 1) {
			expect(parse([sample.subarray(0, at), sample.subarray(at)]).parts).toEqual(whole);
		}
		expect(parse(cut(sample, 1)).parts).toEqual(whole);
		for (const size of [7, 39, 40, 41, 64, 1000])
			expect(parse(cut(sample, size)).parts).toEqual(whole);
	});

	it('takes many parts, and drops the preamble and the epilogue', () => {
		const many = Array.from({ length: 500 }, (_, i) =>
			part(
				`field${i}`,
				`value ${i}\r\n`,
				i % 2 ? { filename: `f${i}.txt`, type: 'text/plain' } : undefined,
			),
		);
		const framed = Buffer.concat([
			Buffer.from('This is the preamble.\r\n'),
			body(...many),
			Buffer.from('epilogue, ignored\r\n'),
		]);
		const { parts, parser } = parse(cut(framed, 1000));
		expect(parts).toHaveLength(500);
		expect(parser.parts).toBe(500);
		expect(parts[499]).toEqual({
			name: 'field499',
			filename: 'f499.txt',
			contentType: 'text/plain',
			body: Buffer.from('value 499\r\n'),
		});
		expect(parts[0].filename).toBeNull();
	});

	it('holds at most one delimiter back, however large the file (the bytes are handed on, not kept)', () => {
		const chunk = randomBytes(64 * 1024);
		const chunks = 160; // 10 MB of file content
		const hash = createHash('sha256');
		let seen = 0;
		let held = 0;
		const parser = new MultipartParser(BOUNDARY, {
			onPartStart: () => undefined,
			onPartData: (d) => {
				seen += d.length;
				hash.update(d);
			},
			onPartEnd: () => undefined,
		});
		const expected = createHash('sha256');
		parser.push(part('doc', '', { filename: 'big.bin' }).subarray(0, -2));
		for (let i = 0; i < chunks; i += 1) {
			parser.push(chunk);
			expected.update(chunk);
			held = Math.max(held, parser.heldPeak);
		}
		parser.push(Buffer.from(`\r\n--${BOUNDARY}--`));
		parser.end();
		expect(seen).toBe(chunks * chunk.length);
		expect(hash.digest('hex')).toBe(expected.digest('hex'));
		// The delimiter is CRLF--boundary; what was held back is shorter than it.
		expect(held).toBeLessThan(BOUNDARY.length + 4);
	});

	it('reads quoted and RFC 5987 filenames, and a part without headers', () => {
		const raw = Buffer.from(
			`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"; filename="say \\"hi\\".txt"\r\n\r\nx\r\n` +
				`--${BOUNDARY}\r\ncontent-disposition: form-data; name=b; filename="fallback.txt"; filename*=UTF-8''na%C3%AFve%20report.pdf\r\n\r\ny\r\n` +
				`--${BOUNDARY}\r\n\r\nnameless\r\n--${BOUNDARY}--`,
		);
		const { parts } = parse(cut(raw, 5));
		expect(parts.map((p) => [p.name, p.filename, p.body.toString()])).toEqual([
			['a', 'say "hi".txt', 'x'],
			['b', 'naïve report.pdf', 'y'],
			[null, null, 'nameless'],
		]);
	});

	it('throws for a body that ends before its closing boundary, or has none', () => {
		expect(() => parse([sample.subarray(0, sample.length - 10)])).toThrow(
			'the body ended before its closing boundary',
		);
		expect(() => parse([Buffer.from('{"inputs": {}}')])).toThrow(
			'the body has no multipart boundary',
		);
		expect(() => parse([Buffer.from(`--${BOUNDARY}garbage\r\n\r\n`)])).toThrow(
			'neither a line break nor "--"',
		);
	});

	it('finds the boundary of a multipart/form-data Content-Type only', () => {
		expect(boundaryOf(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
		expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b;c"')).toBe('a b;c');
		expect(boundaryOf('multipart/form-data')).toBeNull();
		expect(boundaryOf('multipart/mixed; boundary=x')).toBeNull();
		expect(boundaryOf(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeNull();
		expect(boundaryOf(undefined)).toBeNull();
		expect(isMultipart('multipart/form-data; boundary=x')).toBe(true);
		expect(isMultipart('application/json')).toBe(false);
	});
});
