import type { IDataObject } from 'n8n-workflow';
import { readPausedTask } from '../records/pausedTask';
import { firstGiven } from '../records/plainObject';

/**
 * A crew's human-input call in stable names. The vendor names its contents in
 * prose only ("execution ID, task ID, task output"), so several spellings are
 * read (the task's as every paused item reads them, records/pausedTask.ts), and
 * the payload is kept whole for anything not mapped.
 */
export function toHumanInputItem(payload: IDataObject, authenticated = true): IDataObject {
	return {
		event: 'human_input_requested',
		kickoff_id:
			firstGiven(
				payload.kickoff_id,
				payload.execution_id,
				payload.kickoffId,
				payload.executionId,
				payload.id,
			) ?? null,
		...readPausedTask(payload),
		// False for the hosted service's call, which carries no Authorization: confirm with Get Status
		// before acting on it.
		authenticated,
		payload,
	};
}

const ID_PATTERN = /^[\w.:-]{1,200}$/;

/**
 * The check a human-input call without Authorization gets (the hosted service sends none,
 * docs/development/service-api.md#human-input-for-crews): it must name one kickoff, as an id can
 * look (its `kickoff_id` and `execution_id` the same when both are there), and a task. Nothing
 * proves the service sent it; the workflow confirms with Get Status. Returns why the call is
 * refused, or undefined.
 */
export function unauthenticatedCallProblem(payload: IDataObject): string | undefined {
	const ids = [payload.kickoff_id, payload.execution_id].filter(
		(value) => value !== undefined && value !== null,
	);
	if (ids.length === 0 || !ids.every((id) => typeof id === 'string' && ID_PATTERN.test(id)))
		return 'a human-input call without Authorization names no kickoff_id';
	if (new Set(ids).size > 1) return "the call's kickoff_id and execution_id differ";
	const taskId = payload.task_id;
	if (typeof taskId !== 'string' || taskId.trim() === '')
		return 'a human-input call without Authorization names no task_id';
	return undefined;
}

/**
 * True for a body that reads as a human-input call: it names an execution, not a legacy kickoff
 * payload.
 */
export function looksLikeHumanInput(payload: IDataObject): boolean {
	return 'execution_id' in payload || 'executionId' in payload;
}
