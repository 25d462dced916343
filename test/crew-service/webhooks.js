// @ts-check
'use strict';

const http = require('node:http');
const https = require('node:https');
const { webhookPayload, TASKS } = require('./runs');

/** @typedef {import('./index').Run} Run */
/** @typedef {import('./index').WebhookDelivery} WebhookDelivery */
/** @typedef {import('./index').WebhookKind} WebhookKind */
/** @typedef {import('./index').ResolvedCrewServiceOptions['webhookTargets']} WebhookTargets */
/** @typedef {import('./runs').Segment} Segment */
/** @typedef {import('./runs').TimelineEvent} TimelineEvent */
/**
 * One run's pending webhook moments, fired in order by a single timer.
 * @typedef {{ run: Run, events: TimelineEvent[], offset: number, startedAt: number, urls: Run['webhooks'], timer: NodeJS.Timeout | null }} Schedule
 */
/** @typedef {{ check: () => boolean, fail: (err: Error) => void }} Waiter */

const DELIVERY_TIMEOUT_MS = 5000;
// setTimeout fires at once for anything longer (with a warning); longer waits re-arm.
const MAX_TIMER_MS = 2 ** 31 - 1;
/** @type {Record<'step' | 'task' | 'crew', keyof Run['webhooks']>} */
const URL_FIELD = { step: 'stepWebhookUrl', task: 'taskWebhookUrl', crew: 'crewWebhookUrl' };

/**
 * Loopback by name or address only: nothing is resolved, so 'loopback' never
 * causes a DNS lookup.
 * @param {string} hostname as URL.hostname gives it (IPv6 in brackets)
 */
function isLoopbackHost(hostname) {
	const host = hostname.toLowerCase();
	return (
		host === 'localhost' ||
		host.endsWith('.localhost') ||
		/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
		host === '[::1]' ||
		host === '[0:0:0:0:0:0:0:1]'
	);
}

/**
 * Calls the webhook URLs of runs in real time (setTimeout, never the
 * injectable clock), fire-and-forget: one attempt, a 5 s limit, no retry.
 * Every call is recorded in `deliveries`.
 */
class WebhookDispatcher {
	/**
	 * @param {{ targets: () => WebhookTargets, onMoment?: (run: Run, event: TimelineEvent, payload: Record<string, any>, pausesHere: boolean) => void, wantsEveryMoment?: (run: Run) => boolean }} config
	 * onMoment sees every moment of a run for which wantsEveryMoment is true (event stream,
	 * human-input and flow feedback calls), whether or not a legacy URL is set for it.
	 */
	constructor(config) {
		this.config = config;
		/** @type {WebhookDelivery[]} */
		this.deliveries = [];
		/** @type {Map<Run, Schedule>} */
		this.schedules = new Map();
		/**
		 * While holding (holdMoments), the schedules started, not yet timed: a test lets the
		 * moments begin when it chooses, whatever the machine's speed. null when not holding.
		 * @type {Schedule[] | null}
		 */
		this.held = null;
		/** @type {Set<{ req: http.ClientRequest, timer: NodeJS.Timeout }>} */
		this.inflight = new Set();
		/** @type {Set<Waiter>} */
		this.waiters = new Set();
	}

	/**
	 * Starts a run's next segment now (real time). A segment still pending
	 * for that run is flushed first, so every moment is sent once, in order.
	 * @param {Run} run
	 * @param {Segment} segment
	 * @param {Run['webhooks']} urls
	 */
	schedule(run, segment, urls) {
		this.flush(run);
		const everyMoment = this.config.wantsEveryMoment ? this.config.wantsEveryMoment(run) : false;
		const events = segment.events.filter(
			(e) => everyMoment || urls[URL_FIELD[e.kind]] !== undefined,
		);
		if (events.length === 0) return;
		/** @type {Schedule} */
		const schedule = {
			run,
			events,
			offset: segment.offset,
			startedAt: Date.now(),
			urls,
			timer: null,
		};
		this.schedules.set(run, schedule);
		if (this.held) this.held.push(schedule);
		else this.arm(schedule);
	}

