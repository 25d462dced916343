// @ts-check
'use strict';

const { flowOf } = require('./flowRuns');

/** @typedef {import('./index').Run} Run */

/**
 * The hosted service as the "Live" facts of docs/development/service-api.md
 * (the vendor's live tests of 2026-10-01) say it answers today: `options.dialect`
 * 'live'. Status records in the platform-guide shape, NOT FOUND as a 200, the
 * error bodies seen live. Pure functions of a run and the clock; server.js
 * decides when they answer.
 */

// What an unknown kickoff id, a run not registered yet and a run paused for human input all read live.
const NOT_FOUND_RECORD = Object.freeze({ state: 'NOT FOUND' });

// Live error bodies, word for word (docs/development/service-api.md#errors).
const WRONG_TOKEN_BODY = Object.freeze({ detail: 'Invalid or missing authentication credentials' });
const NO_AUTHORIZATION_BODY = Object.freeze({ detail: 'Not authenticated' });
// FastAPI's own answer to a body it cannot parse, as the vendor saw it: plain text.
const NOT_JSON_TEXT = 'Internal Server Error';

// The same per-step counts as the crew webhook's token_usage (runs.js), so both tell one story.
const PROMPT_TOKENS_PER_STEP = 320;
const COMPLETION_TOKENS_PER_STEP = 110;
const STEPS_PER_TASK = 2;

/** @param {string[]} missing the required inputs not given, sorted as the vendor's example is */
function missingInputsBody(missing) {
	return { detail: `Missing inputs: ${[...missing].sort().join(', ')}` };
}

/** @param {number} ms */
function iso(ms) {
	return new Date(ms).toISOString();
}

/**
 * Run ms at which task k (1-based) ends, as runs.js counts them.
 * @param {number} durationMs
 * @param {number} k
 * @param {number} taskCount
 */
function taskEnd(durationMs, k, taskCount) {
	return Math.round((k * durationMs) / taskCount);
}

/**
 * The tokens a run has used: every step of every task it ran so far.
 * @param {number} steps
 */
function usageOf(steps) {
	const prompt = steps * PROMPT_TOKENS_PER_STEP;
	const completion = steps * COMPLETION_TOKENS_PER_STEP;
	return {
		total_tokens: prompt + completion,
		prompt_tokens: prompt,
		completion_tokens: completion,
	};
}

/**
 * The recent events a live record lists (type, timestamp, crew_name, task_name,
 * agent_role; no prompts or outputs), oldest first, up to where the run stands.
 * @param {Run} run
 * @param {{ phase: string, completedTasks?: number }} at
 * @param {ReadonlyArray<{ id: string, agent: string }>} tasks
 */
function eventsOf(run, at, tasks) {
	const { durationMs, outcome } = run.plan;
	const crewName = 'ReferenceCrew';
	/** @type {Array<Record<string, unknown>>} */
	const events = [];
	/** @param {string} type @param {number} runMs @param {Record<string, unknown>} [extra] */
	const add = (type, runMs, extra = {}) =>
		events.push({ type, timestamp: iso(run.createdAt + runMs), crew_name: crewName, ...extra });
	if (at.phase === 'pending') return events;
	add('crew_kickoff_started', 0);
	const finished = at.phase === 'finished';
	// Tasks begun: on a finished success all; a failure and a revoke stop on the last task.
	const lastTask = tasks.length - 1;
	const completed = finished
		? outcome === 'success'
			? tasks.length
			: lastTask
		: (at.completedTasks ?? 0);
	for (let i = 0; i < tasks.length; i++) {
		if (i > completed || (i === completed && finished && outcome === 'success')) break;
		const task = { task_name: tasks[i].id, agent_role: tasks[i].agent };
		add('task_started', taskEnd(durationMs, i, tasks.length), task);
		if (i < completed) add('task_completed', taskEnd(durationMs, i + 1, tasks.length), task);
	}
	if (finished && outcome === 'success') add('crew_kickoff_completed', durationMs);
	if (finished && outcome === 'failure') {
		const task = { task_name: tasks[lastTask].id, agent_role: tasks[lastTask].agent };
		add('task_failed', durationMs, { ...task, error: run.plan.error });
		add('crew_kickoff_failed', durationMs, { error: run.plan.error });
	}
	return events;
}

