// @ts-check
'use strict';

/**
 * A streaming multipart/form-data parser (RFC 7578 over RFC 2046), zero dependencies.
 * It never holds a part's content: bytes are handed on as they arrive, and the parser keeps
 * at most one delimiter's length of a chunk back (a delimiter may be split across chunks)
 * plus one part's header block (bounded by MAX_HEADER_BYTES). `heldPeak` says how much it
 * ever held, so a test can check that the window stays bounded whatever the body's size.
 */

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
// Browsers, curl and undici send a few hundred bytes of headers a part; 16 KB is generous.
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * @typedef {{ name: string | null, filename: string | null, contentType: string | null, headers: Record<string, string> }} PartHeaders
 * @typedef {{
 *   onPartStart: (part: PartHeaders) => void,
 *   onPartData: (data: Buffer) => void,
 *   onPartEnd: () => void,
 * }} PartHandlers
 */

class MultipartError extends Error {}

/**
 * The boundary of a `multipart/form-data` Content-Type, or null when the type is another or has none.
 * @param {string | undefined} contentType
 * @returns {string | null}
 */
function boundaryOf(contentType) {
	if (typeof contentType !== 'string') return null;
	const [mediaType, ...params] = splitParams(contentType);
	if (mediaType.toLowerCase() !== 'multipart/form-data') return null;
	for (const param of params) {
		const eq = param.indexOf('=');
		if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
		const value = unquote(param.slice(eq + 1).trim());
		// RFC 2046: 1 to 70 characters.
		return value.length >= 1 && value.length <= 70 ? value : null;
	}
	return null;
}

/** @param {string | undefined} contentType */
function isMultipart(contentType) {
	return (
		typeof contentType === 'string' &&
		splitParams(contentType)[0].toLowerCase() === 'multipart/form-data'
	);
}

/**
 * Splits a header value at the semicolons that are not inside a quoted string.
 * @param {string} value
 * @returns {string[]}
 */
function splitParams(value) {
	/** @type {string[]} */
	const out = [];
	let current = '';
	let quoted = false;
	for (let i = 0; i < value.length; i += 1) {
		const c = value[i];
		if (quoted && c === '\\' && i + 1 < value.length) {
			current += c + value[i + 1];
			i += 1;
			continue;
		}
		if (c === '"') quoted = !quoted;
		if (c === ';' && !quoted) {
			out.push(current.trim());
			current = '';
			continue;
		}
		current += c;
	}
	out.push(current.trim());
	return out;
}

/** @param {string} value */
function unquote(value) {
	if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
		return value.slice(1, -1).replace(/\\(.)/g, '$1');
	return value;
}

/**
 * A part's headers, with the Content-Disposition's name and filename (filename* in RFC 5987
 * form wins, as RFC 6266 says; browsers percent-encode a quote in a filename as %22).
 * @param {string} block the header lines, without the blank line after them
 * @returns {PartHeaders}
 */
