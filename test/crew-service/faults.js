// @ts-check
'use strict';

/** @typedef {import('./index').Fault} Fault */
/** @typedef {import('./index').Route} Route */
/** @typedef {Fault & { times: number }} QueuedFault */

const FAULT_ROUTES = [
	'inputs',
	'kickoff',
	'status',
	'resume',
	'stop',
	'files',
	'fileDownload',
	'inspect',
	'chatStart',
	'chatMessage',
	'chatStream',
	'chatHistory',
	'any',
];
const STATUS_SPELLINGS = ['contract', 'wild'];
const FAULT_KINDS = ['status', 'reset', 'hang', 'delay', 'emptyBody', 'notJson'];

/**
 * Validates eagerly so a typo fails at injection time, not as a mysteriously
 * un-faulted request later.
 * @param {unknown} input
 * @returns {QueuedFault}
 */
function normalizeFault(input) {
	if (input === null || typeof input !== 'object' || Array.isArray(input))
		throw new TypeError('fault must be an object');
	const f = /** @type {Record<string, any>} */ (input);
	const known = [
		'route',
		'spelling',
		'kind',
		'times',
		'status',
		'body',
		'contentType',
		'headers',
		'delayMs',
		'afterProcessing',
		'echoRequest',
	];
	for (const key of Object.keys(f))
		if (!known.includes(key)) throw new TypeError(`unknown fault field "${key}"`);
	if (!FAULT_ROUTES.includes(f.route))
		throw new TypeError(`fault.route must be one of ${FAULT_ROUTES.join(', ')}`);
	if (f.spelling !== undefined) {
		if (f.route !== 'status') throw new TypeError('fault.spelling is only for route "status"');
		if (!STATUS_SPELLINGS.includes(f.spelling))
			throw new TypeError(`fault.spelling must be one of ${STATUS_SPELLINGS.join(', ')}`);
	}
	if (!FAULT_KINDS.includes(f.kind))
		throw new TypeError(`fault.kind must be one of ${FAULT_KINDS.join(', ')}`);
	const times = f.times === undefined ? 1 : f.times;
	if (!Number.isInteger(times) || times < 1)
		throw new TypeError('fault.times must be a positive integer');
	if (
		f.status !== undefined &&
		!(Number.isInteger(f.status) && f.status >= 200 && f.status <= 599)
	) {
		throw new TypeError('fault.status must be an integer 200..599');
	}
	if (f.kind === 'delay' && !(Number.isInteger(f.delayMs) && f.delayMs >= 0)) {
		throw new TypeError('a delay fault needs delayMs, a non-negative integer');
	}
	for (const key of ['body', 'contentType']) {
		if (f[key] !== undefined && typeof f[key] !== 'string')
			throw new TypeError(`fault.${key} must be a string`);
	}
	if (f.headers !== undefined) {
		if (f.headers === null || typeof f.headers !== 'object' || Array.isArray(f.headers)) {
			throw new TypeError('fault.headers must be an object');
		}
		for (const value of Object.values(f.headers)) {
			if (typeof value !== 'string') throw new TypeError('fault header values must be strings');
		}
	}
	if (f.afterProcessing !== undefined && typeof f.afterProcessing !== 'boolean') {
		throw new TypeError('fault.afterProcessing must be a boolean');
	}
	if (
		f.echoRequest !== undefined &&
		(f.kind !== 'status' || typeof f.echoRequest !== 'boolean' || f.body !== undefined)
	) {
		throw new TypeError('fault.echoRequest is a boolean, for a status fault without a body');
	}
	return /** @type {QueuedFault} */ ({ ...f, times });
}

class FaultQueue {
	constructor() {
		/** @type {QueuedFault[]} */
		this.queue = [];
	}

	/** @param {unknown} fault */
	add(fault) {
		this.queue.push(normalizeFault(fault));
	}

	/**
	 * The first queued fault that matches the request is used up by it. A
	 * status fault with a spelling strikes only requests at that path spelling.
	 * @param {Route} route
	 * @param {'contract' | 'wild'} [spelling] of a status request
	 * @returns {QueuedFault | undefined}
	 */
	take(route, spelling) {
		const index = this.queue.findIndex(
			(f) =>
				f.route === 'any' ||
				(f.route === route && (f.spelling === undefined || f.spelling === spelling)),
		);
		if (index === -1) return undefined;
		const fault = this.queue[index];
		fault.times -= 1;
		if (fault.times === 0) this.queue.splice(index, 1);
		return fault;
	}

	clear() {
		this.queue.length = 0;
	}
}

module.exports = { FaultQueue, normalizeFault };