/**
 * The status record in the platform-guide shape live deployments return. A run
 * paused for human input reads NOT FOUND (never PAUSED, docs/development/service-api.md#not-found-is-a-200).
 * @param {Run} run
 * @param {{ phase: 'pending' } | { phase: 'running', completedTasks: number } | { phase: 'paused', taskIndex: number } | { phase: 'finished' }} at
 * @param {number} now
 * @param {{ tasks: ReadonlyArray<{ id: string, agent: string }>, result: string }} crew the run's tasks and its final output
 * @returns {Record<string, unknown>}
 */
function liveRecord(run, at, now, crew) {
	if (at.phase === 'paused') return { ...NOT_FOUND_RECORD };
	const { tasks } = crew;
	const { plan } = run;
	const total = tasks.length;
	const finished = at.phase === 'finished';
	const completed = finished
		? plan.outcome === 'success'
			? total
			: total - 1
		: at.phase === 'running'
			? at.completedTasks
			: 0;
	const events = eventsOf(run, at, tasks);
	/** @type {Record<string, number>} */
	const byType = {};
	for (const event of events) byType[String(event.type)] = (byType[String(event.type)] ?? 0) + 1;
	const current = !finished && at.phase === 'running' ? tasks[completed] : undefined;
	// Steps run so far: two per task done, and the failing task's own two.
	const steps =
		completed * STEPS_PER_TASK + (finished && plan.outcome === 'failure' ? STEPS_PER_TASK : 0);
	const lastDone = completed > 0 ? tasks[completed - 1] : undefined;
	let state = 'RUNNING';
	/** @type {string | null} */
	let status = 'Task is Running';
	if (at.phase === 'pending') [state, status] = ['PENDING', 'Task is Pending'];
	if (finished && plan.outcome === 'success') [state, status] = ['SUCCESS', null];
	// The exception text lives only in `status` live: `result` is null.
	if (finished && plan.outcome === 'failure') [state, status] = ['FAILED', plan.error];
	if (finished && plan.outcome === 'revoked') [state, status] = ['REVOKED', 'Task is Revoked'];
	const succeeded = state === 'SUCCESS';
	const flow = flowOf(run);
	const meta = run.meta === undefined ? null : run.meta;
	return {
		state,
		status,
		result: succeeded ? (flow ? JSON.stringify(flow.state) : crew.result) : null,
		result_json: succeeded
			? flow
				? structuredClone(flow.state)
				: (plan.resultJson ?? null)
			: null,
		usage_metrics: usageOf(steps),
		progress: {
			unit: 'task',
			completed,
			total,
			remaining: total - completed,
			current: current ? current.id : null,
			current_agent: current ? current.agent : null,
			started_at: iso(run.createdAt),
			updated_at: iso(finished ? run.createdAt + plan.durationMs : now),
			duration_seconds:
				Math.round(
					(Math.max(0, (finished ? run.createdAt + plan.durationMs : now) - run.createdAt) / 1000) *
						10,
				) / 10,
		},
		last_event: events.length > 0 ? events[events.length - 1] : null,
		// The 100 most recent, as the platform keeps them.
		events: events.slice(-100),
		events_count: events.length,
		events_by_type: byType,
		triggered_by: {
			type: run.tokenType === 'user' ? 'user' : 'service_account',
			id: run.tokenType === 'user' ? 'user-1' : 'service-account-1',
		},
		execution_origin: 'api',
		source: 'memory',
		last_step: current ? { task_name: current.id, agent_role: current.agent } : null,
		last_executed_task: lastDone
			? { name: lastDone.id, output: succeeded && completed === total ? crew.result : null, meta }
			: null,
	};
}

/**
 * Whether this status read of a run falls in the registration lag: the first
 * `lagReads` reads of each run answer NOT FOUND, as a few did right after a
 * kickoff live. `readNumber` counts from 1.
 * @param {number} readNumber
 * @param {number} lagReads
 */
function inRegistrationLag(readNumber, lagReads) {
	return readNumber <= lagReads;
}

/**
 * The live 401 body: no Authorization header at all, or a token the service does not know.
 * @param {string | undefined} authorization
 */
function unauthorizedBody(authorization) {
	return authorization === undefined || authorization.trim() === ''
		? NO_AUTHORIZATION_BODY
		: WRONG_TOKEN_BODY;
}

module.exports = {
	NOT_FOUND_RECORD,
	NOT_JSON_TEXT,
	WRONG_TOKEN_BODY,
	NO_AUTHORIZATION_BODY,
	liveRecord,
	missingInputsBody,
	inRegistrationLag,
	unauthorizedBody,
	usageOf,
};