	/** From now on, runs' moments wait for releaseMoments() before their real time starts. */
	holdMoments() {
		if (!this.held) this.held = [];
	}

	/**
	 * Starts the real time of every held schedule now (each moment at its offset from now),
	 * and stops holding. Returns how many schedules it started.
	 */
	releaseMoments() {
		/** @type {Schedule[]} */
		const held = this.held ?? [];
		this.held = null;
		let started = 0;
		for (const schedule of held) {
			// Flushed (a resume) or cancelled (reset, close) while held: nothing left to time.
			if (this.schedules.get(schedule.run) !== schedule) continue;
			schedule.startedAt = Date.now();
			this.arm(schedule);
			started++;
		}
		return started;
	}

	/**
	 * Sends at once whatever is still pending for a run (a resume accepted by
	 * the service clock before real time reached the pause).
	 * @param {Run} run
	 */
	flush(run) {
		const schedule = this.schedules.get(run);
		if (!schedule) return;
		if (schedule.timer) clearTimeout(schedule.timer);
		this.schedules.delete(run);
		for (const event of schedule.events) this.send(schedule, event);
	}

	/**
	 * Drops a run's pending moments unsent: a stopped run calls nobody again.
	 * @param {Run} run
	 */
	discard(run) {
		const schedule = this.schedules.get(run);
		if (!schedule) return;
		if (schedule.timer) clearTimeout(schedule.timer);
		this.schedules.delete(run);
	}

	/** @param {Schedule} schedule */
	arm(schedule) {
		const due = schedule.events[0].at - schedule.offset;
		const delay = Math.max(0, due - (Date.now() - schedule.startedAt));
		schedule.timer = setTimeout(() => this.tick(schedule), Math.min(delay, MAX_TIMER_MS));
	}

	/** @param {Schedule} schedule */
	tick(schedule) {
		schedule.timer = null;
		const elapsed = Date.now() - schedule.startedAt;
		while (schedule.events.length > 0 && schedule.events[0].at - schedule.offset <= elapsed) {
			this.send(schedule, /** @type {TimelineEvent} */ (schedule.events.shift()));
		}
		if (schedule.events.length > 0) this.arm(schedule);
		else this.schedules.delete(schedule.run);
	}

	/**
	 * @param {Schedule} schedule
	 * @param {TimelineEvent} event
	 */
	send(schedule, event) {
		const { run } = schedule;
		const url = schedule.urls[URL_FIELD[event.kind]];
		const payload = webhookPayload(run, event);
		if (url !== undefined) this.deliver(event.kind, url, run.kickoffId, payload);
		// A paused task's task moment always ends its segment: the run waits for a human there.
		const pausesHere =
			event.kind === 'task' &&
			run.plan.humanInput !== null &&
			run.plan.humanInput.taskIds.includes(
				/** @type {import('./index').TaskId} */ (TASKS[event.taskIndex].id),
			);
		if (this.config.onMoment)
			this.config.onMoment(run, event, /** @type {Record<string, any>} */ (payload), pausesHere);
	}

