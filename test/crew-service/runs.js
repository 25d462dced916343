// @ts-check
'use strict';

const { randomUUID } = require('node:crypto');

/** @typedef {import('./index').Run} Run */
/** @typedef {import('./index').RunPlan} RunPlan */
/** @typedef {import('./index').RunOutcome} RunOutcome */
/** @typedef {import('./index').TokenType} TokenType */
/** @typedef {import('./index').CrewServiceOptions['plan']} PlanFn */

const OUTCOMES = ['success', 'failure', 'revoked', 'never'];
const DEFAULT_ERROR = 'Task execution failed: invalid API key for external service';

// Three tasks so "progress" has distinct intermediate values a client can show.
const TASKS = [
	{ id: 'research_task', name: 'research', agent: 'Senior Researcher', output: 'Research notes for' },
	{ id: 'analysis_task', name: 'analysis', agent: 'Data Analyst', output: 'Analysis of' },
	{ id: 'report_task', name: 'report', agent: 'Reporting Analyst', output: '' },
];

/** @param {Record<string, string>} inputs */
function describeInputs(inputs) {
	const pairs = Object.entries(inputs).map(([name, value]) => `${name}=${value}`);
	return pairs.length ? pairs.join('; ') : '(no inputs)';
}

/**
 * Checks a partial plan from either `options.plan` or `meta.reference`.
 * Throws TypeError naming the bad field, prefixed with `where`.
 * @param {unknown} partial
 * @param {string} where
 * @returns {Partial<RunPlan>}
 */
function checkPlanOverride(partial, where) {
	if (partial === undefined || partial === null) return {};
	if (typeof partial !== 'object' || Array.isArray(partial)) throw new TypeError(`${where} must be an object`);
	const p = /** @type {Record<string, unknown>} */ (partial);
	/** @type {Partial<RunPlan>} */
	const out = {};
	if (p.durationMs !== undefined) {
		if (typeof p.durationMs !== 'number' || !Number.isInteger(p.durationMs) || p.durationMs < 0) {
			throw new TypeError(`${where}.durationMs must be a non-negative integer`);
		}
		out.durationMs = p.durationMs;
	}
	if (p.outcome !== undefined) {
		if (typeof p.outcome !== 'string' || !OUTCOMES.includes(p.outcome)) {
			throw new TypeError(`${where}.outcome must be one of ${OUTCOMES.join(', ')}`);
		}
		out.outcome = /** @type {RunOutcome} */ (p.outcome);
	}
	for (const key of /** @type {const} */ (['result', 'error'])) {
		if (p[key] !== undefined) {
			if (typeof p[key] !== 'string') throw new TypeError(`${where}.${key} must be a string`);
			out[key] = /** @type {string} */ (p[key]);
		}
	}
	if (p.resultJson !== undefined) {
		if (typeof p.resultJson !== 'object') throw new TypeError(`${where}.resultJson must be an object or null`);
		out.resultJson = /** @type {object | null} */ (p.resultJson);
	}
	return out;
}

/**
 * Precedence, least to most specific: service defaults, `options.plan`, then the
 * kickoff's own `meta.reference` (the only lever a separate-process test has).
 * @param {{ inputs: Record<string, string>, meta: unknown, index: number, durationMs: number, planFn: PlanFn, reference: Partial<RunPlan> }} args
 * @returns {Required<RunPlan>}
 */
function resolvePlan({ inputs, meta, index, durationMs, planFn, reference }) {
	const fromFn = planFn ? checkPlanOverride(planFn({ inputs, meta, index }), 'plan()') : {};
	const merged = { durationMs, outcome: /** @type {RunOutcome} */ ('success'), ...fromFn, ...reference };
	return {
		durationMs: merged.durationMs,
		outcome: merged.outcome,
		result: merged.result !== undefined ? merged.result : `Crew finished: ${describeInputs(inputs)}`,
		resultJson: merged.resultJson !== undefined ? merged.resultJson : { inputs: { ...inputs }, kickoffNumber: index + 1 },
		error: merged.error !== undefined ? merged.error : DEFAULT_ERROR,
	};
}

