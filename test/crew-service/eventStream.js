// @ts-check
'use strict';

const { randomUUID } = require('node:crypto');
const { TASKS, describeInputs, taskOutputHeader, liveTaskId } = require('./runs');
const { flowDeploymentOf, flowStreamEventsOf } = require('./flowRuns');

/** @typedef {import('./index').Run} Run */
/** @typedef {import('./index').StreamEvent} StreamEvent */
/** @typedef {import('./index').ResolvedCrewServiceOptions['eventStream']} EventStreamOptions */
/** @typedef {import('./runs').Segment} Segment */
/** @typedef {import('./runs').TimelineEvent} TimelineEvent */
/** @typedef {import('./webhooks').WebhookDispatcher} WebhookDispatcher */
/**
 * A kickoff's `webhooks` and `humanInputWebhook` objects, as given (tokens included). Kept
 * here, never on the Run, so that `service.runs` and its admin route never show a token.
 * @typedef {{ strategy: 'bearer', token: string } | { strategy: 'basic', username: string, password: string }} CallbackAuth
 * @typedef {{ url: string, events: string[], realtime: boolean, auth: { strategy: 'bearer', token: string } | null }} StreamConfig
 * @typedef {{ url: string, auth: CallbackAuth | null, live?: true }} HumanInputConfig
 * @typedef {{ stream: StreamConfig | null, humanInput: HumanInputConfig | null }} CallbackConfig
 */

