// @ts-check
'use strict';

const { randomUUID } = require('node:crypto');

const { flowOf, flowDeploymentOf, liveFlowRecord } = require('./flowRuns');
const { fileResultLine } = require('./fileRecords');

/** @typedef {import('./index').Run} Run */
/** @typedef {import('./index').RunPlan} RunPlan */
/** @typedef {import('./index').RunOutcome} RunOutcome */
/** @typedef {import('./index').TokenType} TokenType */
/** @typedef {import('./index').CrewServiceOptions['plan']} PlanFn */
/** @typedef {import('./index').ResolvedRunPlan} ResolvedRunPlan */
/** @typedef {import('./index').RunState} RunState */
/** @typedef {import('./index').ResumeRecord} ResumeRecord */
/** @typedef {import('./index').WebhookKind} WebhookKind */
/**
 * Where a run stands, beyond what Run shows. Progress is measured in "run ms"
 * (0..durationMs): at clock time `segmentStart` the run was at `offset`, and it
 * advances with the clock, except that it stops at `waitingAt` (a planned
 * human-input pause that has not been approved yet), the end of task `waitingTask`.
 * @typedef {{
 *   segmentStart: number,
 *   offset: number,
 *   waitingAt: number | null,
 *   waitingTask: number,
 *   resumed: boolean,
 *   revisions: (string | null)[],
 *   approvedFeedback: string | null,
 *   stoppedAt: number | null,
 * }} Timeline
 */
/** @typedef {{ at: number, kind: 'step' | 'task' | 'crew', taskIndex: number, stepIndex: number }} TimelineEvent */
/** @typedef {{ events: TimelineEvent[], offset: number }} Segment */

const OUTCOMES = ['success', 'failure', 'revoked', 'never'];
const DEFAULT_ERROR = 'Task execution failed: invalid API key for external service';

// Three tasks so "progress" has distinct intermediate values a client can show.
// Task k (1-based) ends at round(k/3 of the duration); each has two steps (tools).
const TASKS = [
	{
		id: 'research_task',
		name: 'research',
		agent: 'Senior Researcher',
		output: 'Research notes for',
		description: 'Research the most relevant and recent information for',
		expectedOutput: 'A list of the ten most relevant findings',
		tools: ['search_the_internet', 'read_website_content'],
	},
	{
		id: 'analysis_task',
		name: 'analysis',
		agent: 'Data Analyst',
		output: 'Analysis of',
		description: 'Analyse the research findings and name the key trends for',
		expectedOutput: 'A short analysis with the three key trends',
		tools: ['read_file', 'calculator'],
	},
	{
		id: 'report_task',
		name: 'report',
		agent: 'Reporting Analyst',
		output: '',
		description: 'Write the final report from the analysis for',
		expectedOutput: 'A complete report in plain text',
		tools: ['read_file', 'write_file'],
	},
];
const TASK_IDS = TASKS.map((t) => t.id);
const STEPS_PER_TASK = 2;
// Deterministic token counts for the crew webhook, per step run.
const PROMPT_TOKENS_PER_STEP = 320;
const COMPLETION_TOKENS_PER_STEP = 110;

/** @type {WeakMap<Run, Timeline>} */
const timelines = new WeakMap();

/** @param {Run} run @returns {Timeline} */
function timelineOf(run) {
	const timeline = timelines.get(run);
	if (!timeline) throw new Error(`run ${run.kickoffId} has no timeline`);
	return timeline;
}

/**
 * Run ms at which task k (1-based; 0 = the start) ends.
 * @param {number} durationMs
 * @param {number} k
 */
function taskEnd(durationMs, k) {
	return Math.round((k * durationMs) / TASKS.length);
}

/**
 * The 0-based indexes of the tasks marked for human input, in run order; empty for none.
 * @param {ResolvedRunPlan} plan
 */
function pauseTaskIndexes(plan) {
	return plan.humanInput
		? plan.humanInput.taskIds.map((taskId) => TASK_IDS.indexOf(taskId)).sort((a, b) => a - b)
		: [];
}

/**
 * The first task marked for human input after task `afterIndex` (-1: from the start), or -1.
 * @param {ResolvedRunPlan} plan
 * @param {number} afterIndex
 */
function nextPauseIndex(plan, afterIndex) {
	const next = pauseTaskIndexes(plan).find((index) => index > afterIndex);
	return next === undefined ? -1 : next;
}

