// @ts-check
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { resolveOptions, applyOptions } = require('./options');
const { FaultQueue, normalizeFault } = require('./faults');
const {
	createRun,
	resolvePlan,
	checkPlanOverride,
	statusRecord,
	phaseAt,
	initialSegment,
	applyResume,
	stopRun,
	celeryStateOf,
	continueAsNewRun,
	liveTaskId,
	finalResult,
	TASKS,
} = require('./runs');
const { WebhookDispatcher } = require('./webhooks');
const {
	EventStream,
	readCallbackConfig,
	redactCallbackSecrets,
	describeCallbacks,
} = require('./eventStream');
const { FlowFeedback } = require('./flowFeedback');
const {
	FlowStates,
	readStateRequest,
	attachFlow,
	flowOf,
	flowDeploymentOf,
	flowInputsListing,
	flowInputsTypeError,
	flowStateDefaults,
	flowResultText,
	markFlowDeployment,
} = require('./flowRuns');
const { ChatDeployment, matchChatRoute, CHAT_METHODS } = require('./chatApi');
const errors = require('./errors');
const live = require('./live');
const { isMultipart, boundaryOf } = require('./multipart');
const {
	readMultipart,
	UploadStore,
	readInputFiles,
	resolveInputFiles,
	NGINX_413,
} = require('./receivedFiles');
const { fileStateValue } = require('./fileRecords');

/** @typedef {import('./index').CrewService} CrewService */
/** @typedef {import('./index').CrewServiceOptions} CrewServiceOptions */
/** @typedef {import('./index').ResolvedCrewServiceOptions} ResolvedCrewServiceOptions */
/** @typedef {import('./index').RequestLogEntry} RequestLogEntry */
/** @typedef {import('./index').Run} Run */
/** @typedef {import('./index').Route} Route */
/** @typedef {import('./index').TokenType} TokenType */
/** @typedef {import('./faults').QueuedFault} QueuedFault */
/** @typedef {{ status: number, headers?: Record<string, string>, body: string }} Answer */
/**
 * @typedef {{ route: 'inputs' | 'kickoff' | 'resume' | 'other' | 'inspect' | 'chatStart' | 'files' | 'fileDownload' }
 *   | { route: 'chatMessage' | 'chatStream' | 'chatHistory', sessionId: string }
 *   | { route: 'status', spelling: 'contract' | 'wild', enabled: boolean, kickoffId: string }
 *   | { route: 'stop', kickoffId: string }} RouteMatch
 */

const BODY_LIMIT = 1024 * 1024;
const ADMIN_PREFIX = '/_reference/';
const REDACTED = '[REDACTED]';
const WEBHOOK_FIELDS = /** @type {const} */ ([
	'taskWebhookUrl',
	'stepWebhookUrl',
	'crewWebhookUrl',
]);
/** @type {Answer} what processContract gives for an SSE attach it authenticated: handle() streams it. */
const STREAM_APART = { status: 200, body: '' };
// A JSON-bodied FastAPI route given form data: the raw bytes reach the body model (FastAPI echoes them as
// `input`; the reference leaves that out rather than read a whole file to quote it).
const MULTIPART_REFUSED = Object.freeze({
	detail: [
		{
			type: 'model_attributes_type',
			loc: ['body'],
			msg: 'Input should be a valid dictionary or object to extract fields from',
		},
	],
});
// Starlette's words for a form body it cannot parse.
const FORM_PARSE_ERROR = Object.freeze({ detail: 'There was an error parsing the body' });
// Kickoff fields a multipart body carries as JSON text; every other part is plain text.
const JSON_PARTS = ['inputs', 'webhooks', 'meta', 'humanInputWebhook', 'input_files'];
const DEFAULT_NOT_JSON_BODY =
	'<!DOCTYPE html>\n<html><head><title>Gateway</title></head><body><h1>Service temporarily rerouted</h1></body></html>\n';

/**
 * @param {number} status
 * @param {unknown} value
 * @param {Record<string, string>} [headers]
 * @returns {Answer}
 */
function jsonAnswer(status, value, headers) {
	return {
		status,
		body: JSON.stringify(value),
		headers: { 'content-type': 'application/json', ...headers },
	};
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isPlainObject(value) {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** @param {string} text */
function parsesAsJson(text) {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

/** @param {string} contentType */
function isJsonContentType(contentType) {
	// Mirrors FastAPI: application/json or application/*+json is parsed, any other declared type is not.
	const mediaType = contentType.split(';')[0].trim().toLowerCase();
	return mediaType === 'application/json' || /^application\/[^/]+\+json$/.test(mediaType);
}

/**
 * The scheme is case-insensitive (RFC 7235); the token must match exactly.
 * @param {string | undefined} header
 * @param {{ organization: string, user: string }} tokens
 * @returns {TokenType | null}
 */
function tokenTypeOf(header, tokens) {
	const match = typeof header === 'string' ? /^Bearer +(\S+)$/i.exec(header.trim()) : null;
	if (!match) return null;
	if (match[1] === tokens.organization) return 'organization';
	if (match[1] === tokens.user) return 'user';
	return null;
}

/**
 * Only exact shapes route; a decoded id that contains "/" or anything else odd
 * is looked up as-is and simply not found.
 * @param {string} path
 * @param {ResolvedCrewServiceOptions['statusPaths']} statusPaths
 * @returns {RouteMatch}
 */
function matchRoute(path, statusPaths) {
	if (path === '/inputs') return { route: 'inputs' };
	if (path === '/kickoff') return { route: 'kickoff' };
	if (path === '/resume') return { route: 'resume' };
	if (path === '/files') return { route: 'files' };
	if (/^\/files\/[^/]+\/[^/]+$/.test(path)) return { route: 'fileDownload' };
	const stop = /^\/stop\/([^/]+)$/.exec(path);
	if (stop) return { route: 'stop', kickoffId: decodeSegment(stop[1]) };
	const chatRoute = matchChatRoute(path);
	if (chatRoute) return chatRoute;
	/** @type {{ spelling: 'contract' | 'wild', raw: string }[]} */
	const candidates = [];
	const contract = /^\/([^/]+)\/status$/.exec(path);
	if (contract) candidates.push({ spelling: 'contract', raw: contract[1] });
	const wild = /^\/status\/([^/]+)$/.exec(path);
	if (wild) candidates.push({ spelling: 'wild', raw: wild[1] });
	if (candidates.length === 0) return { route: 'other' };
	/** @param {{ spelling: 'contract' | 'wild' }} c */
	const isEnabled = (c) => statusPaths === 'both' || statusPaths === c.spelling;
	// "/status/status" matches both spellings; prefer whichever is enabled.
	const chosen = candidates.find(isEnabled) || candidates[0];
	return {
		route: 'status',
		spelling: chosen.spelling,
		enabled: isEnabled(chosen),
		kickoffId: decodeSegment(chosen.raw),
	};
}

/** @param {string} raw */
function decodeSegment(raw) {
	try {
		return decodeURIComponent(raw);
	} catch {
		return raw; // malformed escapes: keep raw, it cannot match a UUID anyway
	}
}

/**
 * Resolves to the body text (null when it exceeds BODY_LIMIT) and the body's size in bytes.
 * @param {http.IncomingMessage} req
 * @returns {Promise<{ text: string | null, size: number }>}
 */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (/** @type {Buffer} */ chunk) => {
			size += chunk.length;
			if (size <= BODY_LIMIT) chunks.push(chunk);
		});
		req.on('end', () =>
			resolve({ text: size > BODY_LIMIT ? null : Buffer.concat(chunks).toString('utf8'), size }),
		);
		req.on('error', reject);
	});
}

