import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../records/crewStatus';

const first = (...values: unknown[]) => values.find((value) => value !== undefined && value !== null && value !== '');

/**
 * A crew's human-input call in stable names. The vendor names its contents in
 * prose only ("execution ID, task ID, task output"), so several spellings are
 * read, and the payload is kept whole for anything not mapped.
 */
export function toHumanInputItem(payload: IDataObject): IDataObject {
	const task = isPlainObject(payload.task) ? payload.task : {};
	return {
		event: 'human_input_requested',
		kickoff_id: first(payload.kickoff_id, payload.execution_id, payload.kickoffId, payload.executionId, payload.id) ?? null,
		task_id: first(payload.task_id, payload.taskId, task.id, task.task_id, task.name) ?? null,
		task_output: first(payload.task_output, payload.output, payload.result, payload.taskOutput, task.output, task.raw) ?? null,
		payload,
	};
}

/** True for a body that reads as a human-input call: it names an execution, not a legacy kickoff payload. */
export function looksLikeHumanInput(payload: IDataObject): boolean {
	return 'execution_id' in payload || 'executionId' in payload;
}