/**
 * Where a run waits for a human: the offset and task of the first pause after task `afterIndex`, or none.
 * @param {ResolvedRunPlan} plan
 * @param {number} afterIndex
 */
function pauseAfter(plan, afterIndex) {
	const index = nextPauseIndex(plan, afterIndex);
	return { waitingAt: index >= 0 ? taskEnd(plan.durationMs, index + 1) : null, waitingTask: index };
}

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
	if (typeof partial !== 'object' || Array.isArray(partial))
		throw new TypeError(`${where} must be an object`);
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
		if (typeof p.resultJson !== 'object')
			throw new TypeError(`${where}.resultJson must be an object or null`);
		out.resultJson = /** @type {object | null} */ (p.resultJson);
	}
	if (p.humanInput !== undefined) {
		const h = p.humanInput;
		if (h !== null) {
			if (typeof h !== 'object' || Array.isArray(h))
				throw new TypeError(`${where}.humanInput must be an object or null`);
			const { taskId, taskIds } = /** @type {Record<string, unknown>} */ (h);
			// One task (taskId) or several (taskIds): a crew with more than one task marked for human input.
			const given = taskIds === undefined ? [taskId] : taskIds;
			if (
				!Array.isArray(given) ||
				given.length === 0 ||
				!given.every((id) => typeof id === 'string' && TASK_IDS.includes(id))
			) {
				throw new TypeError(
					`${where}.humanInput.taskId must be one of ${TASK_IDS.join(', ')} (or taskIds a list of them)`,
				);
			}
		}
		out.humanInput =
			h === null ? null : readHumanInputTasks(/** @type {Record<string, unknown>} */ (h));
	}
	if (p.flow !== undefined) {
		if (typeof p.flow !== 'boolean') throw new TypeError(`${where}.flow must be a boolean`);
		out.flow = p.flow;
	}
	if (p.registrationDelayMs !== undefined) {
		if (
			typeof p.registrationDelayMs !== 'number' ||
			!Number.isInteger(p.registrationDelayMs) ||
			p.registrationDelayMs < 0 ||
			p.registrationDelayMs > 600_000
		) {
			throw new TypeError(`${where}.registrationDelayMs must be an integer 0..600000`);
		}
		out.registrationDelayMs = p.registrationDelayMs;
	}
	return out;
}

/**
 * The tasks a plan pauses at, in run order: `taskId` is the first, `taskIds` all of them.
 * @param {{ taskId?: unknown, taskIds?: unknown }} humanInput checked by checkPlanOverride
 * @returns {ResolvedRunPlan['humanInput']}
 */
function readHumanInputTasks(humanInput) {
	const given = /** @type {import('./index').TaskId[]} */ (
		Array.isArray(humanInput.taskIds) ? humanInput.taskIds : [humanInput.taskId]
	);
	const taskIds = [...new Set(given)].sort((a, b) => TASK_IDS.indexOf(a) - TASK_IDS.indexOf(b));
	return { taskId: taskIds[0], taskIds };
}

/**
 * Precedence, least to most specific: service defaults, `options.plan`, then the
 * kickoff's own `meta.reference` (the only lever a separate-process test has).
 * @param {{ inputs: Record<string, string>, meta: unknown, index: number, durationMs: number, planFn: PlanFn, reference: Partial<RunPlan> }} args
 * @returns {ResolvedRunPlan}
 */
function resolvePlan({ inputs, meta, index, durationMs, planFn, reference }) {
	const fromFn = planFn ? checkPlanOverride(planFn({ inputs, meta, index }), 'plan()') : {};
	const merged = {
		durationMs,
		outcome: /** @type {RunOutcome} */ ('success'),
		...fromFn,
		...reference,
	};
	return {
		durationMs: merged.durationMs,
		outcome: merged.outcome,
		result:
			merged.result !== undefined ? merged.result : `Crew finished: ${describeInputs(inputs)}`,
		resultJson:
			merged.resultJson !== undefined
				? merged.resultJson
				: { inputs: { ...inputs }, kickoffNumber: index + 1 },
		error: merged.error !== undefined ? merged.error : DEFAULT_ERROR,
		humanInput: merged.humanInput ? readHumanInputTasks(merged.humanInput) : null,
		// Only when asked for, so a crew's plan is what it always was.
		...(merged.flow ? { flow: true } : {}),
		...(merged.registrationDelayMs !== undefined
			? { registrationDelayMs: merged.registrationDelayMs }
			: {}),
	};
}

