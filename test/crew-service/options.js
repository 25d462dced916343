// @ts-check
'use strict';

const { randomBytes } = require('node:crypto');
const { resolveChatOptions } = require('./chatApi');

/** @typedef {import('./index').CrewServiceOptions} CrewServiceOptions */
/** @typedef {import('./index').ResolvedCrewServiceOptions} ResolvedCrewServiceOptions */
/** @typedef {import('./index').CrewInput} CrewInput */

const ENUMS = {
	inputsShape: ['names', 'objects'],
	recordShape: ['contract', 'wild'],
	statusPaths: ['both', 'contract', 'wild'],
	errorShape: ['documented', 'fastapi'],
	webhookTargets: ['loopback', 'any'],
	// documented: the contract and the documents' answers; live: as the "Live" facts of docs/development/service-api.md (2026-10-01) say the hosted service answers.
	dialect: ['documented', 'live'],
	// crew: the crew of runs.js (a run can still be a persisted flow by its plan); flow: a deployed flow (flowRuns.js).
	deployment: ['crew', 'flow'],
	// accepted: a crewAI with native file inputs; refused: an older one (multipart 422, no POST /files).
	multipartKickoff: ['accepted', 'refused'],
};

const KNOWN_KEYS = [
	'host',
	'port',
	'tokens',
	'inputs',
	'inputsShape',
	'recordShape',
	'statusPaths',
	'errorShape',
	'durationMs',
	'plan',
	'now',
	'webhookTargets',
	'eventStream',
	'flowFeedback',
	'dialect',
	'deployment',
	'chat',
	'registrationLagReads',
	'registrationDelayMs',
	'coldStartMs',
	'stopRoute',
	'maxFileBytes',
	'multipartKickoff',
	'flowFileFields',
];
// true: POST /stop/{id} is served; false: the deployment has no such route (404); 'methodNotAllowed': 405.
const STOP_ROUTES = [true, false, 'methodNotAllowed'];

/** @param {string} prefix */
function randomToken(prefix) {
	// Distinctive prefixes make a leaked token easy to spot in any output.
	return `${prefix}-${randomBytes(16).toString('hex')}`;
}

/** @returns {ResolvedCrewServiceOptions} */
function defaultOptions() {
	return {
		host: '127.0.0.1',
		port: 0,
		tokens: { organization: randomToken('org-tok'), user: randomToken('usr-tok') },
		inputs: [
			{ name: 'topic', required: true },
			{ name: 'audience', required: false },
		],
		inputsShape: 'names',
		recordShape: 'contract',
		statusPaths: 'both',
		errorShape: 'documented',
		durationMs: 2000,
		plan: undefined,
		now: Date.now,
		webhookTargets: 'loopback',
		eventStream: { flushMs: 100, shuffle: true, duplicate: false },
		flowFeedback: null,
		dialect: 'documented',
		deployment: 'crew',
		// null: a crew (no chat API); an object: a deployed conversational flow (chatApi.js).
		chat: null,
		registrationLagReads: 0,
		registrationDelayMs: 0,
		coldStartMs: 0,
		// null: no proxy limit; a number: a body over it gets a proxy's 413.
		maxFileBytes: null,
		multipartKickoff: 'accepted',
		flowFileFields: [],
		stopRoute: true,
	};
}

/**
 * Throws on anything a test author could have mistyped: a silently ignored
 * option would make the oracle answer differently from what the test assumes.
 * @param {Record<string, unknown>} partial
 */
