// @ts-check
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const https = require('node:https');
const { createHash, randomUUID } = require('node:crypto');
const { MultipartParser, MultipartError } = require('./multipart');
const { isLoopbackHost } = require('./webhooks');

/** @typedef {import('./index').ReceivedFile} ReceivedFile */
/** @typedef {import('./multipart').PartHeaders} PartHeaders */
/** @typedef {{ uploadId: string, name: string, type: string, size: number, sha256: string, field: string, path: string }} Upload */

// What a multipart body's text parts (inputs, webhooks, meta...) may hold together: JSON bodies have the same limit.
const TEXT_PARTS_LIMIT = 1024 * 1024;
// What a file part without a Content-Type is taken to be (RFC 7578 §4.4).
const DEFAULT_FILE_TYPE = 'application/octet-stream';
const NGINX_413 =
	'<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * A file part's bytes are counted and hashed as they stream by, never kept.
 */
class FileDigest {
	/** @param {PartHeaders} part */
	constructor(part) {
		this.field = /** @type {string} */ (part.name);
		this.name = /** @type {string} */ (part.filename);
		this.type = part.contentType || DEFAULT_FILE_TYPE;
		this.size = 0;
		this.hash = createHash('sha256');
	}

	/** @param {Buffer} data */
	update(data) {
		this.size += data.length;
		this.hash.update(data);
	}

	/** @param {ReceivedFile['via']} via @returns {ReceivedFile} */
	finish(via) {
		return {
			field: this.field,
			name: this.name,
			type: this.type,
			size: this.size,
			sha256: this.hash.digest('hex'),
			via,
		};
	}
}

/**
 * Reads a multipart body as it streams in. Text parts (no filename) are collected as text,
 * together at most TEXT_PARTS_LIMIT bytes; file parts are hashed and, when `sink` gives a
 * writable for them, written there with the request paused while that writable is full.
 * `onBytes` hears every chunk's size first and may stop the reading (a proxy's size limit) by
 * returning false: the rest of the body is then read and dropped.
 * @param {import('node:http').IncomingMessage} req
 * @param {string} boundary
 * @param {{ sink?: (part: PartHeaders) => import('node:stream').Writable | null, onBytes?: (total: number) => boolean }} [hooks]
 * @returns {Promise<{ stopped: true } | { stopped: false, error: string | null, fields: [string, string][], files: ReceivedFile[], parser: MultipartParser }>}
 */