/**
 * The kickoff fields of a multipart body's text parts, or why they are invalid. A field sent twice:
 * the last part wins.
 * @param {[string, string][]} parts
 * @returns {Record<string, unknown> | string}
 */
function kickoffFieldsOfParts(parts) {
	/** @type {[string, unknown][]} */
	const fields = [];
	for (const [name, text] of parts) {
		if (!JSON_PARTS.includes(name)) {
			fields.push([name, text]);
			continue;
		}
		try {
			fields.push([name, JSON.parse(text)]);
		} catch {
			return `the "${name}" part is not valid JSON`;
		}
	}
	// fromEntries, so a part named "__proto__" stays an ordinary key.
	return Object.fromEntries(fields);
}

/**
 * A request whose body the service reads as it streams in (multipart to /kickoff or /files)
 * rather than whole before routing.
 * @param {http.IncomingMessage} req
 * @param {string} path
 */
function isStreamedBody(req, path) {
	return (
		req.method === 'POST' &&
		(path === '/kickoff' || path === '/files') &&
		isMultipart(req.headers['content-type'])
	);
}

/** What nginx answers a body over its client_max_body_size: its own HTML page. @returns {Answer} */
function proxyTooLarge() {
	return {
		status: 413,
		headers: { 'content-type': 'text/html', server: 'nginx' },
		body: NGINX_413,
	};
}

/**
 * @param {CrewServiceOptions} [userOptions]
 * @returns {Promise<CrewService>}
 */