function validatePartial(partial) {
	if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
		throw new TypeError('options must be an object');
	}
	for (const key of Object.keys(partial)) {
		if (!KNOWN_KEYS.includes(key)) throw new TypeError(`unknown option "${key}"`);
	}
	for (const [key, allowed] of Object.entries(ENUMS)) {
		const value = partial[key];
		if (value !== undefined && !allowed.includes(/** @type {string} */ (value))) {
			throw new TypeError(
				`option ${key} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`,
			);
		}
	}
	if (partial.host !== undefined && (typeof partial.host !== 'string' || partial.host === '')) {
		throw new TypeError('option host must be a non-empty string');
	}
	if (partial.port !== undefined && !isIntegerIn(partial.port, 0, 65535)) {
		throw new TypeError('option port must be an integer 0..65535');
	}
	if (
		partial.durationMs !== undefined &&
		!isIntegerIn(partial.durationMs, 0, Number.MAX_SAFE_INTEGER)
	) {
		throw new TypeError('option durationMs must be a non-negative integer');
	}
	if (
		partial.registrationLagReads !== undefined &&
		!isIntegerIn(partial.registrationLagReads, 0, 1000)
	) {
		throw new TypeError('option registrationLagReads must be an integer 0..1000');
	}
	if (
		partial.registrationDelayMs !== undefined &&
		!isIntegerIn(partial.registrationDelayMs, 0, 600_000)
	) {
		throw new TypeError('option registrationDelayMs must be an integer 0..600000');
	}
	if (partial.coldStartMs !== undefined && !isIntegerIn(partial.coldStartMs, 0, 600_000)) {
		throw new TypeError('option coldStartMs must be an integer 0..600000');
	}
	if (
		partial.maxFileBytes !== undefined &&
		partial.maxFileBytes !== null &&
		!isIntegerIn(partial.maxFileBytes, 0, Number.MAX_SAFE_INTEGER)
	) {
		throw new TypeError('option maxFileBytes must be null or a non-negative integer');
	}
	if (partial.flowFileFields !== undefined) {
		const fields = partial.flowFileFields;
		if (
			!Array.isArray(fields) ||
			fields.some(
				(f) => typeof f !== 'string' || f === '' || ['topic', 'count', 'id', 'history'].includes(f),
			)
		) {
			throw new TypeError(
				'option flowFileFields must be an array of field names other than topic, count, id and history',
			);
		}
	}
	if (
		partial.stopRoute !== undefined &&
		!STOP_ROUTES.includes(/** @type {boolean | string} */ (partial.stopRoute))
	) {
		throw new TypeError(
			`option stopRoute must be one of true, false, 'methodNotAllowed'; got ${JSON.stringify(partial.stopRoute)}`,
		);
	}
	for (const fn of ['plan', 'now']) {
		if (partial[fn] !== undefined && typeof partial[fn] !== 'function') {
			throw new TypeError(`option ${fn} must be a function`);
		}
	}
	if (partial.tokens !== undefined) validateTokens(partial.tokens);
	if (partial.eventStream !== undefined) validateEventStream(partial.eventStream);
	if (partial.flowFeedback !== undefined && partial.flowFeedback !== null)
		validateFlowFeedback(partial.flowFeedback);
	if (partial.inputs !== undefined) validateInputs(partial.inputs);
	if (partial.chat !== undefined) resolveChatOptions(partial.chat);
}

/** @param {unknown} tokens */
function validateTokens(tokens) {
	if (tokens === null || typeof tokens !== 'object' || Array.isArray(tokens)) {
		throw new TypeError('option tokens must be an object');
	}
	for (const [type, value] of Object.entries(tokens)) {
		if (type !== 'organization' && type !== 'user')
			throw new TypeError(`unknown token type "${type}"`);
		if (value === undefined) continue;
		// No whitespace: the bearer parser splits on it, so such a token could never match.
		if (typeof value !== 'string' || !/^\S+$/.test(value)) {
			throw new TypeError(`token ${type} must be a non-empty string without whitespace`);
		}
	}
}

/** @param {unknown} value */
function validateEventStream(value) {
	if (value === null || typeof value !== 'object' || Array.isArray(value))
		throw new TypeError('option eventStream must be an object');
	const v = /** @type {Record<string, unknown>} */ (value);
	for (const key of Object.keys(v)) {
		if (!['flushMs', 'shuffle', 'duplicate'].includes(key))
			throw new TypeError(`unknown eventStream option "${key}"`);
	}
	if (v.flushMs !== undefined && !isIntegerIn(v.flushMs, 0, 60_000))
		throw new TypeError('option eventStream.flushMs must be an integer 0..60000');
	for (const key of ['shuffle', 'duplicate']) {
		if (v[key] !== undefined && typeof v[key] !== 'boolean')
			throw new TypeError(`option eventStream.${key} must be a boolean`);
	}
}

