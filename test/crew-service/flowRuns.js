// @ts-check
'use strict';

const { fileResultLine } = require('./fileRecords');

/** @typedef {import('./index').Run} Run */
/** @typedef {import('./index').FlowRun} FlowRun */
/** @typedef {import('./index').FlowState} FlowState */

// The service takes state ids as UUIDs (docs/development/service-api.md#post-kickoff: restoreFromStateId; the 422 for inputs.id).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** @param {unknown} value */
function isUuid(value) {
	return typeof value === 'string' && UUID.test(value);
}

/**
 * The vendor's 422 for an `inputs.id` that is not a UUID (docs/development/service-api.md#post-kickoff), word for word.
 * @param {string} field
 * @param {string} value
 */
function notUuidMessage(field, value) {
	return `'${field}' must be a valid UUID when provided; got '${value}'.`;
}

/**
 * What a kickoff asks of persisted flow state, or why the service refuses it.
 * `inputs.id` is checked on every kickoff (the vendor's 422 names no deployment
 * kind); `restoreFromStateId` must be a UUID string when present (null = absent).
 * @param {Record<string, unknown>} inputs
 * @param {unknown} restoreFromStateId
 * @returns {{ invalidFormat: string } | { notUuid: string } | { inputsId: string | null, restoreFromStateId: string | null }}
 */
function readStateRequest(inputs, restoreFromStateId) {
	if (
		restoreFromStateId !== undefined &&
		restoreFromStateId !== null &&
		typeof restoreFromStateId !== 'string'
	) {
		return { invalidFormat: '"restoreFromStateId" must be a string' };
	}
	const given = Object.prototype.hasOwnProperty.call(inputs, 'id') ? inputs.id : null;
	// A flow deployment takes typed inputs, so an id may come as a number; the vendor's words quote it as text.
	if (given !== null && !isUuid(given))
		return { notUuid: notUuidMessage('inputs.id', String(given)) };
	const inputsId = /** @type {string | null} */ (given);
	const restore = typeof restoreFromStateId === 'string' ? restoreFromStateId : null;
	if (restore !== null && !isUuid(restore))
		return { notUuid: notUuidMessage('restoreFromStateId', restore) };
	return { inputsId, restoreFromStateId: restore };
}

/**
 * The saved states of a deployed `@persist` flow, by state id. A flow run's
 * state is saved as the run starts (the reference's flow changes no state
 * while it runs), so a run can restore from another that is still going.
 */
class FlowStates {
	constructor() {
		/** @type {Map<string, FlowState>} */
		this.saved = new Map();
	}

	/**
	 * Starts a persisted flow run's state. Fork (`restoreFromStateId`): the source
	 * state, the inputs on top, a fresh id (the kickoff_id, as observed on the
	 * hosted service); the source stays. Resume (deprecated `inputs.id`): the state
	 * saved under that id, written back under the same id. Both: restore from
	 * `restoreFromStateId`, write under `inputs.id`. An id with no saved state
	 * starts a fresh state, without an error (the vendor's guide).
	 * A flow deployment's state starts from its fields' defaults (`defaults`, empty for a
	 * crew run marked as a flow by its plan, as before).
	 * @param {string} kickoffId
	 * @param {Record<string, unknown>} inputs
	 * @param {{ inputsId: string | null, restoreFromStateId: string | null }} request
	 * @param {Record<string, unknown>} [defaults]
	 * @returns {FlowRun}
	 */
	start(kickoffId, inputs, request, defaults = {}) {
		const stateId = request.inputsId ?? kickoffId;
		const sourceId = request.restoreFromStateId ?? request.inputsId;
		const source = sourceId === null ? undefined : this.saved.get(sourceId);
		const { id: _inputsId, ...fields } = inputs;
		const { id: _sourceId, ...kept } = source ?? {};
		/** @type {FlowState} */
		const state = {
			...structuredClone(defaults),
			...kept,
			...fields,
			run_count: (source?.run_count ?? 0) + 1,
			kickoff_ids: [...(source?.kickoff_ids ?? []), kickoffId],
			id: stateId,
		};
		this.saved.set(stateId, state);
		return {
			stateId,
			mode:
				request.restoreFromStateId !== null
					? 'fork'
					: request.inputsId !== null
						? 'resume'
						: 'fresh',
			requestedFrom: sourceId,
			restoredFrom: source ? sourceId : null,
			state,
		};
	}

	/** @param {string} stateId */
	get(stateId) {
		return this.saved.get(stateId);
	}

	reset() {
		this.saved.clear();
	}
}

