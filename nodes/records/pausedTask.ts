import type { IDataObject } from 'n8n-workflow';

import { firstGiven, isPlainObject } from './plainObject';

/**
 * What a person judges when a crew pauses for them: the task it waits on and that task's output,
 * with the task's name and description where the service says them. Every way a pause reaches the
 * node gives these four fields (null where unknown): the human-input call (the Crew Trigger, Wait
 * By: Callback, Resume's callback wait) and a paused status record (Kickoff and Wait's and Resume's
 * polling). The vendor names the call's contents in prose only ("execution ID, task ID, task
 * output"; live: `task_id`, `task_output`, docs/development/service-api.md#human-input-for-crews),
 * so several spellings are read. Pure.
 */
export interface PausedTask {
	/** The task the crew waits on; live a UUID, the id Resume sends back. */
	task_id: string | null;
	/** The task's output exactly as the service sent it (text, or an object). */
	task_output: IDataObject[keyof IDataObject] | null;
	task_name: string | null;
	task_description: string | null;
}

export const NO_PAUSED_TASK: PausedTask = {
	task_id: null,
	task_output: null,
	task_name: null,
	task_description: null,
};

function idText(value: unknown): string | null {
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The paused task a human-input call or a paused status record names. `task` nested in
 * the body is read too (its `name` standing in for an id, as older payloads sent it).
 */
export function readPausedTask(body: IDataObject): PausedTask {
	const task = isPlainObject(body.task) ? body.task : {};
	const output = firstGiven(
		body.task_output,
		body.taskOutput,
		body.output,
		body.result,
		task.output,
		task.raw,
	);
	return {
		task_id: idText(firstGiven(body.task_id, body.taskId, task.id, task.task_id, task.name)),
		task_output: output === undefined ? null : (output as PausedTask['task_output']),
		task_name: text(firstGiven(body.task_name, body.taskName, task.name)),
		task_description: text(
			firstGiven(body.task_description, body.taskDescription, task.description),
		),
	};
}

/**
 * `known` with each field it lacks taken from `more`: what one source does not say, another may.
 */
export function withMissingFrom(known: PausedTask, more: Partial<PausedTask>): PausedTask {
	return {
		task_id: known.task_id ?? more.task_id ?? null,
		task_output: known.task_output ?? more.task_output ?? null,
		task_name: known.task_name ?? more.task_name ?? null,
		task_description: known.task_description ?? more.task_description ?? null,
	};
}

/** The four fields of a record, as they stand on it (null where it has none). */
export function pausedTaskFieldsOf(record: Partial<PausedTask>): PausedTask {
	return withMissingFrom(NO_PAUSED_TASK, record);
}