const REDACTED = '[REDACTED]';

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isPlainObject(value) {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads `authentication` as WS (bearer) and LHITL (bearer or basic) document it.
 * @param {unknown} value
 * @param {string} where
 * @param {boolean} basicAllowed
 * @returns {CallbackAuth | null}
 */
function readAuth(value, where, basicAllowed) {
	if (value === undefined || value === null) return null;
	if (!isPlainObject(value)) throw new TypeError(`"${where}.authentication" must be an object`);
	if (value.strategy === 'bearer') {
		if (typeof value.token !== 'string' || value.token === '')
			throw new TypeError(`"${where}.authentication.token" must be a non-empty string`);
		return { strategy: 'bearer', token: value.token };
	}
	if (value.strategy === 'basic' && basicAllowed) {
		if (typeof value.username !== 'string' || typeof value.password !== 'string') {
			throw new TypeError(`"${where}.authentication" needs string username and password`);
		}
		return { strategy: 'basic', username: value.username, password: value.password };
	}
	const allowed = basicAllowed ? '"bearer" or "basic"' : '"bearer"';
	throw new TypeError(`"${where}.authentication.strategy" must be ${allowed}`);
}

/**
 * The callback objects of a kickoff body. Throws TypeError (answered 400) on a wrong shape.
 * @param {Record<string, unknown>} body
 * @returns {CallbackConfig}
 */
function readCallbackConfig(body) {
	/** @type {CallbackConfig} */
	const config = { stream: null, humanInput: null };
	const { webhooks, humanInputWebhook } = body;
	if (webhooks !== undefined) {
		if (!isPlainObject(webhooks)) throw new TypeError('"webhooks" must be an object');
		if (typeof webhooks.url !== 'string') throw new TypeError('"webhooks.url" must be a string');
		const events = webhooks.events === undefined ? [] : webhooks.events;
		if (!Array.isArray(events) || events.some((e) => typeof e !== 'string'))
			throw new TypeError('"webhooks.events" must be an array of strings');
		if (webhooks.realtime !== undefined && typeof webhooks.realtime !== 'boolean')
			throw new TypeError('"webhooks.realtime" must be a boolean');
		config.stream = {
			url: webhooks.url,
			events: /** @type {string[]} */ (events),
			realtime: webhooks.realtime === true,
			auth: /** @type {StreamConfig['auth']} */ (
				readAuth(webhooks.authentication, 'webhooks', false)
			),
		};
	}
	if (humanInputWebhook !== undefined) {
		if (!isPlainObject(humanInputWebhook))
			throw new TypeError('"humanInputWebhook" must be an object');
		if (typeof humanInputWebhook.url !== 'string')
			throw new TypeError('"humanInputWebhook.url" must be a string');
		config.humanInput = {
			url: humanInputWebhook.url,
			auth: readAuth(humanInputWebhook.authentication, 'humanInputWebhook', true),
		};
	}
	return config;
}

/**
 * The body as the request log shows it: callback tokens and passwords replaced,
 * since the client sends them on purpose (they are not leaks).
 * @param {Record<string, unknown>} body
 */
function redactCallbackSecrets(body) {
	/** @param {unknown} holder */
	const redactAuth = (holder) => {
		if (!isPlainObject(holder) || !isPlainObject(holder.authentication)) return holder;
		const auth = { ...holder.authentication };
		for (const key of ['token', 'password']) if (key in auth) auth[key] = REDACTED;
		return { ...holder, authentication: auth };
	};
	const out = { ...body };
	if ('webhooks' in out) out.webhooks = redactAuth(out.webhooks);
	if ('humanInputWebhook' in out) out.humanInputWebhook = redactAuth(out.humanInputWebhook);
	return out;
}

/** What a run shows about its callbacks: everything but the secrets. @param {CallbackConfig} config */
function describeCallbacks(config) {
	/** @param {CallbackAuth | null} auth */
	const strategy = (auth) => (auth ? auth.strategy : null);
	return {
		stream: config.stream && {
			url: config.stream.url,
			events: [...config.stream.events],
			realtime: config.stream.realtime,
			auth: strategy(config.stream.auth),
		},
		humanInput: config.humanInput && {
			url: config.humanInput.url,
			auth: strategy(config.humanInput.auth),
		},
	};
}

/** @param {CallbackAuth | null} auth @returns {Record<string, string>} */
function authHeader(auth) {
	if (!auth) return {};
	if (auth.strategy === 'bearer') return { authorization: `Bearer ${auth.token}` };
	return {
		authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`,
	};
}

/** The final task's output, as the open-source emitter puts it in crew_kickoff_completed (a TaskOutput). */
function taskOutputObject(
	/** @type {number} */ taskIndex,
	/** @type {string} */ raw,
	/** @type {object | null} */ json,
	/** @type {string} */ described,
) {
	return {
		...taskOutputHeader(taskIndex, described),
		raw,
		pydantic: null,
		json_dict: json,
		agent: TASKS[taskIndex].agent,
		output_format: json ? 'json' : 'raw',
	};
}

/**
 * The stream events (type and data) of one timeline moment, in the order they happen:
 * a task's first step starts it; every step is a tool use; a task's end completes it
 * (or fails it, for the report task of a failing run, together with the crew).
 * `legacy` is the legacy payload of the moment (from runs.webhookPayload), reused for the data.
 * @param {Run} run
 * @param {TimelineEvent} event
 * @param {Record<string, any>} legacy
 * @returns {{ type: string, data: Record<string, unknown> }[]}
 */
function streamEventsOf(run, event, legacy) {
	if (flowDeploymentOf(run)) return flowStreamEventsOf(run, event, legacy);
	const crewName = 'reference_crew';
	const described = describeInputs(run.inputs);
	/** @type {{ type: string, data: Record<string, unknown> }[]} */
	const out = [];
	if (event.kind === 'step') {
		const task = TASKS[event.taskIndex];
		const base = { task_id: task.id, task_name: task.name, agent_role: task.agent };
		if (event.taskIndex === 0 && event.stepIndex === 0)
			out.push({
				type: 'crew_kickoff_started',
				data: { crew_name: crewName, inputs: { ...run.inputs } },
			});
		if (event.stepIndex === 0) out.push({ type: 'task_started', data: { ...base, context: '' } });
		out.push({
			type: 'tool_usage_started',
			data: { ...base, tool_name: legacy.tool, tool_args: legacy.tool_input },
		});
		out.push({
			type: 'tool_usage_finished',
			data: {
				...base,
				tool_name: legacy.tool,
				tool_args: legacy.tool_input,
				output: legacy.result,
				from_cache: false,
			},
		});
		return out;
	}
	if (event.kind === 'task') {
		const task = TASKS[event.taskIndex];
		const output = taskOutputObject(event.taskIndex, legacy.output, legacy.output_json, described);
		out.push({
			type: 'task_completed',
			data: { task_id: task.id, task_name: task.name, agent_role: task.agent, output },
		});
		return out;
	}
	const last = TASKS.length - 1;
	if (run.plan.outcome === 'failure') {
		const task = TASKS[last];
		out.push({
			type: 'task_failed',
			data: { task_id: task.id, task_name: task.name, error: run.plan.error },
		});
		out.push({ type: 'crew_kickoff_failed', data: { crew_name: crewName, error: run.plan.error } });
		return out;
	}
	// A user-defined event, as crews may emit their own (WS: custom events come through the stream).
	out.push({ type: 'report_draft_ready', data: { words: legacy.result.split(' ').length } });
	out.push({
		type: 'crew_kickoff_completed',
		data: {
			crew_name: crewName,
			output: taskOutputObject(last, legacy.result, legacy.result_json, described),
			total_tokens: legacy.token_usage.total_tokens,
		},
	});
	return out;
}

const TERMINAL = new Set([
	'crew_kickoff_completed',
	'crew_kickoff_failed',
	'flow_finished',
	'flow_failed',
]);

/** Fisher–Yates; the stream promises no order, so the reference shows none. @template T @param {T[]} list */
function shuffled(list) {
	const out = [...list];
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(Math.random() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

/**
 * Enterprise Event Streaming as WS documents it: `{"events":[...]}` POSTs with the kickoff's
 * bearer token, only the requested types (all when the list is empty: our assumption), batched
 * (flushed every `flushMs` and at the end of the run) or one event per request with realtime,
 * shuffled, optionally with a duplicate, one attempt and no retry. Also calls the crew's
 * `humanInputWebhook` when a run pauses for human input.
 */
class EventStream {
	/** @param {{ dispatcher: WebhookDispatcher, options: () => EventStreamOptions, now: () => number }} config */
	constructor(config) {
		this.config = config;
		/** @type {WeakMap<Run, CallbackConfig>} */
		this.configs = new WeakMap();
		/** @type {WeakMap<Run, number>} */
		this.lastStamp = new WeakMap();
		/** @type {Map<Run, { events: StreamEvent[], timer: NodeJS.Timeout | null }>} */
		this.buffers = new Map();
	}

	/** The next event time of a run on the service clock, strictly after the last one. @param {Run} run */
	stamp(run) {
		const at = Math.max(this.config.now(), (this.lastStamp.get(run) ?? -Infinity) + 1);
		this.lastStamp.set(run, at);
		return new Date(at).toISOString();
	}

	/** @param {Run} run @param {CallbackConfig} config */
	register(run, config) {
		this.configs.set(run, config);
	}

	/**
	 * A resumed run goes on calling what the paused one called (our choice: the vendor
	 * does not say), except what the resume body gives anew: its `webhooks` replace the
	 * stream, its human-input webhook (live the top-level humanInputWebhookUrl) the
	 * human-input URL. `to` is the paused run itself in the documented dialect (the run
	 * keeps its id), a new run live.
	 * @param {Run} from @param {Run} to @param {CallbackConfig} given read from the resume body
	 */
	carryOver(from, to, given) {
		const config = this.configOf(from);
		const carried = {
			stream: given.stream || config.stream,
			humanInput: given.humanInput || config.humanInput,
		};
		this.register(to, carried);
		return carried;
	}

	/** @param {Run} run @returns {CallbackConfig} */
	configOf(run) {
		return this.configs.get(run) || { stream: null, humanInput: null };
	}

	/** @param {Run} run */
	has(run) {
		const config = this.configs.get(run);
		return Boolean(config && (config.stream || config.humanInput));
	}

	/**
	 * Called by the dispatcher as each timeline moment is reached (in real time).
	 * @param {Run} run
	 * @param {TimelineEvent} event
	 * @param {Record<string, any>} legacy
	 * @param {boolean} pausesHere the run pauses for human input at this moment
	 */
	moment(run, event, legacy, pausesHere) {
		const config = this.configs.get(run);
		if (!config) return;
		if (config.stream) {
			const stream = config.stream;
			const events = streamEventsOf(run, event, legacy)
				// Stamped before filtering: every event of a run at least 1 ms after the one before,
				// so sorting by timestamp gives back the true order (the source's timestamps increase too).
				.map((e) => ({
					id: randomUUID(),
					execution_id: run.kickoffId,
					timestamp: this.stamp(run),
					type: e.type,
					data: e.data,
				}))
				.filter((e) => stream.events.length === 0 || stream.events.includes(e.type));
			for (const streamEvent of events) this.enqueue(run, stream, streamEvent);
		}
		if (pausesHere && config.humanInput && config.humanInput.live) {
			// As the live service calls the top-level humanInputWebhookUrl: a UUID task_id, meta, no Authorization.
			const payload = {
				kickoff_id: run.kickoffId,
				execution_id: run.kickoffId,
				task_id: liveTaskId(run, event.taskIndex),
				task_output: legacy.output,
				meta: run.meta === undefined ? null : run.meta,
			};
			this.config.dispatcher.deliver('humanInput', config.humanInput.url, run.kickoffId, payload);
		} else if (pausesHere && config.humanInput) {
			const task = TASKS[event.taskIndex];
			// LHITL names "execution ID, task ID, task output" in prose only; these keys are our choice.
			const payload = { execution_id: run.kickoffId, task_id: task.id, output: legacy.output };
			this.config.dispatcher.deliver(
				'humanInput',
				config.humanInput.url,
				run.kickoffId,
				payload,
				authHeader(config.humanInput.auth),
				config.humanInput.auth ? config.humanInput.auth.strategy : undefined,
			);
		}
	}

	/** @param {Run} run @param {StreamConfig} stream @param {StreamEvent} event */
	enqueue(run, stream, event) {
		const { duplicate, flushMs } = this.config.options();
		if (stream.realtime) {
			this.post(run, stream, [event]);
			if (duplicate) this.post(run, stream, [event]);
			return;
		}
		let buffer = this.buffers.get(run);
		if (!buffer) {
			buffer = { events: [], timer: null };
			this.buffers.set(run, buffer);
		}
		buffer.events.push(event);
		if (TERMINAL.has(event.type)) return this.flush(run);
		if (!buffer.timer) buffer.timer = setTimeout(() => this.flush(run), flushMs);
	}

	/** Sends what is buffered for a run now. @param {Run} run */
	flush(run) {
		const buffer = this.buffers.get(run);
		const config = this.configs.get(run);
		if (!buffer || !config || !config.stream) return;
		if (buffer.timer) clearTimeout(buffer.timer);
		this.buffers.delete(run);
		const events = [...buffer.events];
		if (this.config.options().duplicate && events.length > 0) events.push(events[0]);
		this.post(run, config.stream, this.config.options().shuffle ? shuffled(events) : events);
	}

	/** @param {Run} run @param {StreamConfig} stream @param {StreamEvent[]} events */
	post(run, stream, events) {
		this.config.dispatcher.deliver(
			'stream',
			stream.url,
			run.kickoffId,
			{ events },
			authHeader(stream.auth),
			stream.auth ? stream.auth.strategy : undefined,
		);
	}

	/** Drops every buffered batch (reset, close). */
	cancelAll() {
		for (const buffer of this.buffers.values()) if (buffer.timer) clearTimeout(buffer.timer);
		this.buffers.clear();
	}
}

module.exports = {
	EventStream,
	readCallbackConfig,
	redactCallbackSecrets,
	describeCallbacks,
	streamEventsOf,
};