/**
 * @param {{ inputs: Record<string, string>, meta: unknown, webhooks: Run['webhooks'], tokenType: TokenType, index: number, createdAt: number, plan: ResolvedRunPlan, clock: () => number }} args
 * @returns {Run}
 */
function createRun({ inputs, meta, webhooks, tokenType, index, createdAt, plan, clock }) {
	const pause = pauseAfter(plan, -1);
	/** @type {Run} */
	const run = /** @type {Run} */ (
		/** @type {unknown} */ ({
			kickoffId: randomUUID(),
			index,
			inputs,
			meta,
			webhooks,
			tokenType,
			createdAt,
			// Unknown while a planned human-input pause waits for approval.
			completesAt:
				plan.outcome === 'never' || pause.waitingTask >= 0 ? null : createdAt + plan.durationMs,
			plan,
			statusRequests: 0,
			resumes: [],
		})
	);
	// A getter (enumerable, so JSON and toEqual see it): the state follows the service clock.
	Object.defineProperty(run, 'state', { enumerable: true, get: () => runState(run, clock()) });
	timelines.set(run, {
		segmentStart: createdAt,
		offset: 0,
		...pause,
		resumed: false,
		revisions: TASKS.map(() => null),
		approvedFeedback: null,
		stoppedAt: null,
	});
	return run;
}

/**
 * Where a run stands at `now`. A planned pause is checked first, then finished,
 * so that durationMs 0 means "done at once"; otherwise the first 10% (and at
 * least the first ms) is pending, so a poll right after kickoff never sees a
 * terminal state. Once a run was resumed it is never pending again. Task k
 * (1-based) is complete from round(k/3 · durationMs) on, as its webhook says.
 * @param {Run} run
 * @param {number} now
 * @returns {{ phase: 'pending' } | { phase: 'running', completedTasks: number } | { phase: 'paused', taskIndex: number } | { phase: 'finished' }}
 */
function phaseAt(run, now) {
	const timeline = timelineOf(run);
	const duration = run.plan.durationMs;
	// A stopped run has ended at its stop, whatever its plan said (a pause, or never).
	if (timeline.stoppedAt !== null && now >= timeline.stoppedAt) return { phase: 'finished' };
	const progress = timeline.offset + (now - timeline.segmentStart);
	if (timeline.waitingAt !== null && progress >= timeline.waitingAt) {
		return { phase: 'paused', taskIndex: timeline.waitingTask };
	}
	if (run.plan.outcome !== 'never' && progress >= duration) return { phase: 'finished' };
	if (!timeline.resumed && progress < Math.max(1, duration * 0.1)) return { phase: 'pending' };
	let completed = 0;
	for (let k = 1; k <= TASKS.length; k++) if (taskEnd(duration, k) <= progress) completed = k;
	return { phase: 'running', completedTasks: Math.min(TASKS.length - 1, completed) };
}

/**
 * @param {Run} run
 * @param {number} now
 * @returns {RunState}
 */
function runState(run, now) {
	const at = phaseAt(run, now);
	if (at.phase !== 'finished') return at.phase;
	if (run.plan.outcome === 'failure') return 'failed';
	if (run.plan.outcome === 'revoked') return 'revoked';
	return 'completed';
}

/**
 * The crew's final output: the plan's result, plus the approving human's feedback, then one line
 * for each file the kickoff sent (so what the crew got shows wherever its result does).
 * @param {Run} run
 */
function finalResult(run) {
	const feedback = timelineOf(run).approvedFeedback;
	const text = feedback ? `${run.plan.result} (feedback: ${feedback})` : run.plan.result;
	return run.files ? [text, ...run.files.map(fileResultLine)].join('\n') : text;
}

/**
 * A task's output; a task re-run after a rejection says which feedback it took.
 * @param {Run} run
 * @param {number} i 0-based task index
 */
function taskOutput(run, i) {
	const base =
		i === TASKS.length - 1 ? finalResult(run) : `${TASKS[i].output} ${describeInputs(run.inputs)}`;
	const revision = timelineOf(run).revisions[i];
	return revision ? `${base} (revised after feedback: ${revision})` : base;
}

/**
 * Every webhook moment of a run in order, in run ms: per task two steps at
 * 1/3 and 2/3 of it, then the task; the crew at the end. Success sends all;
 * failure sends no report_task (the last task fails) and a failure crew
 * payload; revoked and never send neither. The human-input task always
 * sends its task webhook (it completed; a human is looking at it).
 * @param {Run} run
 * @returns {TimelineEvent[]}
 */