function readMultipart(req, boundary, hooks = {}) {
	return new Promise((resolve, reject) => {
		/** @type {[string, string][]} */
		const fields = [];
		/** @type {ReceivedFile[]} */
		const files = [];
		let textBytes = 0;
		/** @type {{ kind: 'text', name: string, chunks: Buffer[] } | { kind: 'file', digest: FileDigest, out: import('node:stream').Writable | null } | { kind: 'skip' } | null} */
		let current = null;
		/** @type {string | null} */
		let error = null;
		let total = 0;
		let stopped = false;
		/** @type {Promise<unknown>[]} */
		const written = [];
		const parser = new MultipartParser(boundary, {
			onPartStart(part) {
				if (part.name === null || part.name === '') {
					// RFC 7578: every part has a name; a nameless one is ignored, as Starlette does.
					current = { kind: 'skip' };
				} else if (part.filename !== null) {
					const out = hooks.sink ? hooks.sink(part) : null;
					current = { kind: 'file', digest: new FileDigest(part), out };
				} else {
					current = { kind: 'text', name: part.name, chunks: [] };
				}
			},
			onPartData(data) {
				if (!current || current.kind === 'skip') return;
				if (current.kind === 'text') {
					textBytes += data.length;
					if (textBytes > TEXT_PARTS_LIMIT)
						throw new MultipartError(`the text parts are over ${TEXT_PARTS_LIMIT} bytes`);
					current.chunks.push(Buffer.from(data));
					return;
				}
				current.digest.update(data);
				const { out } = current;
				if (out && !out.write(Buffer.from(data)) && !req.isPaused()) {
					req.pause();
					// A writable ended before it drained (the part ended in the same chunk) emits no 'drain': resume on its end too.
					const resume = () => {
						out.off('drain', resume).off('finish', resume).off('close', resume);
						req.resume();
					};
					out.on('drain', resume).on('finish', resume).on('close', resume);
				}
			},
			onPartEnd() {
				if (current?.kind === 'text')
					fields.push([current.name, Buffer.concat(current.chunks).toString('utf8')]);
				if (current?.kind === 'file') {
					files.push(current.digest.finish('multipart'));
					const { out } = current;
					if (out)
						written.push(
							new Promise((done, fail) => out.end(() => done(undefined)).once('error', fail)),
						);
				}
				current = null;
			},
		});
		req.on('data', (/** @type {Buffer} */ chunk) => {
			if (stopped || error !== null) return;
			total += chunk.length;
			if (hooks.onBytes && !hooks.onBytes(total)) {
				// Answered now; the rest of the body is still read (and dropped) so the client sees the answer.
				stopped = true;
				closeOpenFile();
				resolve({ stopped: true });
				return;
			}
			try {
				parser.push(chunk);
			} catch (err) {
				error = err instanceof Error ? err.message : String(err);
				closeOpenFile();
			}
		});
		/** A file part the body broke off in: its writable is ended with what it got. */
		const closeOpenFile = () => {
			if (current?.kind === 'file' && current.out) {
				const { out } = current;
				written.push(new Promise((done) => out.end(() => done(undefined))));
			}
			current = null;
		};
		req.on('end', () => {
			if (stopped) return;
			if (error !== null) closeOpenFile();
			if (error === null) {
				try {
					parser.end();
				} catch (err) {
					error = err instanceof Error ? err.message : String(err);
					closeOpenFile();
				}
			}
			Promise.all(written).then(
				() => resolve({ stopped: false, error, fields, files, parser }),
				reject,
			);
		});
		req.on('error', reject);
	});
}

/**
 * Files uploaded with POST /files, kept on disk (never in memory) until reset or close.
 */
class UploadStore {
	constructor() {
		/** @type {string | null} */
		this.dir = null;
		/** @type {Map<string, Upload>} */
		this.uploads = new Map();
	}

	/** A file for an upload's bytes, in a directory of the service's own. */
	newPath() {
		if (this.dir === null) this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crew-service-files-'));
		return path.join(this.dir, randomUUID());
	}

	/** @param {Upload} upload */
	add(upload) {
		this.uploads.set(upload.uploadId, upload);
	}

	/**
	 * The upload a `/files/<uploadId>/<name>` path names, or null.
	 * @param {string} urlPath
	 */
	find(urlPath) {
		const match = /^\/files\/([^/]+)\/([^/]+)$/.exec(urlPath);
		if (!match) return null;
		const upload = this.uploads.get(match[1]);
		let name;
		try {
			name = decodeURIComponent(match[2]);
		} catch {
			return null;
		}
		return upload && upload.name === name ? upload : null;
	}

	clear() {
		this.uploads.clear();
		if (this.dir !== null) fs.rmSync(this.dir, { recursive: true, force: true });
		this.dir = null;
	}
}

/**
 * The path part of a file URL, for its name: `https://host/a/report.pdf?sig=…` → report.pdf.
 * @param {URL} url
 */
function nameFromUrl(url) {
	const last = url.pathname.split('/').filter(Boolean).pop();
	if (!last) return 'file';
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}

/**
 * A URL as a file record shows it: no query string, where signatures live.
 * @param {URL} url
 */