/** @param {unknown} value */
function validateFlowFeedback(value) {
	if (typeof value !== 'object' || Array.isArray(value))
		throw new TypeError('option flowFeedback must be an object or null');
	const v = /** @type {Record<string, unknown>} */ (value);
	for (const key of Object.keys(v)) {
		if (!['url', 'secret', 'headers', 'shape'].includes(key))
			throw new TypeError(`unknown flowFeedback option "${key}"`);
	}
	if (typeof v.url !== 'string' || v.url === '')
		throw new TypeError('option flowFeedback.url must be a non-empty string');
	if (typeof v.secret !== 'string' || !v.secret.startsWith('whsec_'))
		throw new TypeError('option flowFeedback.secret must be a "whsec_..." string');
	if (v.headers !== undefined && v.headers !== 'current' && v.headers !== 'crewai')
		throw new TypeError('option flowFeedback.headers must be current or crewai');
	if (v.shape !== undefined && v.shape !== 'nested' && v.shape !== 'flat')
		throw new TypeError('option flowFeedback.shape must be nested or flat');
}

/** @param {unknown} inputs */
function validateInputs(inputs) {
	if (!Array.isArray(inputs)) throw new TypeError('option inputs must be an array');
	for (const input of inputs) {
		if (input === null || typeof input !== 'object' || typeof input.name !== 'string') {
			throw new TypeError('each input must be an object with a string name');
		}
		if (input.type !== undefined && typeof input.type !== 'string')
			throw new TypeError('input type must be a string');
		if (input.required !== undefined && typeof input.required !== 'boolean') {
			throw new TypeError('input required must be a boolean');
		}
	}
}

/**
 * @param {ResolvedCrewServiceOptions} target
 * @param {Partial<CrewServiceOptions>} partial
 */
function applyOptions(target, partial) {
	validatePartial(/** @type {Record<string, unknown>} */ (partial));
	const { tokens, inputs, flowFileFields, ...rest } = partial;
	const nextTokens = { ...target.tokens, ...stripUndefined(tokens || {}) };
	// Equal tokens would make the logged token type meaningless.
	if (nextTokens.organization === nextTokens.user) {
		throw new TypeError('organization and user tokens must differ');
	}
	const { eventStream, flowFeedback, chat, ...plain } = rest;
	if (chat !== undefined) target.chat = resolveChatOptions(chat);
	Object.assign(target, stripUndefined(plain));
	if (eventStream !== undefined)
		target.eventStream = { ...target.eventStream, ...stripUndefined(eventStream) };
	if (flowFeedback !== undefined)
		target.flowFeedback =
			flowFeedback === null ? null : { headers: 'current', shape: 'nested', ...flowFeedback };
	target.tokens = nextTokens;
	if (inputs !== undefined) target.inputs = inputs.map((input) => ({ ...input }));
	if (flowFileFields !== undefined) target.flowFileFields = [...flowFileFields];
	// `plan: undefined` passed explicitly means "back to the defaults".
	if ('plan' in partial && partial.plan === undefined) target.plan = undefined;
}

/**
 * @template {object} T
 * @param {T} obj
 * @returns {T}
 */
function stripUndefined(obj) {
	return /** @type {T} */ (
		Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined))
	);
}

/**
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 */
function isIntegerIn(value, min, max) {
	return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * @param {Partial<CrewServiceOptions>} [userOptions]
 * @returns {ResolvedCrewServiceOptions}
 */
function resolveOptions(userOptions = {}) {
	const options = defaultOptions();
	applyOptions(options, userOptions);
	return options;
}

module.exports = { resolveOptions, applyOptions, validatePartial, KNOWN_KEYS };