function runEvents(run) {
	const { durationMs, outcome } = run.plan;
	const last = TASKS.length - 1;
	const pausesAtLast = pauseTaskIndexes(run.plan).includes(last);
	/** @type {TimelineEvent[]} */
	const events = [];
	for (let i = 0; i < TASKS.length; i++) {
		const start = taskEnd(durationMs, i);
		const end = taskEnd(durationMs, i + 1);
		for (let j = 0; j < STEPS_PER_TASK; j++) {
			events.push({
				at: start + Math.round(((end - start) * (j + 1)) / (STEPS_PER_TASK + 1)),
				kind: 'step',
				taskIndex: i,
				stepIndex: j,
			});
		}
		if (i < last || outcome === 'success' || pausesAtLast)
			events.push({ at: end, kind: 'task', taskIndex: i, stepIndex: -1 });
	}
	if (outcome === 'success' || outcome === 'failure')
		events.push({ at: durationMs, kind: 'crew', taskIndex: -1, stepIndex: -1 });
	return events;
}

/**
 * The webhook moments from kickoff up to the pause (its task webhook
 * included), or all of them when no pause is planned.
 * @param {Run} run
 * @returns {Segment}
 */
function initialSegment(run) {
	const events = runEvents(run);
	const pauseIndex = timelineOf(run).waitingTask;
	if (pauseIndex < 0) return { events, offset: 0 };
	const pos = events.findIndex((e) => e.kind === 'task' && e.taskIndex === pauseIndex);
	return { events: events.slice(0, pos + 1), offset: 0 };
}

/**
 * Applies an accepted /resume (the run must be paused at `now`) and returns
 * the webhook moments it starts. Approve: the rest of the run, counted from
 * now, up to the next task marked for human input if there is one (the run
 * pauses again there). Reject: the paused task again (its share of the
 * duration), then the same pause.
 * @param {Run} run
 * @param {number} now
 * @param {{ taskId: string, feedback: string, approved: boolean, webhooks: Run['webhooks'] }} resume
 * @returns {Segment}
 */
function applyResume(run, now, { taskId, feedback, approved, webhooks }) {
	const timeline = timelineOf(run);
	const pauseIndex = timeline.waitingTask;
	const { durationMs } = run.plan;
	const pauseAt = taskEnd(durationMs, pauseIndex + 1);
	const events = runEvents(run);
	const pos = events.findIndex((e) => e.kind === 'task' && e.taskIndex === pauseIndex);
	run.resumes.push({
		at: now,
		taskId: /** @type {ResumeRecord['taskId']} */ (taskId),
		feedback,
		approved,
		webhooks,
	});
	timeline.resumed = true;
	timeline.segmentStart = now;
	if (approved) {
		const next = pauseAfter(run.plan, pauseIndex);
		Object.assign(timeline, { offset: pauseAt, ...next, approvedFeedback: feedback });
		run.completesAt =
			run.plan.outcome === 'never' || next.waitingTask >= 0 ? null : now + (durationMs - pauseAt);
		const nextPos = events.findIndex((e) => e.kind === 'task' && e.taskIndex === next.waitingTask);
		return {
			events: events.slice(pos + 1, nextPos >= 0 ? nextPos + 1 : undefined),
			offset: pauseAt,
		};
	}
	timeline.offset = taskEnd(durationMs, pauseIndex);
	if (feedback) timeline.revisions[pauseIndex] = feedback;
	return { events: events.filter((e) => e.taskIndex === pauseIndex), offset: timeline.offset };
}

/**
 * POST /stop accepted: the run ends now and reads REVOKED from then on (the
 * platform's word for a stopped run), in every record shape and dialect. The
 * caller drops its pending webhook moments, so no step, task or crew call follows.
 * @param {Run} run
 * @param {number} now
 */
function stopRun(run, now) {
	timelineOf(run).stoppedAt = now;
	run.plan.outcome = 'revoked';
	run.completesAt = now;
	run.stoppedAt = now;
}

/**
 * The Celery word the hosted service names a run's state with, as its 400 to a
 * stop of a run that has ended says it ("Current state: SUCCESS").
 * @param {Run} run
 * @param {number} now
 */
function celeryStateOf(run, now) {
	const state = runState(run, now);
	if (state === 'completed') return 'SUCCESS';
	if (state === 'failed') return 'FAILURE';
	if (state === 'revoked') return 'REVOKED';
	return state.toUpperCase();
}