async function startCrewService(userOptions = {}) {
	const options = resolveOptions(userOptions);
	/** @type {RequestLogEntry[]} */
	const requests = [];
	/** @type {Run[]} */
	const runs = [];
	/** @type {Map<string, Run>} */
	const runsById = new Map();
	const faults = new FaultQueue();
	const flowStates = new FlowStates();
	const chat = new ChatDeployment({ options: () => options.chat });
	const uploads = new UploadStore();
	/** @type {WebhookDispatcher} */
	const webhooks = new WebhookDispatcher({
		targets: () => options.webhookTargets,
		wantsEveryMoment: (run) => stream.has(run) || options.flowFeedback !== null,
		onMoment: (run, event, payload, pausesHere) => {
			stream.moment(run, event, payload, pausesHere);
			if (pausesHere) flowFeedback.pause(run, event.taskIndex, payload.output);
		},
	});
	/** @type {EventStream} */
	const stream = new EventStream({
		dispatcher: webhooks,
		options: () => options.eventStream,
		now: () => options.now(),
	});
	const flowFeedback = new FlowFeedback({
		dispatcher: webhooks,
		options: () => options.flowFeedback,
		now: () => options.now(),
		baseUrl: () => service.url,
		answer: (run, feedback) => approveFromFeedback(run, feedback),
	});
	// Every token ever configured, so a token that was rotated away is still
	// redacted if a client leaks it into a URL or body.
	const knownTokens = new Set([options.tokens.organization, options.tokens.user]);
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	/** @type {Set<NodeJS.Timeout>} */
	const timers = new Set();
	let closed = false;
	// The first contract request after start (or after configure sets coldStartMs) is answered coldStartMs late.
	let coldStartPending = options.coldStartMs > 0;

	/**
	 * Logs must be safe to print in a failing test's output, so a token that a
	 * client put anywhere but the Authorization header is replaced, and the
	 * entry flagged so the leak itself is still visible.
	 * @template T
	 * @param {T} value
	 * @returns {{ value: T, leaked: boolean }}
	 */
	function redact(value) {
		let leaked = false;
		/** @param {unknown} v @returns {unknown} */
		const walk = (v) => {
			if (typeof v === 'string') {
				let out = v;
				for (const token of knownTokens) {
					if (out.includes(token)) {
						out = out.split(token).join(REDACTED);
						leaked = true;
					}
				}
				return out;
			}
			if (Array.isArray(v)) return v.map(walk);
			// fromEntries (not assignment) so a "__proto__" key stays an ordinary key.
			if (isPlainObject(v))
				return Object.fromEntries(Object.entries(v).map(([k, x]) => [walk(k), walk(x)]));
			return v;
		};
		return { value: /** @type {T} */ (walk(value)), leaked };
	}

	/** @param {number} ms */
	function sleep(ms) {
		// On close() the timer is cleared and the handler is simply abandoned.
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				timers.delete(timer);
				resolve(undefined);
			}, ms);
			timers.add(timer);
		});
	}

	/**
	 * @param {http.ServerResponse} res
	 * @param {RequestLogEntry | null} entry
	 * @param {Answer} answer
	 */
	function deliver(res, entry, answer) {
		if (closed || res.destroyed) return;
		/** @type {Record<string, string | number>} */
		const headers = { 'content-length': Buffer.byteLength(answer.body) };
		for (const [name, value] of Object.entries(answer.headers || {}))
			headers[name.toLowerCase()] = value;
		if (entry) entry.status = answer.status;
		res.writeHead(answer.status, headers);
		res.end(answer.body);
	}

	/**
	 * @param {http.IncomingMessage} req
	 * @param {RouteMatch} match
	 * @param {string | null} bodyText
	 * @param {RequestLogEntry} entry
	 * @param {boolean} streamed the body is multipart and still unread
	 * @returns {Promise<Answer>}
	 */
	async function processContract(req, match, bodyText, entry, streamed) {
		// A deployment on an older crewAI has no upload route: FastAPI's router answers it.
		const unknownRoute = match.route === 'files' && options.multipartKickoff === 'refused';
		if (match.route === 'other' || (match.route === 'status' && !match.enabled) || unknownRoute) {
			return jsonAnswer(404, errors.ROUTE_NOT_FOUND);
		}
		// A deployment without the stop route: FastAPI's router answers, before auth.
		if (match.route === 'stop' && options.stopRoute === false)
			return jsonAnswer(404, errors.ROUTE_NOT_FOUND);
		if (match.route === 'stop' && options.stopRoute === 'methodNotAllowed')
			return jsonAnswer(405, errors.METHOD_NOT_ALLOWED, { allow: 'GET' });
		if (!entry.tokenType) {
			if (options.dialect === 'live')
				return jsonAnswer(401, live.unauthorizedBody(req.headers.authorization));
			return jsonAnswer(
				401,
				errors.errorBody(options.errorShape, 401, 'Invalid or missing bearer token'),
				{
					'www-authenticate': 'Bearer',
				},
			);
		}
		const expectedMethod =
			match.route === 'kickoff' ||
			match.route === 'resume' ||
			match.route === 'files' ||
			match.route === 'stop'
				? 'POST'
				: CHAT_METHODS[match.route] || 'GET';
		if (req.method !== expectedMethod)
			return jsonAnswer(405, errors.METHOD_NOT_ALLOWED, { allow: expectedMethod });
		if (match.route === 'inputs') return listInputs();
		if (match.route === 'kickoff') return kickoff(req, bodyText, entry, streamed);
		if (match.route === 'files') return uploadFile(req, entry, streamed);
		if (match.route === 'stop') return stop(match.kickoffId);
		if (match.route === 'resume')
			return options.dialect === 'live'
				? resumeLive(req, bodyText, entry)
				: resume(req, bodyText, entry);
		if (match.route === 'inspect') return chat.inspect();
		if (match.route === 'chatStart') return chat.start();
		if (match.route === 'chatHistory') return chat.history(match.sessionId);
		if (match.route === 'chatMessage') {
			const read = readJsonBody(req, bodyText, entry, (why) => jsonAnswer(400, { detail: why }));
			return 'answer' in read ? read.answer : chat.message(match.sessionId, read.body);
		}
		// Authenticated and routed: the SSE response itself is written by the chat deployment (handle).
		if (match.route === 'chatStream') return STREAM_APART;
		return readStatus(/** @type {{ kickoffId: string }} */ (match).kickoffId);
	}

	/**
	 * A throwing `options.plan` is a bug in the test using the service: answer
	 * 500 so the request is not left hanging, and say why on stderr.
	 * @param {http.IncomingMessage} req
	 * @param {RouteMatch} match
	 * @param {string | null} bodyText
	 * @param {RequestLogEntry} entry
	 * @param {boolean} streamed
	 * @returns {Promise<Answer>}
	 */
	async function processSafely(req, match, bodyText, entry, streamed) {
		try {
			return await processContract(req, match, bodyText, entry, streamed);
		} catch (err) {
			console.error('[crew-service] request handler failed:', err);
			const message = `Reference server error: ${err instanceof Error ? err.message : String(err)}`;
			return jsonAnswer(500, errors.errorBody(options.errorShape, 500, message));
		}
	}

	function listInputs() {
		if (options.deployment === 'flow')
			return jsonAnswer(200, {
				inputs: flowInputsListing(options.inputsShape, options.flowFileFields),
			});
		const inputs =
			options.inputsShape === 'objects'
				? options.inputs.map((i) => ({
						name: i.name,
						type: i.type || 'string',
						required: i.required !== false,
					}))
				: options.inputs.map((i) => i.name);
		return jsonAnswer(200, { inputs });
	}

	/**
	 * @param {http.IncomingMessage} req
	 * @param {string | null} bodyText
	 * @param {RequestLogEntry} entry
	 * @param {boolean} streamed a multipart body, still unread
	 * @returns {Promise<Answer>}
	 */
	async function kickoff(req, bodyText, entry, streamed) {
		/** @param {string} why */
		const invalid = (why) =>
			jsonAnswer(400, errors.errorBody(options.errorShape, 400, `Invalid input format: ${why}`));
		if (streamed) return multipartKickoff(req, entry, invalid);
		const isLive = options.dialect === 'live';
		if (isLive && bodyText !== null && !parsesAsJson(bodyText))
			return {
				status: 500,
				headers: { 'content-type': 'text/plain; charset=utf-8' },
				body: live.NOT_JSON_TEXT,
			};
		const read = readJsonBody(req, bodyText, entry, invalid);
		if ('answer' in read) return read.answer;
		return startRun(read.body, entry, invalid, []);
	}

	/**
	 * A multipart kickoff: the `inputs` part and the other kickoff fields as parts, every part
	 * with a filename a file for the crew's field of its name. Files are hashed as they stream by;
	 * the run then starts exactly as the JSON kickoff with those fields would.
	 * @param {http.IncomingMessage} req
	 * @param {RequestLogEntry} entry
	 * @param {(why: string) => Answer} invalid
	 * @returns {Promise<Answer>}
	 */
	/**
	 * Reads a request body to its end and drops it.
	 * @param {http.IncomingMessage} req
	 * @returns {Promise<void>}
	 */
	function readToEnd(req) {
		return new Promise((resolve) => {
			if (req.readableEnded) return resolve();
			req
				.once('end', resolve)
				.once('error', () => resolve())
				.once('close', () => resolve());
			req.resume();
		});
	}

	/**
	 * @param {http.IncomingMessage} req
	 * @param {RequestLogEntry} entry
	 * @param {(why: string) => Answer} invalid
	 * @returns {Promise<Answer>}
	 */
	async function multipartKickoff(req, entry, invalid) {
		// An older crewAI's route takes JSON only: FastAPI hands the form bytes to the body model.
		if (options.multipartKickoff === 'refused') {
			// FastAPI reads the whole body before its JSON model refuses it: the client has sent every
			// byte when the 422 comes, never a closed connection mid-file.
			await readToEnd(req);
			return jsonAnswer(422, MULTIPART_REFUSED);
		}
		const boundary = boundaryOf(req.headers['content-type']);
		if (boundary === null) return invalid('multipart/form-data without a boundary');
		const read = await readMultipart(req, boundary, { onBytes: withinProxyLimit });
		if (read.stopped) return proxyTooLarge();
		if (read.error !== null) return invalid(`multipart body: ${read.error}`);
		const fields = kickoffFieldsOfParts(read.fields);
		if (typeof fields === 'string') return invalid(fields);
		const redacted = redact(fields);
		entry.body = redacted.value;
		if (redacted.leaked) entry.tokenLeaked = true;
		entry.files = read.files;
		return startRun(redacted.value, entry, invalid, read.files);
	}

	/**
	 * POST /files: part `file` (with a filename) and part `field_name` → the file's URL on the
	 * service, for a kickoff's `input_files`. The bytes go to disk as they arrive.
	 * @param {http.IncomingMessage} req
	 * @param {RequestLogEntry} entry
	 * @param {boolean} streamed
	 * @returns {Promise<Answer>}
	 */
	async function uploadFile(req, entry, streamed) {
		/** @param {string} field */
		const missing = (field) => ({
			type: 'missing',
			loc: ['body', field],
			msg: 'Field required',
			input: null,
		});
		if (!streamed) return jsonAnswer(422, { detail: [missing('file'), missing('field_name')] });
		const boundary = boundaryOf(req.headers['content-type']);
		if (boundary === null) return jsonAnswer(400, FORM_PARSE_ERROR);
		/** @type {{ path: string, out: import('node:fs').WriteStream } | null} */
		let stored = null;
		const read = await readMultipart(req, boundary, {
			onBytes: withinProxyLimit,
			sink: (part) => {
				if (part.name !== 'file' || stored !== null) return null;
				const path = uploads.newPath();
				stored = { path, out: fs.createWriteStream(path) };
				return stored.out;
			},
		});
		const kept = /** @type {{ path: string, out: import('node:fs').WriteStream } | null} */ (
			stored
		);
		const discard = () => kept && fs.rm(kept.path, { force: true }, () => undefined);
		if (read.stopped) {
			discard();
			return proxyTooLarge();
		}
		if (read.error !== null) {
			discard();
			return jsonAnswer(400, FORM_PARSE_ERROR);
		}
		const file = read.files.find((f) => f.field === 'file');
		const fieldName = read.fields
			.filter(([name]) => name === 'field_name')
			.map(([, value]) => value)
			.pop();
		entry.body = redact({ field_name: fieldName ?? null }).value;
		entry.files = read.files;
		/** @type {Record<string, unknown>[]} */
		const problems = [];
		if (!file || !kept) problems.push(missing('file'));
		if (fieldName === undefined) problems.push(missing('field_name'));
		if (problems.length || !file || !kept || fieldName === undefined) {
			discard();
			return jsonAnswer(422, { detail: problems });
		}
		const uploadId = randomUUID();
		// A multipart file part always has its type, size and hash; only a URL not fetched lacks them.
		const { name, type, size, sha256 } =
			/** @type {{ name: string, type: string, size: number, sha256: string }} */ (file);
		uploads.add({ uploadId, field: fieldName, name, type, size, sha256, path: kept.path });
		return jsonAnswer(200, {
			url: `${service.url}/files/${uploadId}/${encodeURIComponent(file.name)}`,
			field_name: fieldName,
		});
	}

	/**
	 * GET /files/<uploadId>/<name>: an upload's bytes, streamed from disk. No token: the URL is what
	 * a crew (or its model provider) fetches, as a signed URL would be.
	 * @param {http.IncomingMessage} req
	 * @param {http.ServerResponse} res
	 * @param {string} path
	 * @param {RequestLogEntry} entry
	 */
	function serveUpload(req, res, path, entry) {
		const upload = options.multipartKickoff === 'refused' ? null : uploads.find(path);
		if (req.method !== 'GET' && req.method !== 'HEAD' && upload)
			return deliver(res, entry, jsonAnswer(405, errors.METHOD_NOT_ALLOWED, { allow: 'GET' }));
		if (!upload) return deliver(res, entry, jsonAnswer(404, errors.ROUTE_NOT_FOUND));
		entry.status = 200;
		res.writeHead(200, { 'content-type': upload.type, 'content-length': upload.size });
		if (req.method === 'HEAD') return res.end();
		fs.createReadStream(upload.path)
			.on('error', () => res.destroy())
			.pipe(res);
	}

	/** @param {number} size */
	function overProxyLimit(size) {
		return options.maxFileBytes !== null && size > options.maxFileBytes;
	}

	/** @param {number} total the body bytes read so far */
	function withinProxyLimit(total) {
		return !overProxyLimit(total);
	}

	/**
	 * Starts a run from a kickoff's fields (a JSON body or a multipart one's parts), with the
	 * files that came in the body; `input_files` URLs are resolved here.
	 * @param {Record<string, unknown>} body
	 * @param {RequestLogEntry} entry
	 * @param {(why: string) => Answer} invalid
	 * @param {import('./index').ReceivedFile[]} received
	 * @returns {Promise<Answer>}
	 */
	async function startRun(body, entry, invalid, received) {
		const shape = options.errorShape;
		const isLive = options.dialect === 'live';
		const flowDeployment = options.deployment === 'flow';
		const { meta } = body;
		// A flow takes a bare body without the inputs wrapper and silently runs on its defaults; a live
		// crew reads it as one with no inputs, so its 422 names them (docs/development/service-api.md, "Live").
		const inputs = (flowDeployment || isLive) && body.inputs === undefined ? {} : body.inputs;
		if (!isPlainObject(inputs)) return invalid('"inputs" must be an object');
		// A flow's state fields keep their JSON types; a crew's inputs are prompt text.
		const nonStrings = flowDeployment
			? []
			: Object.keys(inputs).filter((name) => typeof inputs[name] !== 'string');
		if (nonStrings.length)
			return invalid(`input values must be strings (not: ${nonStrings.join(', ')})`);
		if (meta !== undefined && meta !== null && !isPlainObject(meta))
			return invalid('"meta" must be an object');
		const urls = webhookUrls(body);
		if (typeof urls === 'string') return invalid(urls);
		const callbacks = readCallbacks(body, entry);
		if (typeof callbacks === 'string') return invalid(callbacks);
		/** @type {Partial<import('./index').RunPlan>} */
		let reference;
		try {
			reference = checkPlanOverride(
				isPlainObject(meta) ? meta.reference : undefined,
				'meta.reference',
			);
		} catch (err) {
			return invalid(err.message);
		}

		const stringInputs = /** @type {Record<string, string>} */ (inputs);
		const stateRequest = readStateRequest(stringInputs, body.restoreFromStateId);
		if ('invalidFormat' in stateRequest) return invalid(stateRequest.invalidFormat);
		if ('notUuid' in stateRequest)
			return jsonAnswer(422, errors.validationErrorBody(shape, stateRequest.notUuid));
		// A flow's state fields all have defaults: none is required.
		const missing = (flowDeployment ? [] : options.inputs)
			.filter((i) => i.required !== false)
			.filter(
				(i) =>
					!Object.prototype.hasOwnProperty.call(stringInputs, i.name) ||
					stringInputs[i.name] === '',
			)
			.map((i) => i.name);
		if (missing.length)
			return jsonAnswer(
				422,
				isLive ? live.missingInputsBody(missing) : errors.missingInputsBody(shape, missing),
			);
		// An older crewAI's body model has no input_files: FastAPI ignores an unknown field.
		const inputFiles =
			options.multipartKickoff === 'refused' ? { urls: [] } : readInputFiles(body.input_files);
		if ('problems' in inputFiles) return jsonAnswer(422, { detail: inputFiles.problems });
		const fetched = await resolveInputFiles(inputFiles.urls, { serviceUrl: service.url, uploads });
		if (closed) return jsonAnswer(503, errors.errorBody(shape, 503, 'Service closing'));
		const files = [...received, ...fetched.files];
		// A file the crew cannot get fails its run, as the crew's first read of it would.
		if (fetched.failures.length)
			reference = { ...reference, outcome: 'failure', error: fetched.failures.join('; ') };

		const index = runs.length;
		const runMeta = meta === undefined ? null : meta;
		const plan = resolvePlan({
			inputs: stringInputs,
			meta: runMeta,
			index,
			durationMs: options.durationMs,
			planFn: options.plan,
			// A deployed flow's run is always a flow run; inputs its state model refuses fail it (live: FAILED).
			reference: flowDeployment ? { ...reference, flow: true, ...flowFailure(inputs) } : reference,
		});
		const run = createRun({
			inputs: stringInputs,
			meta: runMeta,
			webhooks: urls,
			tokenType: /** @type {TokenType} */ (entry.tokenType),
			index,
			createdAt: options.now(),
			plan,
			clock: () => options.now(),
		});
		// restoreFromStateId and inputs.id restore nothing for a crew: the service ignores them.
		attachFlow(
			run,
			plan.flow
				? flowStates.start(
						run.kickoffId,
						stringInputs,
						stateRequest,
						flowDeployment ? flowStateDefaults(options.flowFileFields) : {},
					)
				: null,
		);
		attachFiles(run, files);
		if (flowDeployment) {
			markFlowDeployment(run, options.dialect);
			// The final method reports the state it ran with, unless the kickoff chose a result.
			if (reference.result === undefined)
				run.plan.result = flowResultText(/** @type {any} */ (run).flow.state);
		}
		stream.register(run, callbacks);
		// Not enumerable: runs compared whole by existing tests stay as they were.
		Object.defineProperty(run, 'callbacks', {
			value: describeCallbacks(callbacks),
			enumerable: false,
			configurable: true,
		});
		runs.push(run);
		runsById.set(run.kickoffId, run);
		entry.kickoffId = run.kickoffId;
		webhooks.schedule(run, initialSegment(run), urls);
		return jsonAnswer(200, { kickoff_id: run.kickoffId });
	}

	/**
	 * What a run got: on the run record, in its result text (one line a file) and its result_json;
	 * a deployed flow's file-typed state fields hold theirs.
	 * @param {Run} run
	 * @param {import('./index').ReceivedFile[]} files
	 */
	function attachFiles(run, files) {
		if (files.length === 0) return;
		run.files = files;
		const { resultJson } = run.plan;
		if (isPlainObject(resultJson)) run.plan.resultJson = { ...resultJson, files };
		const flow = flowOf(run);
		if (!flow || options.deployment !== 'flow') return;
		for (const file of files) {
			if (options.flowFileFields.includes(file.field))
				flow.state[file.field] = fileStateValue(file);
		}
	}

	/**
	 * The plan part of inputs the deployed flow's state model refuses: a failed run, pydantic's words.
	 * @param {Record<string, unknown>} inputs
	 * @returns {Partial<import('./index').RunPlan>}
	 */
	function flowFailure(inputs) {
		const error = flowInputsTypeError(inputs);
		return error === null ? {} : { outcome: 'failure', error };
	}

	/**
	 * The body checks kickoff and resume share: size, declared Content-Type,
	 * JSON, an object. Logs the (redacted) body on the entry.
	 * @param {http.IncomingMessage} req
	 * @param {string | null} bodyText
	 * @param {RequestLogEntry} entry
	 * @param {(why: string) => Answer} invalid
	 * @returns {{ answer: Answer } | { body: Record<string, unknown> }}
	 */
	function readJsonBody(req, bodyText, entry, invalid) {
		if (bodyText === null)
			return {
				answer: jsonAnswer(
					413,
					errors.errorBody(options.errorShape, 413, 'Request body too large'),
				),
			};
		const contentType = req.headers['content-type'];
		if (contentType !== undefined && !isJsonContentType(contentType)) {
			return { answer: invalid('Content-Type must be application/json') };
		}
		/** @type {unknown} */
		let parsed;
		try {
			parsed = JSON.parse(bodyText);
		} catch {
			return { answer: invalid('body is not valid JSON') };
		}
		const redacted = redact(parsed);
		const body = redacted.value;
		entry.body = body;
		if (redacted.leaked) entry.tokenLeaked = true;
		if (!isPlainObject(body)) return { answer: invalid('body must be a JSON object') };
		return { body };
	}

	/**
	 * The kickoff's `webhooks` and `humanInputWebhook` objects, or why they are invalid.
	 * The logged body loses their tokens and passwords (sent on purpose, so not leaks).
	 * @param {Record<string, unknown>} body
	 * @param {RequestLogEntry} entry
	 * @returns {import('./eventStream').CallbackConfig | string}
	 */
	function readCallbacks(body, entry) {
		entry.body = redactCallbackSecrets(body);
		try {
			if (options.dialect !== 'live') return readCallbackConfig(body);
			// Live, the top-level string is what the service calls (docs/development/service-api.md#human-input-for-crews); the documented object is ignored, as FastAPI ignores unknown fields.
			const config = readCallbackConfig({ ...body, humanInputWebhook: undefined });
			const url = body.humanInputWebhookUrl;
			if (url !== undefined && typeof url !== 'string')
				return '"humanInputWebhookUrl" must be a string';
			return { ...config, humanInput: url ? { url, auth: null, live: true } : null };
		} catch (err) {
			return err instanceof Error ? err.message : String(err);
		}
	}

	/**
	 * A flow feedback answer approves the paused task with the feedback, as an
	 * approving /resume would; the run's event stream goes on (no legacy URLs).
	 * @param {Run} run
	 * @param {string} feedback
	 */
	function approveFromFeedback(run, feedback) {
		const now = options.now();
		const at = phaseAt(run, now);
		if (at.phase !== 'paused') return;
		webhooks.flush(run);
		const segment = applyResume(run, now, {
			taskId: TASKS[at.taskIndex].id,
			feedback,
			approved: true,
			webhooks: {},
		});
		webhooks.schedule(run, segment, {});
	}

	/**
	 * The three webhook URL fields of a kickoff or resume body, or why they are invalid.
	 * @param {Record<string, unknown>} body
	 * @returns {Run['webhooks'] | string}
	 */
	function webhookUrls(body) {
		/** @type {Run['webhooks']} */
		const urls = {};
		for (const field of WEBHOOK_FIELDS) {
			const value = body[field];
			if (value === undefined) continue;
			if (typeof value !== 'string') return `"${field}" must be a string`;
			urls[field] = value;
		}
		return urls;
	}

	/**
	 * POST /resume (hosted service, outside the spec): continues a run paused
	 * for human input. Checks in order: body 400, field types 400, missing
	 * fields 422, unknown execution 404, not paused 409, wrong task 400.
	 * @param {http.IncomingMessage} req
	 * @param {string | null} bodyText
	 * @param {RequestLogEntry} entry
	 * @returns {Answer}
	 */
	function resume(req, bodyText, entry) {
		const shape = options.errorShape;
		/** @param {string} why */
		const invalid = (why) =>
			jsonAnswer(400, errors.errorBody(shape, 400, `Invalid resume request: ${why}`));
		const read = readJsonBody(req, bodyText, entry, invalid);
		if ('answer' in read) return read.answer;
		const { body } = read;
		const {
			execution_id: executionId,
			task_id: taskId,
			human_feedback: feedback,
			is_approve: approve,
		} = body;
		for (const [field, value] of [
			['execution_id', executionId],
			['task_id', taskId],
			['human_feedback', feedback],
		]) {
			if (value !== undefined && typeof value !== 'string')
				return invalid(`"${field}" must be a string`);
		}
		if (approve !== undefined && typeof approve !== 'boolean')
			return invalid('"is_approve" must be a boolean');
		const urls = webhookUrls(body);
		if (typeof urls === 'string') return invalid(urls);
		const callbacks = readCallbacks(body, entry);
		if (typeof callbacks === 'string') return invalid(callbacks);
		if (typeof executionId === 'string') entry.kickoffId = executionId;
		const missing = ['execution_id', 'task_id', 'is_approve'].filter(
			(field) => body[field] === undefined,
		);
		if (missing.length) return jsonAnswer(422, errors.missingFieldsBody(shape, missing));

		const run = runsById.get(/** @type {string} */ (executionId));
		if (!run)
			return jsonAnswer(404, errors.errorBody(shape, 404, `Execution not found: ${executionId}`));
		const now = options.now();
		const at = phaseAt(run, now);
		if (at.phase !== 'paused')
			return jsonAnswer(409, errors.errorBody(shape, 409, errors.NOT_WAITING_MESSAGE));
		const waitingTask = TASKS[at.taskIndex].id;
		if (taskId !== waitingTask) {
			return invalid(
				`task_id "${taskId}" is not the task waiting for human input ("${waitingTask}")`,
			);
		}
		// Moments of the paused segment that real time has not reached yet go first, with the old URLs.
		webhooks.flush(run);
		const approved = /** @type {boolean} */ (approve);
		const segment = applyResume(run, now, {
			taskId: waitingTask,
			feedback: typeof feedback === 'string' ? feedback : '',
			approved,
			webhooks: urls,
		});
		// Only the URLs this resume sent: the kickoff's are not carried over. The stream and the
		// human-input webhook are, unless this resume gives its own (our choice, undocumented).
		stream.carryOver(run, run, callbacks);
		Object.defineProperty(run, 'callbacks', {
			value: describeCallbacks(stream.configOf(run)),
			enumerable: false,
			configurable: true,
		});
		webhooks.schedule(run, segment, urls);
		return jsonAnswer(200, approved ? errors.RESUMED : errors.RETRYING);
	}

	/**
	 * POST /resume as the live service answered it (docs/development/service-api.md, "Live"):
	 * `executionId` and `taskId` required (camelCase; FastAPI's 422 "Field required"
	 * naming them), the feedback and approval read in either spelling (approval
	 * true when neither is sent: ours), and always `200 {"kickoff_id": "<new id>"}`,
	 * a new run. A paused run with its task (the UUID its human-input call gave,
	 * or the task's name) goes on in that new run; anything else (an unknown id,
	 * a run that is not paused, another task) gets a new run that ends FAILED,
	 * as the vendor saw for an unknown id.
	 * @param {http.IncomingMessage} req
	 * @param {string | null} bodyText
	 * @param {RequestLogEntry} entry
	 * @returns {Answer}
	 */
	function resumeLive(req, bodyText, entry) {
		const read = readJsonBody(req, bodyText, entry, (why) =>
			jsonAnswer(400, errors.errorBody('fastapi', 400, `Invalid resume request: ${why}`)),
		);
		if ('answer' in read) return read.answer;
		const { body } = read;
		/** @type {Record<string, unknown>[]} */
		const problems = [];
		for (const field of ['executionId', 'taskId']) {
			if (body[field] === undefined)
				problems.push({
					type: 'missing',
					loc: ['body', field],
					msg: 'Field required',
					input: body,
				});
		}
		for (const field of [
			'executionId',
			'taskId',
			'humanFeedback',
			'human_feedback',
			'humanInputWebhookUrl',
			...WEBHOOK_FIELDS,
		]) {
			if (body[field] !== undefined && typeof body[field] !== 'string')
				problems.push({
					type: 'string_type',
					loc: ['body', field],
					msg: 'Input should be a valid string',
					input: body[field],
				});
		}
		for (const field of ['isApprove', 'is_approve']) {
			if (body[field] !== undefined && typeof body[field] !== 'boolean')
				problems.push({
					type: 'bool_type',
					loc: ['body', field],
					msg: 'Input should be a valid boolean',
					input: body[field],
				});
		}
		const given = readCallbacks(body, entry);
		if (typeof given === 'string')
			problems.push({
				type: 'value_error',
				loc: ['body', 'webhooks'],
				msg: given,
				input: body.webhooks,
			});
		if (problems.length) return jsonAnswer(422, { detail: problems });
		const executionId = /** @type {string} */ (body.executionId);
		const taskId = /** @type {string} */ (body.taskId);
		const feedback = /** @type {string} */ (body.humanFeedback ?? body.human_feedback ?? '');
		const approved = /** @type {boolean} */ (body.isApprove ?? body.is_approve ?? true);
		const urls = /** @type {Run['webhooks']} */ (webhookUrls(body));
		entry.kickoffId = executionId;

		const paused = runsById.get(executionId);
		const now = options.now();
		const at = paused ? phaseAt(paused, now) : undefined;
		let refusal = '';
		if (!paused || !at) refusal = `No execution found with ID: ${executionId}`;
		else if (at.phase !== 'paused') refusal = errors.NOT_WAITING_MESSAGE;
		else if (taskId !== liveTaskId(paused, at.taskIndex) && taskId !== TASKS[at.taskIndex].id)
			refusal = `Task ${taskId} is not the task waiting for human input`;
		const where = {
			index: runs.length,
			now,
			tokenType: /** @type {TokenType} */ (entry.tokenType),
			clock: () => options.now(),
		};
		let run;
		/** @type {import('./runs').Segment} */
		let segment;
		if (refusal !== '' || !paused || !at || at.phase !== 'paused') {
			const plan = resolvePlan({
				inputs: paused ? paused.inputs : {},
				meta: paused ? paused.meta : null,
				index: where.index,
				durationMs: options.durationMs,
				planFn: undefined,
				reference: { outcome: 'failure', error: refusal },
			});
			run = createRun({
				inputs: paused ? paused.inputs : {},
				meta: paused ? paused.meta : null,
				webhooks: urls,
				tokenType: where.tokenType,
				index: where.index,
				createdAt: now,
				plan,
				clock: where.clock,
			});
			segment = initialSegment(run);
		} else {
			// Moments of the paused segment that real time has not reached yet go first, with the old URLs.
			webhooks.flush(paused);
			({ run, segment } = continueAsNewRun(paused, where, {
				taskId: TASKS[at.taskIndex].id,
				feedback,
				approved,
				webhooks: urls,
			}));
		}
		attachFlow(run, paused ? flowOf(paused) : null);
		const callbacks = paused
			? stream.carryOver(paused, run, /** @type {import('./eventStream').CallbackConfig} */ (given))
			: /** @type {import('./eventStream').CallbackConfig} */ (given);
		if (!paused) stream.register(run, callbacks);
		Object.defineProperty(run, 'callbacks', {
			value: describeCallbacks(callbacks),
			enumerable: false,
		});
		runs.push(run);
		runsById.set(run.kickoffId, run);
		webhooks.schedule(run, segment, urls);
		return jsonAnswer(200, { kickoff_id: run.kickoffId });
	}

	/**
	 * POST /stop/{kickoff_id}, as the vendor documents it (docs/development/service-api.md#stopping-a-run),
	 * the same in every dialect and error shape: a run not ended yet (pending,
	 * running, or paused for human input) ends now as REVOKED and calls nobody again; a run that
	 * has ended is refused with its state; an unknown id gets the documented 404.
	 * @param {string} kickoffId
	 * @returns {Answer}
	 */
	function stop(kickoffId) {
		const run = runsById.get(kickoffId);
		if (!run || unregistered(run))
			return jsonAnswer(404, errors.executionNotFoundBody('documented', redact(kickoffId).value));
		const now = options.now();
		if (phaseAt(run, now).phase === 'finished')
			return jsonAnswer(400, {
				detail: `Cannot stop execution. Current state: ${celeryStateOf(run, now)}`,
			});
		stopRun(run, now);
		webhooks.discard(run);
		return jsonAnswer(200, { status: 'stopped', kickoffId: run.kickoffId });
	}

	/**
	 * A run within its registration delay after its kickoff (its plan's, else the service's
	 * registrationDelayMs): the service does not know it yet, as live right after a kickoff;
	 * its status reads and stops answer as for an unknown id.
	 * @param {Run} run
	 */
	function unregistered(run) {
		return (
			options.now() - run.createdAt < (run.plan.registrationDelayMs ?? options.registrationDelayMs)
		);
	}

	/** @param {string} kickoffId */
	function readStatus(kickoffId) {
		const found = runsById.get(kickoffId);
		// A read of a run not registered yet is still a read of that run: counted, answered as unknown.
		if (found && unregistered(found)) found.statusRequests += 1;
		const run = found && unregistered(found) ? undefined : found;
		if (options.dialect === 'live') return readLiveStatus(run);
		if (!run) {
			const shown = redact(kickoffId).value;
			return jsonAnswer(404, errors.executionNotFoundBody(options.errorShape, shown));
		}
		run.statusRequests += 1;
		return jsonAnswer(200, statusRecord(run, options.now(), options.recordShape));
	}

	/**
	 * Live, every "no such run" is a 200 NOT FOUND: an unknown id, the first reads
	 * of a run not registered yet (registrationLagReads), a run paused for human input.
	 * @param {Run | undefined} run
	 */
	function readLiveStatus(run) {
		if (!run) return jsonAnswer(200, live.NOT_FOUND_RECORD);
		run.statusRequests += 1;
		if (live.inRegistrationLag(run.statusRequests, options.registrationLagReads))
			return jsonAnswer(200, live.NOT_FOUND_RECORD);
		const now = options.now();
		// A deployed flow's live record is its own (flowRuns.js): steps, no total, the final method's text.
		if (flowDeploymentOf(run)) return jsonAnswer(200, statusRecord(run, now, options.recordShape));
		return jsonAnswer(
			200,
			live.liveRecord(run, phaseAt(run, now), now, { tasks: TASKS, result: finalResult(run) }),
		);
	}

	/**
	 * @param {QueuedFault} fault
	 * @param {string} bodyText the request's body as received
	 * @returns {Answer}
	 */
	function faultAnswer(fault, bodyText) {
		const headers = { 'content-type': fault.contentType || 'application/json', ...fault.headers };
		if (fault.kind === 'emptyBody') return { status: fault.status || 200, headers, body: '' };
		if (fault.kind === 'notJson') {
			return {
				status: fault.status || 200,
				headers,
				body: fault.body !== undefined ? fault.body : DEFAULT_NOT_JSON_BODY,
			};
		}
		const status = fault.status || 500;
		const message = fault.echoRequest ? bodyText : errors.defaultFaultMessage(status);
		const body =
			fault.body !== undefined
				? fault.body
				: JSON.stringify(errors.errorBody(options.errorShape, status, message));
		return { status, headers, body };
	}

	/**
	 * @param {http.IncomingMessage} req
	 * @param {http.ServerResponse} res
	 */
	async function handle(req, res) {
		const at = options.now();
		const rawUrl = req.url || '/';
		const path = rawUrl.split('?')[0];
		const isAdmin = path.startsWith(ADMIN_PREFIX);
		// A multipart kickoff or upload is read as it streams in, after routing (files are never held whole).
		const streamed = !isAdmin && isStreamedBody(req, path);
		// A proxy in front of the deployment refuses a body over its limit before the service sees it.
		let tooLarge = !isAdmin && overProxyLimit(Number(req.headers['content-length']));
		const read = streamed || tooLarge ? { text: '', size: 0 } : await readBody(req);
		if (!isAdmin && overProxyLimit(read.size)) tooLarge = true;
		const bodyText = read.text;
		// A callback_url of a flow feedback request: its own token, outside the crew API.
		const feedbackAnswer = tooLarge
			? null
			: flowFeedback.respond(req.method || 'GET', rawUrl, bodyText);
		if (feedbackAnswer) return deliver(res, null, feedbackAnswer);
		if (isAdmin) {
			const answer = handleAdmin(req.method || 'GET', path, bodyText);
			if (answer) return deliver(res, null, answer);
		}

		const match = matchRoute(path, options.statusPaths);
		const shownPath = redact(rawUrl);
		/** @type {RequestLogEntry} */
		const entry = {
			method: req.method || 'GET',
			path: shownPath.value,
			route: match.route,
			status: null,
			at,
			tokenType: tokenTypeOf(req.headers.authorization, options.tokens),
		};
		if (shownPath.leaked) entry.tokenLeaked = true;
		if (match.route === 'status') {
			entry.spelling = match.spelling;
			entry.kickoffId = redact(match.kickoffId).value;
		}
		if (match.route === 'stop') entry.kickoffId = redact(match.kickoffId).value;
		requests.push(entry);
		// Logged (a client did send it) but never routed: the proxy answered. The unread body is dropped.
		if (tooLarge) return deliver(res, entry, proxyTooLarge());

		// A fault models the network or a proxy, so it strikes before auth and routing.
		const fault = faults.take(match.route, match.route === 'status' ? match.spelling : undefined);
		const isDelay = fault !== undefined && fault.kind === 'delay';
		if (fault && isDelay && !fault.afterProcessing)
			await sleep(/** @type {number} */ (fault.delayMs));
		if ((!fault || isDelay) && match.route === 'fileDownload')
			return serveUpload(req, res, path, entry);
		const answer =
			!fault || isDelay || fault.afterProcessing
				? await processSafely(req, match, bodyText, entry, streamed)
				: null;
		if (fault && isDelay && fault.afterProcessing)
			await sleep(/** @type {number} */ (fault.delayMs));
		if (coldStartPending) {
			// A cold deployment: the request is taken (a kickoff starts its run), its answer comes late.
			coldStartPending = false;
			await sleep(options.coldStartMs);
		}
		if (closed) return;

		if ((!fault || isDelay) && match.route === 'chatStream' && answer === STREAM_APART) {
			// Server-Sent Events: the chat deployment writes the response itself, frame by frame.
			const query = new URLSearchParams(
				rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '',
			);
			const attached = chat.attach(match.sessionId, query, res);
			if (attached) return deliver(res, entry, attached);
			entry.status = 200;
			return;
		}
		if (!fault || isDelay) return deliver(res, entry, /** @type {Answer} */ (answer));
		if (fault.kind === 'reset') {
			// An RST, not a polite FIN: what a client sees when a proxy or the server dies mid-request.
			req.socket.resetAndDestroy();
			return;
		}
		if (fault.kind === 'hang') return; // never answered; close() destroys the socket
		deliver(res, entry, faultAnswer(fault, bodyText ?? ''));
	}

	/**
	 * Unauthenticated control routes for a server in another process. Returns
	 * null for an unknown /_reference/ path so it is treated like any other path.
	 * @param {string} method
	 * @param {string} path
	 * @param {string | null} bodyText
	 * @returns {Answer | null}
	 */
	function handleAdmin(method, path, bodyText) {
		/** @type {Record<string, { method: string, run: (body: unknown) => unknown }>} */
		const routes = {
			requests: { method: 'GET', run: () => requests },
			runs: { method: 'GET', run: () => runs },
			webhooks: { method: 'GET', run: () => webhooks.deliveries },
			'feedback-requests': { method: 'GET', run: () => flowFeedback.requests },
			'flow-states': { method: 'GET', run: () => service.flowStates },
			uploads: { method: 'GET', run: () => service.uploads },
			'chat/sessions': { method: 'GET', run: () => chat.describe() },
			'chat/release': {
				method: 'POST',
				run: (body) => ({
					ok: true,
					released: chat.release(
						isPlainObject(body) && typeof body.sessionId === 'string' ? body.sessionId : undefined,
					),
				}),
			},
			faults: {
				method: 'POST',
				run: (body) => {
					const list = Array.isArray(body) ? body : [body];
					// Validate all first so a bad entry does not leave half a batch queued.
					const normalized = list.map(normalizeFault);
					for (const f of normalized) service.injectFault(f);
					return { ok: true, queued: normalized.length };
				},
			},
			configure: {
				method: 'POST',
				run: (body) => {
					if (!isPlainObject(body)) throw new TypeError('configure needs a JSON object');
					for (const key of ['plan', 'now', 'host', 'port']) {
						if (key in body) throw new TypeError(`option ${key} cannot be configured over HTTP`);
					}
					service.configure(body);
					return { ok: true, options: publicOptions() };
				},
			},
			reset: {
				method: 'POST',
				run: () => {
					service.reset();
					return { ok: true };
				},
			},
		};
		const route = routes[path.slice(ADMIN_PREFIX.length)];
		if (!route) return null;
		if (method !== route.method)
			return jsonAnswer(405, errors.METHOD_NOT_ALLOWED, { allow: route.method });
		try {
			let body;
			if (route.method === 'POST') {
				if (bodyText === null) throw new TypeError('body too large');
				body = bodyText.trim() === '' ? {} : JSON.parse(bodyText);
			}
			return jsonAnswer(200, route.run(body));
		} catch (err) {
			return jsonAnswer(400, {
				error: 'Bad Request',
				message: err instanceof Error ? err.message : String(err),
			});
		}
	}

	function publicOptions() {
		const { tokens, plan, now, ...rest } = options;
		const flow = rest.flowFeedback && { ...rest.flowFeedback, secret: REDACTED };
		return { ...rest, flowFeedback: flow, inputs: rest.inputs.map((i) => ({ ...i })) };
	}

	const server = http.createServer((req, res) => {
		// Only reading the body can reject here: the client went away mid-request.
		handle(req, res).catch(() => res.destroy());
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, options.host, () => {
			server.off('error', reject);
			resolve(undefined);
		});
	});
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
	options.port = address.port;

	/** @type {Promise<void> | undefined} */
	let closing;

	/** @type {CrewService} */
	const service = {
		url: `http://${hostForUrl}:${address.port}`,
		get tokens() {
			return { ...options.tokens };
		},
		get options() {
			return Object.freeze({
				...options,
				tokens: { ...options.tokens },
				inputs: options.inputs.map((i) => ({ ...i })),
			});
		},
		configure(partial) {
			if (isPlainObject(partial) && ('host' in partial || 'port' in partial)) {
				throw new TypeError('host and port cannot change while the service is listening');
			}
			applyOptions(options, partial);
			if (
				isPlainObject(partial) &&
				typeof partial.coldStartMs === 'number' &&
				partial.coldStartMs > 0
			)
				coldStartPending = true;
			knownTokens.add(options.tokens.organization);
			knownTokens.add(options.tokens.user);
		},
		requests,
		runs,
		webhookDeliveries: webhooks.deliveries,
		feedbackRequests: flowFeedback.requests,
		get chatSessions() {
			return chat.describe();
		},
		releaseTurns(sessionId) {
			return chat.release(sessionId);
		},
		holdMoments() {
			webhooks.holdMoments();
		},
		releaseMoments() {
			return webhooks.releaseMoments();
		},
		get uploads() {
			return [...uploads.uploads.values()].map(({ path: _path, ...upload }) => upload);
		},
		get flowStates() {
			return Object.fromEntries(
				[...flowStates.saved].map(([id, state]) => [id, structuredClone(state)]),
			);
		},
		waitForWebhooks(predicate, timeoutMs = 2000) {
			if (typeof predicate !== 'function')
				throw new TypeError('waitForWebhooks needs a predicate function');
			if (closed) return Promise.reject(new Error('waitForWebhooks: service closed'));
			return webhooks.waitFor(predicate, timeoutMs);
		},
		count(route, method) {
			return requests.filter(
				(e) => e.route === route && (!method || e.method === method.toUpperCase()),
			).length;
		},
		injectFault(fault) {
			faults.add(fault);
		},
		clearFaults() {
			faults.clear();
		},
		reset() {
			// In place, so arrays a test already holds stay live.
			webhooks.cancelAll('cancelled: service reset');
			stream.cancelAll();
			flowFeedback.reset();
			requests.length = 0;
			runs.length = 0;
			webhooks.deliveries.length = 0;
			runsById.clear();
			faults.clear();
			flowStates.reset();
			chat.reset();
			uploads.clear();
		},
		close() {
			if (!closing) {
				closing = new Promise((resolve) => {
					closed = true;
					webhooks.close();
					stream.cancelAll();
					chat.reset();
					uploads.clear();
					for (const timer of timers) clearTimeout(timer);
					timers.clear();
					server.close(() => resolve());
					// server.close() alone waits for hanging and keep-alive sockets forever.
					for (const socket of sockets) socket.destroy();
				});
			}
			return closing;
		},
	};
	return service;
}

module.exports = { startCrewService };