function parsePartHeaders(block) {
	/** @type {Record<string, string>} */
	const headers = {};
	for (const line of block.split('\r\n')) {
		if (line === '') continue;
		const colon = line.indexOf(':');
		if (colon <= 0)
			throw new MultipartError(`malformed part header line: ${JSON.stringify(line.slice(0, 80))}`);
		headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	let name = null;
	let filename = null;
	const disposition = headers['content-disposition'];
	if (disposition !== undefined) {
		const [kind, ...params] = splitParams(disposition);
		if (kind.toLowerCase() !== 'form-data')
			throw new MultipartError(`part disposition is "${kind}", not form-data`);
		/** @type {string | null} */
		let extended = null;
		for (const param of params) {
			const eq = param.indexOf('=');
			if (eq < 0) continue;
			const key = param.slice(0, eq).trim().toLowerCase();
			const value = param.slice(eq + 1).trim();
			if (key === 'name') name = unquote(value);
			else if (key === 'filename') filename = unquote(value);
			else if (key === 'filename*') extended = decodeExtended(value);
		}
		if (extended !== null) filename = extended;
	}
	const contentType = headers['content-type'] ?? null;
	return { name, filename, contentType, headers };
}

/**
 * RFC 5987: `UTF-8''na%C3%AFve.pdf`. Null when it is not that form.
 * @param {string} value
 */
function decodeExtended(value) {
	const match = /^([^']*)'[^']*'(.*)$/.exec(value);
	if (!match || match[1].toLowerCase() !== 'utf-8') return null;
	try {
		return decodeURIComponent(match[2]);
	} catch {
		return null;
	}
}

/**
 * Push chunks in, call end() once the body ended; handlers hear of each part as it streams by.
 * The first delimiter is found by pretending the body began with CRLF, so every delimiter is
 * the same byte string `CRLF--boundary`; the preamble before it and the epilogue after the
 * closing delimiter are dropped, as RFC 2046 says.
 */
class MultipartParser {
	/**
	 * @param {string} boundary
	 * @param {PartHandlers} handlers
	 */
	constructor(boundary, handlers) {
		this.delimiter = Buffer.from(`\r\n--${boundary}`);
		this.handlers = handlers;
		/** @type {'preamble' | 'afterDelimiter' | 'headers' | 'content' | 'epilogue'} */
		this.state = 'preamble';
		/** Bytes kept back from the previous chunk: never more than a delimiter or a header block. */
		this.held = CRLF;
		this.heldPeak = 0;
		this.parts = 0;
	}

	/** @param {Buffer} chunk */
	push(chunk) {
		if (this.state === 'epilogue') return;
		let data = chunk;
		let pos = 0;
		// A chunk shorter than a delimiter cannot settle what was held: join them (a few bytes).
		if (this.state === 'content' && this.held.length && chunk.length >= this.delimiter.length) {
			pos = this.settleHeld(chunk);
		} else if (this.held.length) {
			data = Buffer.concat([this.held, chunk]);
		}
		this.held = EMPTY;
		while (pos < data.length && !this.ended()) {
			if (this.state === 'preamble' || this.state === 'content') {
				const at = data.indexOf(this.delimiter, pos);
				if (at < 0) {
					// Everything but a possible delimiter start at the end is surely content.
					const keep = Math.min(data.length - pos, this.delimiter.length - 1);
					const safeEnd = data.length - keep;
					if (this.state === 'content' && safeEnd > pos)
						this.handlers.onPartData(data.subarray(pos, safeEnd));
					this.hold(data.subarray(safeEnd));
					return;
				}
				if (this.state === 'content') {
					if (at > pos) this.handlers.onPartData(data.subarray(pos, at));
					this.handlers.onPartEnd();
				}
				pos = at + this.delimiter.length;
				this.state = 'afterDelimiter';
				continue;
			}
			if (this.state === 'afterDelimiter') {
				// RFC 2046 allows linear whitespace ("transport padding") before the line break.
				let i = pos;
				while (i < data.length && (data[i] === 0x20 || data[i] === 0x09)) i += 1;
				if (data.length - i < 2) {
					if (i - pos > 256) throw new MultipartError('too much padding after a boundary');
					this.hold(data.subarray(pos));
					return;
				}
				if (data[i] === 0x2d && data[i + 1] === 0x2d) {
					this.state = 'epilogue';
					return;
				}
				if (data[i] !== 0x0d || data[i + 1] !== 0x0a)
					throw new MultipartError('a boundary is followed by neither a line break nor "--"');
				pos = i + 2;
				this.state = 'headers';
				continue;
			}
			// headers: up to the blank line; a part without headers starts with that blank line's CRLF.
			if (data[pos] === 0x0d && data[pos + 1] === 0x0a && data.length - pos >= 2) {
				this.startPart('');
				pos += 2;
				continue;
			}
			const end = data.indexOf(HEADER_END, pos);
			if (end < 0) {
				if (data.length - pos > MAX_HEADER_BYTES)
					throw new MultipartError(`a part's headers are over ${MAX_HEADER_BYTES} bytes`);
				this.hold(data.subarray(pos));
				return;
			}
			if (end - pos > MAX_HEADER_BYTES)
				throw new MultipartError(`a part's headers are over ${MAX_HEADER_BYTES} bytes`);
			this.startPart(data.subarray(pos, end).toString('utf8'));
			pos = end + HEADER_END.length;
		}
	}

	/**
	 * In a part's content, the bytes held back from the last chunk are resolved against the next
	 * one's start only, so a file's chunks are handed on as they are, never copied: either a
	 * delimiter starts in the held bytes (the content before it goes on, the part ends) or they
	 * are content. Returns where in `chunk` parsing goes on.
	 * @param {Buffer} chunk
	 */
	settleHeld(chunk) {
		const held = this.held;
		const window = Buffer.concat([held, chunk.subarray(0, this.delimiter.length)]);
		const at = window.indexOf(this.delimiter);
		if (at >= 0 && at < held.length) {
			if (at > 0) this.handlers.onPartData(held.subarray(0, at));
			this.handlers.onPartEnd();
			this.state = 'afterDelimiter';
			return at + this.delimiter.length - held.length;
		}
		this.handlers.onPartData(held);
		return 0;
	}

	/** True once the closing delimiter went by. */
	ended() {
		return this.state === 'epilogue';
	}

	/** @param {string} block */
	startPart(block) {
		this.parts += 1;
		this.state = 'content';
		this.handlers.onPartStart(parsePartHeaders(block));
	}

	/** @param {Buffer} rest */
	hold(rest) {
		// A copy: the chunk it came from can then be collected.
		this.held = Buffer.from(rest);
		if (this.held.length > this.heldPeak) this.heldPeak = this.held.length;
	}

	/** Throws when the body ended before its closing delimiter. */
	end() {
		if (this.state !== 'epilogue') {
			throw new MultipartError(
				this.parts === 0
					? 'the body has no multipart boundary'
					: 'the body ended before its closing boundary',
			);
		}
	}
}

module.exports = {
	MultipartParser,
	MultipartError,
	boundaryOf,
	isMultipart,
	parsePartHeaders,
	MAX_HEADER_BYTES,
};