function shownUrl(url) {
	return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * Fetches a loopback URL and hashes what it serves, streamed. Resolves to the record, or to
 * why it could not (the run then fails, as a crew whose file cannot be read would).
 * @param {string} field
 * @param {URL} url
 * @returns {Promise<ReceivedFile | { field: string, failed: string }>}
 */
function downloadFile(field, url) {
	const client = url.protocol === 'https:' ? https : http;
	return new Promise((resolve) => {
		const fail = (/** @type {string} */ why) =>
			resolve({
				field,
				failed: `Could not download the file for '${field}' from ${shownUrl(url)}: ${why}`,
			});
		const req = client.get(url, { rejectUnauthorized: false, timeout: 10_000 }, (res) => {
			if ((res.statusCode ?? 0) >= 300) {
				res.resume();
				return fail(`HTTP ${res.statusCode}`);
			}
			const hash = createHash('sha256');
			let size = 0;
			res.on('data', (/** @type {Buffer} */ chunk) => {
				size += chunk.length;
				hash.update(chunk);
			});
			res.on('end', () => {
				const type = String(res.headers['content-type'] || DEFAULT_FILE_TYPE)
					.split(';')[0]
					.trim();
				resolve({
					field,
					name: nameFromUrl(url),
					type,
					size,
					sha256: hash.digest('hex'),
					via: 'url',
					url: shownUrl(url),
				});
			});
			res.on('error', (err) => fail(err.message));
		});
		req.on('timeout', () => req.destroy(new Error('timed out')));
		req.on('error', (err) => fail(err.message));
	});
}

/**
 * Reads a JSON kickoff's `input_files`: an object of field → URL text.
 * @param {unknown} value
 * @returns {{ problems: Record<string, unknown>[] } | { urls: [string, URL][] }}
 */
function readInputFiles(value) {
	if (value === undefined || value === null) return { urls: [] };
	if (typeof value !== 'object' || Array.isArray(value)) {
		return {
			problems: [
				{
					type: 'dict_type',
					loc: ['body', 'input_files'],
					msg: 'Input should be a valid dictionary',
					input: value,
				},
			],
		};
	}
	/** @type {Record<string, unknown>[]} */
	const problems = [];
	/** @type {[string, URL][]} */
	const urls = [];
	for (const [field, raw] of Object.entries(value)) {
		const loc = ['body', 'input_files', field];
		if (typeof raw !== 'string') {
			problems.push({
				type: 'string_type',
				loc,
				msg: 'Input should be a valid string',
				input: raw,
			});
			continue;
		}
		let url = null;
		try {
			url = new URL(raw);
		} catch {
			url = null;
		}
		if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
			// pydantic's HttpUrl words.
			problems.push({
				type: 'url_scheme',
				loc,
				msg: "URL scheme should be 'http' or 'https'",
				input: raw,
			});
			continue;
		}
		urls.push([field, url]);
	}
	return problems.length ? { problems } : { urls };
}

/**
 * Resolves `input_files` URLs: the service's own uploads by their record, other loopback URLs
 * fetched and hashed, any other host only recorded (the service never reaches outside the machine).
 * @param {[string, URL][]} urls
 * @param {{ serviceUrl: string, uploads: UploadStore }} where
 * @returns {Promise<{ files: ReceivedFile[], failures: string[] }>}
 */
async function resolveInputFiles(urls, { serviceUrl, uploads }) {
	const own = new URL(serviceUrl);
	const results = await Promise.all(
		urls.map(async ([field, url]) => {
			if (url.host === own.host && url.protocol === own.protocol) {
				const upload = uploads.find(url.pathname);
				if (upload) {
					/** @type {ReceivedFile} */
					const file = {
						field,
						name: upload.name,
						type: upload.type,
						size: upload.size,
						sha256: upload.sha256,
						via: 'upload',
						url: shownUrl(url),
					};
					return file;
				}
			}
			if (isLoopbackHost(url.hostname)) return downloadFile(field, url);
			/** @type {ReceivedFile} */
			const recorded = {
				field,
				name: nameFromUrl(url),
				type: null,
				size: null,
				sha256: null,
				via: 'url',
				url: shownUrl(url),
			};
			return recorded;
		}),
	);
	/** @type {ReceivedFile[]} */
	const files = [];
	/** @type {string[]} */
	const failures = [];
	for (const r of results) {
		if ('failed' in r) failures.push(r.failed);
		else files.push(r);
	}
	return { files, failures };
}

module.exports = {
	readMultipart,
	UploadStore,
	readInputFiles,
	resolveInputFiles,
	NGINX_413,
	TEXT_PARTS_LIMIT,
	DEFAULT_FILE_TYPE,
};
