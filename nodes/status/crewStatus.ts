import type { IDataObject } from 'n8n-workflow';

import { readProgress, readUsage } from './runMetrics';
import type { CrewProgress, CrewUsage } from './runMetrics';
import { isStateId } from '../records/stateId';
import { isPlainObject } from '../records/plainObject';
import { readPausedTask } from '../records/pausedTask';
import type { PausedTask } from '../records/pausedTask';

/**
 * The states the node reads, whatever spelling the service used. `not_found` is
 * the live service's 200 `NOT FOUND`: a run it does not know (yet), or one
 * waiting for human input; only the wait can tell which (status/notFound.ts),
 * so no output item ever carries it. `stopped` is a run someone stopped (the
 * service's `REVOKED`, after `POST /stop`): it ended without a result and without a failure.
 */
export type CrewState =
	| 'pending'
	| 'running'
	| 'paused'
	| 'completed'
	| 'failed'
	| 'stopped'
	| 'not_found';

/** The normalized status record that Get Status and Kickoff and Wait output. */
export interface CrewStatus extends IDataObject {
	kickoff_id: string;
	state: CrewState;
	/** The crew's final output as text, once it has completed; otherwise null. */
	result: string | null;
	/** The structured final output, when the service sends one. */
	result_json: IDataObject | null;
	/** Why the crew failed, when it failed; otherwise null. */
	error: string | null;
	/** The task waiting for a human's feedback, when the crew is paused; otherwise null. */
	task_id: string | null;
	/**
	 * A paused crew's task, what the person judges (records/pausedTask.ts); only on paused records.
	 */
	task_output?: PausedTask['task_output'];
	task_name?: string | null;
	task_description?: string | null;
	/** The record exactly as the service sent it. */
	response: IDataObject;
	/**
	 * A completed persisted flow's final state, with its state ID in `id`, when the record carries
	 * one. Absent otherwise, so a crew's record is what it always was.
	 */
	flow_state?: IDataObject;
	/**
	 * The tokens the run used (live `usage_metrics`, or `token_usage`), on completed and failed
	 * records that carry them.
	 */
	usage?: CrewUsage;
	/** How far a running crew has come, when its record tells. */
	progress?: CrewProgress;
	/** What to do next, when the state alone does not say (a paused run known only by NOT FOUND). */
	next_step?: string;
}

// The hosted service speaks two dialects
// (docs/development/service-api.md#two-shapes-one-reading-rule): Celery-like upper-case `state`
// values, and the documented lower-case `status` values.
const COMPLETED_STATES = new Set(['success', 'completed']);
const FAILED_STATES = new Set(['failed', 'failure', 'error']);
// REVOKED is the hosted service's word for a run stopped through POST /stop
// (docs/development/service-api.md#stopping-a-run); the vendor's client counts it a failure, but
// nothing failed: a person or a workflow ended it.
const STOPPED_STATES = new Set(['revoked', 'stopped', 'cancelled', 'canceled', 'aborted']);
const PENDING_STATES = new Set(['pending', 'queued']);
// Live, `NOT FOUND` (a 200) answers an unknown id, a run not registered yet, and a run paused for
// human input (docs/development/service-api.md#not-found-is-a-200): its own outcome, never pending.
const NOT_FOUND_STATES = new Set(['not found', 'not_found', 'notfound']);
// The hosted service pauses a crew for human input under a spelling nobody
// has published; these words are what such a state would carry.
const PAUSED_WORDS = /human|paused|awaiting|waiting_for_input|input_required/;