/**
 * The run's flow part, or null for a crew. Not enumerable, like `callbacks`:
 * runs compared whole by existing tests stay as they were.
 * @param {Run} run
 * @param {FlowRun | null} flow
 */
function attachFlow(run, flow) {
	Object.defineProperty(run, 'flow', { value: flow, enumerable: false });
}

/**
 * @param {Run} run
 * @returns {FlowRun | null}
 */
function flowOf(run) {
	return /** @type {{ flow?: FlowRun | null }} */ (run).flow ?? null;
}

/**
 * A deployed flow (option `deployment: 'flow'`), as the "Live" facts of docs/development/service-api.md saw one:
 * `GET /inputs` lists its state fields, `id` among them, none required; `{"inputs": {}}` runs on
 * the defaults; values keep their JSON types and a wrong type fails the run (a list given as the
 * text "[]" made the run FAILED). Types are the Python annotations a crewAI state model would have.
 * @type {ReadonlyArray<{ name: string, type: 'str' | 'int' | 'list', default: unknown }>}
 */
const FLOW_STATE_FIELDS = [
	{ name: 'topic', type: 'str', default: 'AI agents' },
	{ name: 'count', type: 'int', default: 1 },
	{ name: 'id', type: 'str', default: null },
	{ name: 'history', type: 'list', default: [] },
];

/** The deployed flow's methods, one per reference task (a flow counts steps, a crew tasks). */
const FLOW_METHODS = ['gather_research', 'analyse_findings', 'write_report'];
const FLOW_NAME = 'reference_flow';

/**
 * The state a fresh run of the deployed flow starts with (its `id` is set by FlowStates.start).
 * @param {readonly string[]} [fileFields]
 */
function flowStateDefaults(fileFields = []) {
	return Object.fromEntries(
		stateFields(fileFields)
			.filter((f) => f.name !== 'id')
			.map((f) => [f.name, structuredClone(f.default)]),
	);
}

/**
 * The deployed flow's state fields, with its file-typed ones (option `flowFileFields`: crewAI's
 * `File` fields, None until a kickoff sends one) after the others.
 * @param {readonly string[]} fileFields
 * @returns {ReadonlyArray<{ name: string, type: 'str' | 'int' | 'list' | 'file', default: unknown }>}
 */
function stateFields(fileFields) {
	return [
		...FLOW_STATE_FIELDS,
		...fileFields.map((name) => ({ name, type: /** @type {const} */ ('file'), default: null })),
	];
}

/**
 * What `GET /inputs` lists for the deployed flow, in either inputs shape.
 * @param {'names' | 'objects'} shape
 * @param {readonly string[]} [fileFields]
 */
function flowInputsListing(shape, fileFields = []) {
	const fields = stateFields(fileFields);
	return shape === 'objects'
		? fields.map((f) => ({ name: f.name, type: f.type, required: false, default: f.default }))
		: fields.map((f) => f.name);
}

/** @param {unknown} value */
function pythonTypeOf(value) {
	if (typeof value === 'string') return 'str';
	if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
	if (typeof value === 'boolean') return 'bool';
	if (Array.isArray(value)) return 'list';
	return value === null ? 'NoneType' : 'dict';
}

/**
 * Why the flow's state model refuses these inputs, in pydantic's words, or null. Lax like
 * pydantic: an int field takes "2", a str field takes nothing but text, a list field only a list.
 * @param {Record<string, unknown>} inputs
 * @returns {string | null}
 */
function flowInputsTypeError(inputs) {
	const problems = [];
	for (const field of FLOW_STATE_FIELDS) {
		if (field.name === 'id' || !Object.prototype.hasOwnProperty.call(inputs, field.name)) continue;
		const value = inputs[field.name];
		const ok =
			field.type === 'str'
				? typeof value === 'string'
				: field.type === 'int'
					? (typeof value === 'number' && Number.isInteger(value)) ||
						(typeof value === 'string' && /^-?\d+$/.test(value.trim()))
					: Array.isArray(value);
		if (ok) continue;
		const kind = { str: 'a valid string', int: 'a valid integer', list: 'a valid list' }[
			field.type
		];
		problems.push(
			`${field.name}\n  Input should be ${kind} [type=${field.type === 'str' ? 'string' : field.type === 'int' ? 'int' : 'list'}_type, input_value=${JSON.stringify(value)}, input_type=${pythonTypeOf(value)}]`,
		);
	}
	return problems.length === 0
		? null
		: `${problems.length} validation error${problems.length > 1 ? 's' : ''} for FlowState\n${problems.join('\n')}`;
}