	/**
	 * @param {WebhookKind} kind
	 * @param {string} url
	 * @param {string} kickoffId
	 * @param {WebhookDelivery['payload']} payload
	 * @param {Record<string, string>} [headers] extra request headers (callback auth, signature)
	 * @param {WebhookDelivery['auth']} [auth] what the record shows of that auth (never the secret)
	 */
	deliver(kind, url, kickoffId, payload, headers = {}, auth) {
		/** @type {WebhookDelivery} */
		const record = {
			kind,
			url,
			kickoffId,
			at: Date.now(),
			payload,
			status: null,
			...(auth ? { auth } : {}),
		};
		this.deliveries.push(record);
		/** @param {string} error */
		const notSent = (error) => {
			record.error = error;
			this.notify();
		};
		/** @type {URL} */
		let target;
		try {
			target = new URL(url);
		} catch {
			return notSent('not sent: invalid URL');
		}
		if (target.protocol !== 'http:' && target.protocol !== 'https:')
			return notSent(`not sent: unsupported scheme ${target.protocol}`);
		if (this.config.targets() === 'loopback' && !isLoopbackHost(target.hostname)) {
			return notSent(
				`not sent: ${target.hostname} is not a loopback host (option webhookTargets is 'loopback')`,
			);
		}
		const body = JSON.stringify(payload);
		const request = target.protocol === 'https:' ? https.request : http.request;
		const req = request(target, {
			method: 'POST',
			agent: false, // one connection per call, closed after: nothing lingers in a pool
			headers: {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(body),
				'user-agent': 'crew-service-reference',
				...headers,
			},
		});
		const entry = {
			req,
			timer: setTimeout(
				() => req.destroy(new Error(`timed out after ${DELIVERY_TIMEOUT_MS} ms`)),
				DELIVERY_TIMEOUT_MS,
			),
		};
		this.inflight.add(entry);
		let done = false;
		const finish = () => {
			if (done) return;
			done = true;
			clearTimeout(entry.timer);
			this.inflight.delete(entry);
			this.notify();
		};
		req.on('response', (res) => {
			record.status = res.statusCode === undefined ? null : res.statusCode;
			res.on('end', finish);
			res.on('close', finish);
			res.on('error', finish);
			res.resume();
		});
		req.on('error', (err) => {
			if (record.status === null) record.error = err.message || String(err);
			finish();
		});
		req.end(body);
		this.notify();
	}

	notify() {
		for (const waiter of [...this.waiters]) waiter.check();
	}

	/**
	 * @param {(deliveries: WebhookDelivery[]) => boolean} predicate
	 * @param {number} timeoutMs
	 * @returns {Promise<WebhookDelivery[]>}
	 */
	waitFor(predicate, timeoutMs) {
		return new Promise((resolve, reject) => {
			/** @type {NodeJS.Timeout | undefined} */
			let timer;
			/** @type {Waiter} */
			const waiter = {
				check: () => {
					let met;
					try {
						met = predicate(this.deliveries);
					} catch (err) {
						waiter.fail(err instanceof Error ? err : new Error(String(err)));
						return true;
					}
					if (!met) return false;
					clearTimeout(timer);
					this.waiters.delete(waiter);
					resolve(this.deliveries);
					return true;
				},
				fail: (err) => {
					clearTimeout(timer);
					this.waiters.delete(waiter);
					reject(err);
				},
			};
			if (waiter.check()) return;
			this.waiters.add(waiter);
			timer = setTimeout(() => {
				const seen = this.deliveries.map(
					(d) => `${d.kind} ${d.status === null ? d.error || 'pending' : d.status}`,
				);
				waiter.fail(
					new Error(
						`waitForWebhooks: not met within ${timeoutMs} ms; deliveries so far: [${seen.join(', ')}]`,
					),
				);
			}, timeoutMs);
		});
	}

	/**
	 * Cancels every pending moment and aborts calls in flight; their records
	 * (if still listed) get the reason as error.
	 * @param {string} reason
	 */
	cancelAll(reason) {
		for (const schedule of this.schedules.values())
			if (schedule.timer) clearTimeout(schedule.timer);
		this.schedules.clear();
		this.held = null;
		for (const entry of [...this.inflight]) entry.req.destroy(new Error(reason));
	}

	/** For close(): nothing may keep the process alive afterwards. */
	close() {
		this.cancelAll('cancelled: service closed');
		for (const waiter of [...this.waiters])
			waiter.fail(new Error('waitForWebhooks: service closed'));
	}
}

module.exports = { WebhookDispatcher, isLoopbackHost, DELIVERY_TIMEOUT_MS };