/** @type {WeakMap<Run, string[]>} */
const liveTaskIds = new WeakMap();

/**
 * The live service's id of a run's task: a UUID, not the task's name (docs/development/service-api.md#human-input-for-crews).
 * One per task and run, so a resumed run's pause has a new one.
 * @param {Run} run
 * @param {number} taskIndex 0-based
 */
function liveTaskId(run, taskIndex) {
	let ids = liveTaskIds.get(run);
	if (!ids) {
		ids = TASKS.map(() => randomUUID());
		liveTaskIds.set(run, ids);
	}
	return ids[taskIndex];
}

/**
 * The live dialect's resume: a NEW run (its own kickoff id) that takes the paused
 * run on from its pause, as the hosted service answered `{"kickoff_id": "<new id>"}`.
 * Its plan, inputs and meta are the paused run's; approve runs the rest of the
 * crew, reject redoes the paused task and pauses the new run there. The paused run
 * itself is left as it was. Returns the new run and the webhook moments it starts.
 * @param {Run} paused a run paused at `now`
 * @param {{ index: number, now: number, tokenType: TokenType, clock: () => number }} where
 * @param {{ taskId: string, feedback: string, approved: boolean, webhooks: Run['webhooks'] }} resume
 * @returns {{ run: Run, segment: Segment }}
 */
function continueAsNewRun(paused, { index, now, tokenType, clock }, resume) {
	const run = createRun({
		inputs: paused.inputs,
		meta: paused.meta,
		webhooks: resume.webhooks,
		tokenType,
		index,
		createdAt: now,
		plan: paused.plan,
		clock,
	});
	const { waitingAt, waitingTask, revisions } = timelineOf(paused);
	// The new run stands where the paused one stands: at its pause, with its revisions so far.
	Object.assign(timelineOf(run), {
		segmentStart: now,
		offset: waitingAt,
		waitingAt,
		waitingTask,
		resumed: true,
		revisions: [...revisions],
	});
	Object.defineProperty(run, 'resumedFrom', { value: paused.kickoffId, enumerable: true });
	return { run, segment: applyResume(run, now, resume) };
}

/**
 * The JSON body of one webhook call, built when it is sent.
 * @param {Run} run
 * @param {TimelineEvent} event
 * @returns {import('./index').WebhookDelivery['payload']}
 */
function webhookPayload(run, event) {
	const described = describeInputs(run.inputs);
	const meta = run.meta === undefined ? null : run.meta;
	if (event.kind === 'step') {
		const task = TASKS[event.taskIndex];
		const tool = task.tools[event.stepIndex];
		return {
			prompt: `${task.description} ${described}`,
			thought:
				event.stepIndex === 0
					? `I need to gather what the ${task.name} task needs for ${described}`
					: `I now have what I need to finish the ${task.name} task`,
			tool,
			tool_input: JSON.stringify({ query: described }),
			result: `${tool} returned results for ${described}`,
			kickoff_id: run.kickoffId,
			meta,
		};
	}
	if (event.kind === 'task') {
		const task = TASKS[event.taskIndex];
		return {
			...taskOutputHeader(event.taskIndex, described),
			agent: task.agent,
			output: taskOutput(run, event.taskIndex),
			output_json: event.taskIndex === TASKS.length - 1 ? run.plan.resultJson : null,
			kickoff_id: run.kickoffId,
			meta,
		};
	}
	const rejections = run.resumes.filter((r) => !r.approved).length;
	const steps = TASKS.length * STEPS_PER_TASK + rejections * STEPS_PER_TASK;
	const promptTokens = steps * PROMPT_TOKENS_PER_STEP;
	const completionTokens = steps * COMPLETION_TOKENS_PER_STEP;
	const failed = run.plan.outcome === 'failure';
	return {
		kickoff_id: run.kickoffId,
		result: failed ? null : finalResult(run),
		result_json: failed ? null : run.plan.resultJson,
		token_usage: {
			total_tokens: promptTokens + completionTokens,
			prompt_tokens: promptTokens,
			completion_tokens: completionTokens,
		},
		meta,
		// Not documented (no failure payload is shown, docs/development/service-api.md#legacy-webhooks): the failure text, as the status record gives it.
		...(failed ? { error: run.plan.error } : {}),
	};
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
	// A deployed flow started in the live dialect answers as the live service does, whatever the shape.
	if (flowDeploymentOf(run)?.dialect === 'live') return liveFlowRecord(run, at);
	return shape === 'wild' ? wildRecord(run, at) : contractRecord(run, at);
}