/**
 * @param {{ inputs: Record<string, string>, meta: unknown, webhooks: Run['webhooks'], tokenType: TokenType, index: number, createdAt: number, plan: Required<RunPlan> }} args
 * @returns {Run}
 */
function createRun({ inputs, meta, webhooks, tokenType, index, createdAt, plan }) {
	return {
		kickoffId: randomUUID(),
		index,
		inputs,
		meta,
		webhooks,
		tokenType,
		createdAt,
		completesAt: plan.outcome === 'never' ? null : createdAt + plan.durationMs,
		plan,
		statusRequests: 0,
	};
}

/**
 * Where a run stands at `now`. Finished is checked first so that durationMs 0
 * means "done at once"; otherwise the first 10% (and at least the first ms)
 * is pending, so a poll right after kickoff never sees a terminal state.
 * @param {Run} run
 * @param {number} now
 * @returns {{ phase: 'pending' } | { phase: 'running', completedTasks: number } | { phase: 'finished' }}
 */
function phaseAt(run, now) {
	const elapsed = now - run.createdAt;
	const duration = run.plan.durationMs;
	if (run.plan.outcome !== 'never' && elapsed >= duration) return { phase: 'finished' };
	const pendingUntil = Math.max(1, duration * 0.1);
	if (elapsed < pendingUntil) return { phase: 'pending' };
	const span = duration - pendingUntil;
	const fraction = span > 0 ? (elapsed - pendingUntil) / span : 1;
	return { phase: 'running', completedTasks: Math.min(TASKS.length - 1, Math.floor(fraction * TASKS.length)) };
}

/** @param {number} ms */
function seconds(ms) {
	return Math.round(ms / 100) / 10;
}

/**
 * @param {Run} run
 * @param {number} now
 * @param {'contract' | 'wild'} shape
 * @returns {Record<string, unknown>}
 */
function statusRecord(run, now, shape) {
	const at = phaseAt(run, now);
	return shape === 'wild' ? wildRecord(run, at) : contractRecord(run, at);
}

/**
 * The vendor's documented shape (field notes, shape B).
 * @param {Run} run
 * @param {ReturnType<typeof phaseAt>} at
 */
function contractRecord(run, at) {
	if (at.phase === 'pending') return { status: 'pending' };
	if (at.phase === 'running') {
		return {
			status: 'running',
			current_task: TASKS[at.completedTasks].id,
			progress: { completed_tasks: at.completedTasks, total_tasks: TASKS.length },
		};
	}
	const { plan } = run;
	if (plan.outcome === 'failure') return { status: 'error', error: plan.error, execution_time: seconds(plan.durationMs) };
	if (plan.outcome === 'revoked') return { status: 'revoked' };
	const described = describeInputs(run.inputs);
	return {
		status: 'completed',
		result: {
			output: plan.result,
			tasks: TASKS.map((task, i) => ({
				task_id: task.id,
				output: i === TASKS.length - 1 ? plan.result : `${task.output} ${described}`,
				agent: task.agent,
				execution_time: seconds(plan.durationMs / TASKS.length),
			})),
		},
		execution_time: seconds(plan.durationMs),
	};
}

/**
 * What public clients actually parse (field notes, shape A, Celery-like states).
 * @param {Run} run
 * @param {ReturnType<typeof phaseAt>} at
 */
function wildRecord(run, at) {
	if (at.phase === 'pending') return { state: 'PENDING' };
	if (at.phase === 'running') {
		const task = TASKS[at.completedTasks];
		return {
			state: 'RUNNING',
			status: `Working on task ${at.completedTasks + 1} of ${TASKS.length}`,
			last_step: { thought: `Working through the ${task.name} task for ${describeInputs(run.inputs)}` },
		};
	}
	const { plan } = run;
	if (plan.outcome === 'failure') return { state: 'FAILURE', result: plan.error };
	if (plan.outcome === 'revoked') return { state: 'REVOKED' };
	return {
		state: 'SUCCESS',
		result: plan.result,
		result_json: plan.resultJson === undefined ? null : plan.resultJson,
		last_executed_task: { name: TASKS[TASKS.length - 1].name, output: plan.result },
	};
}

module.exports = { createRun, resolvePlan, checkPlanOverride, statusRecord, phaseAt, describeInputs, DEFAULT_ERROR, TASKS };