function nonEmptyText(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Reads the state word (`state` first, then `status`) and maps it onto a CrewState. */
export function readCrewState(record: IDataObject): CrewState {
	const word = (nonEmptyText(record.state) ?? nonEmptyText(record.status) ?? '')
		.trim()
		.toLowerCase();
	if (COMPLETED_STATES.has(word)) return 'completed';
	if (FAILED_STATES.has(word)) return 'failed';
	if (STOPPED_STATES.has(word)) return 'stopped';
	if (PENDING_STATES.has(word)) return 'pending';
	if (NOT_FOUND_STATES.has(word)) return 'not_found';
	if (PAUSED_WORDS.test(word)) return 'paused';
	// Started, running and every word not known yet: still going. A crew that
	// never leaves such a state is ended by the caller's timeout, not here.
	return 'running';
}

function outputAsText(output: unknown): string | null {
	if (output === undefined || output === null) return null;
	if (typeof output === 'string') return output;
	return JSON.stringify(output);
}

/** Final output: `result` as text, else `result.output`, else `last_executed_task.output`. */
export function readFinalOutput(record: IDataObject): string | null {
	const { result } = record;
	if (typeof result === 'string') return result;
	if (isPlainObject(result) && result.output !== undefined && result.output !== null) {
		return outputAsText(result.output);
	}
	const lastTask = record.last_executed_task;
	if (isPlainObject(lastTask)) return outputAsText(lastTask.output);
	return null;
}

/**
 * The `status` beside a `state` when it is a message rather than the state word
 * again: live, a FAILED record carries its exception text there and nowhere else.
 */
function statusMessage(record: IDataObject): string | undefined {
	const message = nonEmptyText(record.state) ? nonEmptyText(record.status) : undefined;
	if (!message) return undefined;
	const word = message.trim().toLowerCase();
	return COMPLETED_STATES.has(word) ||
		FAILED_STATES.has(word) ||
		STOPPED_STATES.has(word) ||
		PENDING_STATES.has(word)
		? undefined
		: message;
}

/**
 * Why a crew failed: `error`, else a text `result` (the Celery dialect puts it there),
 * else the live `status` message, else `message`/`detail`.
 */
export function readFailureReason(record: IDataObject): string {
	for (const candidate of [
		record.error,
		record.result,
		statusMessage(record),
		record.message,
		record.detail,
	]) {
		const text = nonEmptyText(candidate);
		if (text) return text;
		if (isPlainObject(candidate) && nonEmptyText(candidate.message))
			return candidate.message as string;
	}
	const state = nonEmptyText(record.state) ?? nonEmptyText(record.status);
	return state
		? `The crew service reported the state "${state}" without a reason.`
		: 'The crew service reported a failure without a reason.';
}

function asFlowState(value: unknown): IDataObject | undefined {
	return isPlainObject(value) && isStateId(value.id) ? value : undefined;
}

/**
 * A completed flow's state: an object whose `id` is a UUID (every crewAI flow state has one). A
 * finished flow's record was seen holding it in `result` and `result_json`
 * (docs/development/service-api.md#result-error-usage-progress-flow-state); `result.state` is the
 * place beside the documented `result.output`. A crew's structured output is taken for a state only
 * if it has a UUID `id` as well.
 */
export function readFlowState(record: IDataObject): IDataObject | undefined {
	const { result } = record;
	return (
		(isPlainObject(result) ? asFlowState(result.state) : undefined) ??
		asFlowState(result) ??
		asFlowState(record.result_json)
	);
}

/**
 * Turns any status record the service may send into the normalized CrewStatus.
 * Never throws: a body that is not an object (empty, text, an array) reads as
 * a crew that is still running, so a passing glitch does not end a wait.
 * For a flow (`deployment` 'flow'), a completed record with no state object in it
 * gives `flow_state: { id: <kickoff id> }`: live, a persisted flow's state id is its
 * kickoff id and its record carries the final method's text, not the state.
 */
export function readCrewStatus(
	kickoffId: string,
	body: unknown,
	deployment: 'crew' | 'flow' = 'crew',
): CrewStatus {
	const response: IDataObject = isPlainObject(body)
		? body
		: body === undefined || body === ''
			? {}
			: { body: body as IDataObject[keyof IDataObject] };
	const record = isPlainObject(body) ? body : {};
	const state = readCrewState(record);
	const resultJson = isPlainObject(record.result_json) ? record.result_json : null;
	const flowState =
		state === 'completed'
			? (readFlowState(record) ?? (deployment === 'flow' ? { id: kickoffId } : undefined))
			: undefined;
	// Optional, so a record that carries no counts reads exactly as before.
	const usage =
		state === 'completed' || state === 'failed' || state === 'stopped'
			? readUsage(record)
			: undefined;
	const progress = state === 'running' ? readProgress(record) : undefined;
	const paused = state === 'paused' ? readPausedTask(record) : undefined;
	return {
		kickoff_id: kickoffId,
		state,
		result: state === 'completed' ? readFinalOutput(record) : null,
		result_json: state === 'completed' ? resultJson : null,
		error: state === 'failed' ? readFailureReason(record) : null,
		task_id: paused?.task_id ?? null,
		...(paused
			? {
					task_output: paused.task_output,
					task_name: paused.task_name,
					task_description: paused.task_description,
				}
			: {}),
		response,
		...(flowState ? { flow_state: flowState } : {}),
		...(usage ? { usage } : {}),
		...(progress ? { progress } : {}),
	};
}
