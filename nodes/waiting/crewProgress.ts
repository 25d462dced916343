import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../records/crewStatus';
import type { CrewState, CrewStatus } from '../records/crewStatus';

/** Something a person watching the crew would want to hear about, read off successive status records. */
export type ProgressEvent =
	/** The crew entered a state; a failure carries its reason, a pause the task waiting for a human. */
	| { kind: 'state'; state: CrewState; reason?: string; taskId?: string }
	/** What the crew says it is doing now (the Celery dialect's `status` text, or the documented `current_task`). */
	| { kind: 'activity'; text: string }
	/** A task the record names has finished; the counts when the record gives them. */
	| { kind: 'taskFinished'; task: string; completedTasks?: number; totalTasks?: number }
	/** The crew's final output, once it has completed. */
	| { kind: 'finalAnswer'; result: string };

/** What the previous records said, so that only changes become events. */
export interface ProgressMemory {
	state?: CrewState;
	activity?: string;
	currentTask?: string;
	completedTasks?: number;
	finishedTasks: readonly string[];
}

export const NOTHING_SEEN: ProgressMemory = { finishedTasks: [] };

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function count(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** `progress.completed_tasks/total_tasks` of the documented dialect. */
function readCounts(record: IDataObject): { completed?: number; total?: number } {
	const progress = isPlainObject(record.progress) ? record.progress : {};
	return { completed: count(progress.completed_tasks), total: count(progress.total_tasks) };
}

/**
 * The free text of what the crew is doing. The Celery dialect puts it in `status`
 * beside `state` ("Working on task 2 of 3"); the documented dialect names the task
 * in `current_task`, and `status` is only its state word there.
 */
function readActivity(record: IDataObject): string | undefined {
	const statusText = text(record.status);
	if (text(record.state) && statusText) return statusText;
	const currentTask = text(record.current_task);
	if (!currentTask) return undefined;
	const { completed, total } = readCounts(record);
	return completed !== undefined && total !== undefined ? `Working on ${currentTask} (${completed} of ${total} tasks done)` : `Working on ${currentTask}`;
}

/** The tasks a finished run's record lists: `result.tasks[]` (documented dialect). */
function listedTasks(record: IDataObject): string[] {
	const result = isPlainObject(record.result) ? record.result : {};
	const tasks = Array.isArray(result.tasks) ? result.tasks : [];
	return tasks.flatMap((task) => {
		const name = isPlainObject(task) ? (text(task.task_id) ?? text(task.name)) : undefined;
		return name ? [name] : [];
	});
}

/** Every task this record shows as finished that no earlier record did, in the order they ran. */
function newlyFinishedTasks(record: IDataObject, state: CrewState, memory: ProgressMemory): Array<Extract<ProgressEvent, { kind: 'taskFinished' }>> {
	const finished: Array<Extract<ProgressEvent, { kind: 'taskFinished' }>> = [];
	const known = new Set(memory.finishedTasks);
	const add = (task: string, completedTasks?: number, totalTasks?: number) => {
		if (known.has(task)) return;
		known.add(task);
		finished.push({ kind: 'taskFinished', task, ...(completedTasks !== undefined ? { completedTasks } : {}), ...(totalTasks !== undefined ? { totalTasks } : {}) });
	};

	const listed = listedTasks(record);
	listed.forEach((task, index) => add(task, index + 1, listed.length));
	// The task the crew was on is done once it works on another one, or the crew completed;
	// a crew that failed or paused on it did not finish it.
	const { completed, total } = readCounts(record);
	const currentTask = text(record.current_task);
	const movedOn = state === 'completed' || (state === 'running' && currentTask !== undefined && (completed === undefined || completed > (memory.completedTasks ?? 0)));
	if (memory.currentTask && memory.currentTask !== currentTask && movedOn) {
		add(memory.currentTask, completed, total);
	}
	const lastTask = isPlainObject(record.last_executed_task) ? text(record.last_executed_task.name) : undefined;
	if (lastTask) add(lastTask);
	return finished;
}

/**
 * The events one more status record brings, given what the earlier ones said, and
 * what to remember for the next. Pure: the caller keeps the memory per kickoff.
 * Order within one record: tasks that finished, the state, what the crew does now,
 * and last the final answer.
 */
export function progressEvents(memory: ProgressMemory, status: CrewStatus): { events: ProgressEvent[]; memory: ProgressMemory } {
	const record = status.response;
	const events: ProgressEvent[] = [...newlyFinishedTasks(record, status.state, memory)];
	if (status.state !== memory.state) {
		const state: ProgressEvent = { kind: 'state', state: status.state };
		if (status.state === 'failed' && status.error) state.reason = status.error;
		if (status.state === 'paused' && status.task_id) state.taskId = status.task_id;
		events.push(state);
	}
	const stillGoing = status.state === 'pending' || status.state === 'running';
	const activity = stillGoing ? readActivity(record) : undefined;
	if (activity && activity !== memory.activity) events.push({ kind: 'activity', text: activity });
	if (status.state === 'completed' && status.result !== null) events.push({ kind: 'finalAnswer', result: status.result });

	const finishedTasks = [...memory.finishedTasks, ...events.flatMap((event) => (event.kind === 'taskFinished' ? [event.task] : []))];
	const { completed } = readCounts(record);
	return {
		events,
		memory: {
			state: status.state,
			activity: activity ?? memory.activity,
			currentTask: text(record.current_task),
			completedTasks: completed ?? memory.completedTasks,
			finishedTasks,
		},
	};
}

const STATE_WORDS: Record<CrewState, string> = {
	pending: 'is queued',
	running: 'is running',
	paused: 'is waiting for human input',
	completed: 'completed',
	failed: 'failed',
	not_found: 'is not known to the service',
};

/**
 * One event as a line of text for a chat or a streamed response. The final answer
 * is the crew's own text, unchanged, so a client can show it as the answer.
 */
export function progressText(kickoffId: string, event: ProgressEvent): string {
	switch (event.kind) {
		case 'state': {
			const detail = event.reason ? `: ${event.reason}` : event.taskId ? ` on task ${event.taskId}` : '';
			return `The crew ${STATE_WORDS[event.state]} (kickoff ID ${kickoffId})${detail}\n`;
		}
		case 'activity':
			return `${event.text}\n`;
		case 'taskFinished': {
			const counts = event.completedTasks !== undefined && event.totalTasks !== undefined ? ` (${event.completedTasks} of ${event.totalTasks})` : '';
			return `Task finished: ${event.task}${counts}\n`;
		}
		case 'finalAnswer':
			return event.result;
	}
}