/** A deployed flow's state as its final method reports it (live: `result` is that method's text). @param {FlowState} state */
function flowResultText(state) {
	const { id: _id, kickoff_ids: _kickoffIds, ...fields } = state;
	return `Flow finished: ${JSON.stringify(fields)}`;
}

/**
 * The live status record of a deployed flow (docs/development/service-api.md, the "Live" facts):
 * `state` upper case, `status` a message ("Task is Running", the exception text on FAILED, null
 * on SUCCESS), `result` the final method's text (no state object), `result_json` null, and
 * `progress` counting steps with no total.
 * @param {Run} run
 * @param {{ phase: string, completedTasks?: number }} at the run's phase (runs.phaseAt)
 */
function liveFlowRecord(run, at) {
	const blank = { result: null, result_json: null };
	if (at.phase === 'pending') return { state: 'PENDING', status: null, ...blank, progress: null };
	if (at.phase === 'running' || at.phase === 'paused') {
		const completed = at.completedTasks ?? 0;
		return {
			state: 'RUNNING',
			status: 'Task is Running',
			...blank,
			progress: {
				unit: 'step',
				completed,
				total: null,
				remaining: null,
				current: FLOW_METHODS[completed],
			},
		};
	}
	const { plan } = run;
	if (plan.outcome === 'failure') return { state: 'FAILED', status: plan.error, ...blank };
	if (plan.outcome === 'revoked') return { state: 'REVOKED', status: null, ...blank };
	// The final method's text, then the files the kickoff brought, as every other record has them.
	const result = [plan.result, ...(run.files ?? []).map(fileResultLine)].join('\n');
	return { state: 'SUCCESS', status: null, result, result_json: null };
}

/**
 * The stream events of one moment of a deployed flow's run: `flow_started` and each method's
 * start with the first step of its task, its end with the task, then `flow_finished` (result and
 * state) or, for a failing run, `method_execution_failed` and `flow_failed` (the source's event,
 * which the published list lacks).
 * @param {Run} run
 * @param {{ kind: string, taskIndex: number, stepIndex: number }} event
 * @param {Record<string, any>} legacy the moment's legacy webhook payload
 * @returns {{ type: string, data: Record<string, unknown> }[]}
 */
function flowStreamEventsOf(run, event, legacy) {
	const flow = flowOf(run);
	const state = flow ? structuredClone(flow.state) : {};
	const base = { flow_name: FLOW_NAME };
	if (event.kind === 'step') {
		/** @type {{ type: string, data: Record<string, unknown> }[]} */
		const out = [];
		if (event.taskIndex === 0 && event.stepIndex === 0)
			out.push({ type: 'flow_started', data: { ...base, inputs: { ...run.inputs } } });
		if (event.stepIndex === 0)
			out.push({
				type: 'method_execution_started',
				data: { ...base, method_name: FLOW_METHODS[event.taskIndex], state, params: {} },
			});
		return out;
	}
	if (event.kind === 'task') {
		return [
			{
				type: 'method_execution_finished',
				data: { ...base, method_name: FLOW_METHODS[event.taskIndex], result: legacy.output, state },
			},
		];
	}
	if (run.plan.outcome === 'failure') {
		const method = FLOW_METHODS[FLOW_METHODS.length - 1];
		return [
			{
				type: 'method_execution_failed',
				data: { ...base, method_name: method, error: run.plan.error },
			},
			{ type: 'flow_failed', data: { ...base, error: run.plan.error } },
		];
	}
	return [{ type: 'flow_finished', data: { ...base, result: legacy.result, state } }];
}

/**
 * Marks a run as a run of the deployed flow (not enumerable, like `flow`), with the dialect it
 * was started in, so its record and stream stay what they were if the options change later.
 * @param {Run} run
 * @param {'documented' | 'live'} dialect
 */
function markFlowDeployment(run, dialect) {
	Object.defineProperty(run, 'flowDeployment', { value: { dialect }, enumerable: false });
}

/** @param {Run} run @returns {{ dialect: 'documented' | 'live' } | null} */
function flowDeploymentOf(run) {
	return (
		/** @type {{ flowDeployment?: { dialect: 'documented' | 'live' } }} */ (run).flowDeployment ??
		null
	);
}

module.exports = {
	FlowStates,
	readStateRequest,
	attachFlow,
	flowOf,
	isUuid,
	notUuidMessage,
	FLOW_STATE_FIELDS,
	FLOW_METHODS,
	flowStateDefaults,
	flowInputsListing,
	flowInputsTypeError,
	flowResultText,
	liveFlowRecord,
	flowStreamEventsOf,
	markFlowDeployment,
	flowDeploymentOf,
};