/**
 * The vendor's documented shape (docs/development/service-api.md#two-shapes-one-reading-rule, documented).
 * @param {Run} run
 * @param {ReturnType<typeof phaseAt>} at
 */
function contractRecord(run, at) {
	if (at.phase === 'pending') return { status: 'pending' };
	if (at.phase === 'paused') {
		return {
			status: 'pending_human_input',
			task_id: TASKS[at.taskIndex].id,
			output: taskOutput(run, at.taskIndex),
		};
	}
	if (at.phase === 'running') {
		return {
			status: 'running',
			current_task: TASKS[at.completedTasks].id,
			progress: { completed_tasks: at.completedTasks, total_tasks: TASKS.length },
		};
	}
	const { plan } = run;
	if (plan.outcome === 'failure')
		return { status: 'error', error: plan.error, execution_time: seconds(plan.durationMs) };
	if (plan.outcome === 'revoked') return { status: 'revoked' };
	const flow = flowOf(run);
	if (flow) {
		// The API reference has no flow record; ours puts the final state beside the documented output.
		return {
			status: 'completed',
			result: { output: finalResult(run), state: structuredClone(flow.state) },
			execution_time: seconds(plan.durationMs),
		};
	}
	return {
		status: 'completed',
		result: {
			output: finalResult(run),
			tasks: TASKS.map((task, i) => ({
				task_id: task.id,
				output: taskOutput(run, i),
				agent: task.agent,
				execution_time: seconds(plan.durationMs / TASKS.length),
			})),
		},
		execution_time: seconds(plan.durationMs),
	};
}

/**
 * What public clients actually parse (docs/development/service-api.md#two-shapes-one-reading-rule, Celery-like states).
 * @param {Run} run
 * @param {ReturnType<typeof phaseAt>} at
 */
function wildRecord(run, at) {
	if (at.phase === 'pending') return { state: 'PENDING' };
	if (at.phase === 'paused') {
		// A paused state exists but its spelling is not published (docs/development/service-api.md#two-shapes-one-reading-rule); this one follows the contract's.
		return {
			state: 'PENDING_HUMAN_INPUT',
			task_id: TASKS[at.taskIndex].id,
			result: taskOutput(run, at.taskIndex),
		};
	}
	if (at.phase === 'running') {
		const task = TASKS[at.completedTasks];
		return {
			state: 'RUNNING',
			status: `Working on task ${at.completedTasks + 1} of ${TASKS.length}`,
			last_step: {
				thought: `Working through the ${task.name} task for ${describeInputs(run.inputs)}`,
			},
		};
	}
	const { plan } = run;
	if (plan.outcome === 'failure') return { state: 'FAILURE', result: plan.error };
	if (plan.outcome === 'revoked') return { state: 'REVOKED' };
	const flow = flowOf(run);
	// As a finished flow was seen answering (docs/development/service-api.md#result-error-usage-progress-flow-state): result and result_json hold its final state.
	if (flow)
		return {
			state: 'SUCCESS',
			result: structuredClone(flow.state),
			result_json: structuredClone(flow.state),
		};
	const result = finalResult(run);
	return {
		state: 'SUCCESS',
		result,
		result_json: plan.resultJson === undefined ? null : plan.resultJson,
		last_executed_task: { name: TASKS[TASKS.length - 1].name, output: result },
	};
}

/**
 * The fields a CrewAI TaskOutput opens with, for the task webhook and the event
 * stream alike: its description, name, expected output and summary (the
 * description's first ten words).
 * @param {number} taskIndex
 * @param {string} described the run's inputs, as describeInputs gives them
 */
function taskOutputHeader(taskIndex, described) {
	const task = TASKS[taskIndex];
	const description = `${task.description} ${described}`;
	return {
		description,
		name: task.name,
		expected_output: task.expectedOutput,
		summary: `${description.split(' ').slice(0, 10).join(' ')}...`,
	};
}

module.exports = {
	taskOutputHeader,
	createRun,
	resolvePlan,
	checkPlanOverride,
	statusRecord,
	phaseAt,
	runState,
	describeInputs,
	initialSegment,
	applyResume,
	stopRun,
	celeryStateOf,
	continueAsNewRun,
	liveTaskId,
	webhookPayload,
	finalResult,
	DEFAULT_ERROR,
	TASKS,
	TASK_IDS,
};
