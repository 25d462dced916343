// @ts-check
'use strict';

const { createHmac, randomBytes, randomUUID } = require('node:crypto');
const { TASKS } = require('./runs');

/** @typedef {import('./index').Run} Run */
/** @typedef {import('./index').FeedbackRequestRecord} FeedbackRequestRecord */
/** @typedef {import('./index').ResolvedCrewServiceOptions['flowFeedback']} FlowFeedbackOptions */
/** @typedef {import('./webhooks').WebhookDispatcher} WebhookDispatcher */
/** @typedef {{ status: number, headers?: Record<string, string>, body: string }} Answer */

// The Jan-12 doc's form of a callback_url; the token is in the URL, as there.
const RESPOND_PATH = /^\/crewai_plus\/api\/v1\/human_feedback_requests\/([^/]+)\/respond$/;
const EMIT = ['approved', 'rejected'];

/** @param {number} status @param {unknown} value @returns {Answer} */
function json(status, value) {
	return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

/**
 * The HMAC-SHA256 signature of a flow HITL webhook (FHITL, FHITL-Jan12): the whole
 * `whsec_...` secret as key, `"{timestamp}.{raw body}"` as message, `sha256=<hex>`.
 * @param {string} secret
 * @param {number} timestamp Unix seconds
 * @param {string} rawBody
 */
function sign(secret, timestamp, rawBody) {
	return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/**
 * Flow human-in-the-loop as FHITL documents it, for runs paused for human input while the
 * option `flowFeedback` is set (in reality a dashboard setting of the deployment): a signed
 * `new_request` POST (one attempt, no retry), and a `callback_url` that takes one answer
 * (`{feedback}`; 200, then 409 `already_responded`; 401 for a wrong token). The answer
 * approves the paused task with the feedback, and the run goes on.
 */
class FlowFeedback {
	/**
	 * @param {{ dispatcher: WebhookDispatcher, options: () => FlowFeedbackOptions, now: () => number, baseUrl: () => string, answer: (run: Run, feedback: string) => void }} config
	 */
	constructor(config) {
		this.config = config;
		/** @type {FeedbackRequestRecord[]} */
		this.requests = [];
		/** @type {Map<string, { run: Run, token: string, record: FeedbackRequestRecord }>} */
		this.byId = new Map();
	}

	/**
	 * Sends the signed request for a run that just paused.
	 * @param {Run} run
	 * @param {number} taskIndex
	 * @param {string} output
	 */
	pause(run, taskIndex, output) {
		const options = this.config.options();
		if (!options) return;
		const id = randomUUID();
		const token = randomBytes(16).toString('hex');
		const callbackUrl = `${this.config.baseUrl()}/crewai_plus/api/v1/human_feedback_requests/${id}/respond?token=${token}`;
		const createdAt = new Date(this.config.now()).toISOString();
		const request = {
			id,
			flow_id: run.kickoffId,
			method_name: TASKS[taskIndex].id,
			message: `Please review the output of ${TASKS[taskIndex].id}.`,
			state: { id: run.kickoffId, inputs: { ...run.inputs } },
			metadata: {},
			created_at: createdAt,
		};
		const payload =
			options.shape === 'flat'
				? {
						event_type: 'new_request',
						...request,
						status: 'pending',
						flow_class: 'ReferenceFlow',
						output,
						emit: EMIT,
						callback_url: callbackUrl,
						response_token: token,
						deployment_id: 1,
						deployment_name: 'Reference Flow',
						assigned_to_email: 'reviewer@example.com',
						assigned_at: createdAt,
					}
				: {
						event: 'new_request',
						request: { ...request, output, emit_options: EMIT },
						deployment: { id: 1, name: 'Reference Flow', organization_id: 1 },
						callback_url: callbackUrl,
						assigned_to_email: 'reviewer@example.com',
					};
		const timestamp = Math.floor(this.config.now() / 1000);
		const signature = sign(options.secret, timestamp, JSON.stringify(payload));
		/** @type {Record<string, string>} */
		const headers =
			options.headers === 'crewai'
				? { 'X-CrewAI-Signature': signature, 'X-CrewAI-Timestamp': String(timestamp) }
				: { 'X-Signature': signature, 'X-Timestamp': String(timestamp) };
		/** @type {FeedbackRequestRecord} */
		const record = {
			id,
			kickoffId: run.kickoffId,
			taskId: /** @type {FeedbackRequestRecord['taskId']} */ (TASKS[taskIndex].id),
			answers: [],
		};
		this.requests.push(record);
		this.byId.set(id, { run, token, record });
		this.config.dispatcher.deliver(
			'feedbackRequest',
			options.url,
			run.kickoffId,
			payload,
			headers,
			'signature',
		);
	}

	/**
	 * Answers a request to a callback_url path, or null when the path is not one.
	 * @param {string} method
	 * @param {string} rawUrl
	 * @param {string | null} bodyText
	 * @returns {Answer | null}
	 */
	respond(method, rawUrl, bodyText) {
		const url = new URL(rawUrl, 'http://reference.invalid');
		const match = RESPOND_PATH.exec(url.pathname);
		if (!match) return null;
		if (method !== 'POST')
			return {
				...json(405, { error: 'method_not_allowed' }),
				headers: { 'content-type': 'application/json', allow: 'POST' },
			};
		const entry = this.byId.get(decodeURIComponent(match[1]));
		const given = url.searchParams.get('token');
		if (!entry || given !== entry.token)
			return json(401, { error: 'unauthorized', message: 'Invalid response token' });
		/** @type {unknown} */
		let body;
		try {
			body = JSON.parse(bodyText || '');
		} catch {
			body = undefined;
		}
		const feedback =
			body !== null && typeof body === 'object'
				? /** @type {Record<string, unknown>} */ (body).feedback
				: undefined;
		if (typeof feedback !== 'string')
			return json(422, { error: 'invalid_request', message: '"feedback" (a string) is required' });
		const { record } = entry;
		record.answers.push({ feedback, status: record.answers.length === 0 ? 200 : 409 });
		if (record.answers.length > 1)
			return json(409, {
				error: 'already_responded',
				message: 'This request was already answered',
			});
		const outcome = EMIT.includes(feedback.trim().toLowerCase())
			? feedback.trim().toLowerCase()
			: null;
		this.config.answer(entry.run, feedback);
		return json(200, {
			status: 'accepted',
			request: {
				id: record.id,
				status: 'responded',
				feedback,
				outcome,
				responded_at: new Date(this.config.now()).toISOString(),
				responded_via: 'api',
			},
		});
	}

	reset() {
		this.requests.length = 0;
		this.byId.clear();
	}
}

module.exports = { FlowFeedback, sign };
