// @ts-check
'use strict';

/** @typedef {import('./index').Run} Run */
/** @typedef {import('./index').FlowRun} FlowRun */
/** @typedef {import('./index').FlowState} FlowState */

// The service takes state ids as UUIDs (field notes: restoreFromStateId; the 422 for inputs.id).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** @param {unknown} value */
function isUuid(value) {
	return typeof value === 'string' && UUID.test(value);
}

/**
 * The vendor's 422 for an `inputs.id` that is not a UUID (field notes), word for word.
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
 * @param {Record<string, string>} inputs
 * @param {unknown} restoreFromStateId
 * @returns {{ invalidFormat: string } | { notUuid: string } | { inputsId: string | null, restoreFromStateId: string | null }}
 */
function readStateRequest(inputs, restoreFromStateId) {
	if (restoreFromStateId !== undefined && restoreFromStateId !== null && typeof restoreFromStateId !== 'string') {
		return { invalidFormat: '"restoreFromStateId" must be a string' };
	}
	const inputsId = Object.prototype.hasOwnProperty.call(inputs, 'id') ? inputs.id : null;
	if (inputsId !== null && !isUuid(inputsId)) return { notUuid: notUuidMessage('inputs.id', inputsId) };
	const restore = typeof restoreFromStateId === 'string' ? restoreFromStateId : null;
	if (restore !== null && !isUuid(restore)) return { notUuid: notUuidMessage('restoreFromStateId', restore) };
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
	 * @param {string} kickoffId
	 * @param {Record<string, string>} inputs
	 * @param {{ inputsId: string | null, restoreFromStateId: string | null }} request
	 * @returns {FlowRun}
	 */
	start(kickoffId, inputs, request) {
		const stateId = request.inputsId ?? kickoffId;
		const sourceId = request.restoreFromStateId ?? request.inputsId;
		const source = sourceId === null ? undefined : this.saved.get(sourceId);
		const { id: _inputsId, ...fields } = inputs;
		const { id: _sourceId, ...kept } = source ?? {};
		/** @type {FlowState} */
		const state = {
			...kept,
			...fields,
			run_count: (source?.run_count ?? 0) + 1,
			kickoff_ids: [...(source?.kickoff_ids ?? []), kickoffId],
			id: stateId,
		};
		this.saved.set(stateId, state);
		return {
			stateId,
			mode: request.restoreFromStateId !== null ? 'fork' : request.inputsId !== null ? 'resume' : 'fresh',
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

module.exports = { FlowStates, readStateRequest, attachFlow, flowOf, isUuid, notUuidMessage };
