import type { IDataObject } from 'n8n-workflow';

import { readCrewState } from '../status/crewStatus';
import type { CrewState, CrewStatus } from '../status/crewStatus';
import { readProgress } from '../status/runMetrics';
import type { CrewProgress } from '../status/runMetrics';
import { isPlainObject } from '../records/plainObject';

/**
 * Something a person watching the crew would want to hear about, read off successive status
 * records.
 */
export type ProgressEvent =
	/**
	 * The crew entered a state; a failure carries its reason, a pause the task waiting for a human.
	 */
	| { kind: 'state'; state: CrewState; reason?: string; taskId?: string }
	/**
	 * What the crew says it is doing now (its `progress`, the documented `current_task`, or the
	 * Celery dialect's `status` text).
	 */
	| { kind: 'activity'; text: string }
	/** A task the record names has finished; the agent and the counts when the record gives them. */
	| {
			kind: 'taskFinished';
			task: string;
			agent?: string;
			completedTasks?: number;
			totalTasks?: number;
	  }
	/** The crew's final output, once it has completed. */
	| { kind: 'finalAnswer'; result: string };

/** What the previous records said, so that only changes become events. */
export interface ProgressMemory {
	state?: CrewState;
	activity?: string;
	currentTask?: string;
	completedTasks?: number;
	finishedTasks: readonly string[];
	/**
	 * The platform events already told (their keys), so an event the next record repeats is
	 * not told twice: the live record lists the 100 most recent events on every read.
	 */
	seenEvents?: readonly string[];
}

/** More than the platform's window of 100 events, so no event still in the window is forgotten. */
const SEEN_EVENTS_KEPT = 200;

export const NOTHING_SEEN: ProgressMemory = { finishedTasks: [] };

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `n thing(s)`, for the counts a person reads. */
function plural(n: number, noun: string): string {
	return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * How far the run has come, as a person reads it. Crews count tasks of a known total ("1 of 3 tasks
 * done"); flows count steps and never know a total
 * (docs/development/service-api.md#result-error-usage-progress-flow-state), so a flow shows a count
 * and never "of N".
 */
function describeProgress(progress: CrewProgress): string | undefined {
	const { unit, completed, total, current, current_agent: agent } = progress;
	const done =
		completed === null
			? undefined
			: unit === 'task' && total !== null
				? `${completed} of ${total} tasks done`
				: `${plural(completed, unit)} done`;
	// A record that names nothing and counts nothing done yet (a queued run's `0 of 3`) says nothing
	// worth a line.
	if (current === null && !completed) return undefined;
	if (current === null) return done ? `${done[0].toUpperCase()}${done.slice(1)}` : undefined;
	const what = unit === 'step' ? `step ${current}` : current;
	const doing = agent ? `${agent} is working on ${what}` : `Working on ${what}`;
	return done ? `${doing} (${done})` : doing;
}

/**
 * Whether a `status` message only says the state again: live records carry "Task is Pending" and
 * "Task is Running" beside `state` (docs/development/service-api.md#two-shapes-one-reading-rule),
 * and a person should read that once.
 */
function restatesState(message: string, state: CrewState): boolean {
	const said = /^task is (\w+)$/i.exec(message);
	return said !== null && readCrewState({ state: said[1] }) === state;
}

/**
 * What the crew is doing, as its record tells: the run's `progress` (the live platform
 * shape with the current task and agent, or the documented `current_task` and counts),
 * else the Celery dialect's `status` text beside `state` ("Working on task 2 of 3"),
 * unless that text only repeats the state.
 */
function readActivity(record: IDataObject, state: CrewState): string | undefined {
	const progress = readProgress(record);
	const described = progress ? describeProgress(progress) : undefined;
	if (described) return described;
	const statusText = text(record.status);
	return text(record.state) && statusText && !restatesState(statusText, state)
		? statusText
		: undefined;
}

/** One entry of the live record's `events` (the 100 most recent), as far as progress needs it. */
interface PlatformEvent {
	key: string;
	type: string;
	task?: string;
	agent?: string;
	at: number;
}

function eventTime(value: unknown): number {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	const parsed = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(parsed) ? Number.POSITIVE_INFINITY : parsed;
}

/**
 * The record's platform events, oldest first: the service's order is not promised (the
 * vendor saw streamed events out of order), so they are ordered by `timestamp`; an event
 * without one keeps its place after those with one. The key tells one event from another
 * across reads (type, task, agent, time), as the window slides.
 */
function platformEvents(record: IDataObject): PlatformEvent[] {
	const events = Array.isArray(record.events) ? record.events : [];
	const read = events.flatMap((event, index) => {
		if (!isPlainObject(event)) return [];
		const type = text(event.type);
		if (!type) return [];
		const task = text(event.task_name);
		const agent = text(event.agent_role);
		const stamp =
			typeof event.timestamp === 'number' || typeof event.timestamp === 'string'
				? String(event.timestamp)
				: '';
		return [
			{
				key: [type, task ?? '', agent ?? '', stamp].join('|'),
				type,
				task,
				agent,
				at: eventTime(event.timestamp),
				index,
			},
		];
	});
	read.sort((a, b) => (a.at === b.at ? a.index - b.index : a.at < b.at ? -1 : 1));
	return read.map(({ key, type, task, agent, at }) => ({ key, type, task, agent, at }));
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

/**
 * Every task this record shows as finished that no earlier record did, in the order they ran; and
 * the platform events now told.
 */
function newlyFinishedTasks(
	record: IDataObject,
	state: CrewState,
	memory: ProgressMemory,
): { finished: Array<Extract<ProgressEvent, { kind: 'taskFinished' }>>; seenEvents: string[] } {
	const finished: Array<Extract<ProgressEvent, { kind: 'taskFinished' }>> = [];
	const known = new Set(memory.finishedTasks);
	const add = (task: string, completedTasks?: number, totalTasks?: number, agent?: string) => {
		known.add(task);
		finished.push({
			kind: 'taskFinished',
			task,
			...(agent ? { agent } : {}),
			...(completedTasks !== undefined ? { completedTasks } : {}),
			...(totalTasks !== undefined ? { totalTasks } : {}),
		});
	};
	const addOnce = (task: string, completedTasks?: number, totalTasks?: number) => {
		if (!known.has(task)) add(task, completedTasks, totalTasks);
	};
	const progress = readProgress(record);
	const totalTasks =
		progress?.unit === 'task' && progress.total !== null ? progress.total : undefined;

	// The live platform lists its recent events: each `task_completed` is told once, by its
	// key, even when a flow runs a task of the same name again. The count is the tasks seen
	// finishing so far, shown only while it fits the crew's total.
	const seenEvents = new Set(memory.seenEvents ?? []);
	const told: string[] = [];
	const events = platformEvents(record);
	for (const event of events) {
		if (seenEvents.has(event.key)) continue;
		seenEvents.add(event.key);
		told.push(event.key);
		if (event.type !== 'task_completed' || !event.task) continue;
		const ordinal = memory.finishedTasks.length + finished.length + 1;
		const fits = totalTasks !== undefined && ordinal <= totalTasks;
		add(event.task, fits ? ordinal : undefined, fits ? totalTasks : undefined, event.agent);
	}

	const listed = listedTasks(record);
	listed.forEach((task, index) => addOnce(task, index + 1, listed.length));
	// Without events, the task the crew was on is done once it works on another one, or the
	// crew completed; a crew that failed or paused on it did not finish it. With events the
	// platform says so itself, and guessing as well could tell a task twice.
	if (!Array.isArray(record.events) && progress?.unit !== 'step') {
		const completed = progress?.completed ?? undefined;
		const currentTask = progress?.current ?? undefined;
		const movedOn =
			state === 'completed' ||
			(state === 'running' &&
				currentTask !== undefined &&
				(completed === undefined || completed > (memory.completedTasks ?? 0)));
		if (memory.currentTask && memory.currentTask !== currentTask && movedOn) {
			// Its place is after the tasks done when it was current, not the record's count:
			// a slow read may find the crew a task or two further on.
			const ordinal = memory.completedTasks !== undefined ? memory.completedTasks + 1 : completed;
			addOnce(memory.currentTask, ordinal, ordinal !== undefined ? totalTasks : undefined);
		}
	}
	const lastTask = isPlainObject(record.last_executed_task)
		? text(record.last_executed_task.name)
		: undefined;
	if (lastTask) addOnce(lastTask);
	return { finished, seenEvents: [...(memory.seenEvents ?? []), ...told].slice(-SEEN_EVENTS_KEPT) };
}

/**
 * The events one more status record brings, given what the earlier ones said, and
 * what to remember for the next. Pure: the caller keeps the memory per kickoff.
 * Order within one record: tasks that finished, the state, what the crew does now,
 * and last the final answer.
 */
export function progressEvents(
	memory: ProgressMemory,
	status: CrewStatus,
): { events: ProgressEvent[]; memory: ProgressMemory } {
	const record = status.response;
	const { finished, seenEvents } = newlyFinishedTasks(record, status.state, memory);
	const events: ProgressEvent[] = [...finished];
	if (status.state !== memory.state) {
		const state: ProgressEvent = { kind: 'state', state: status.state };
		if (status.state === 'failed' && status.error) state.reason = status.error;
		if (status.state === 'paused' && status.task_id) state.taskId = status.task_id;
		events.push(state);
	}
	const stillGoing = status.state === 'pending' || status.state === 'running';
	const activity = stillGoing ? readActivity(record, status.state) : undefined;
	if (activity && activity !== memory.activity) events.push({ kind: 'activity', text: activity });
	if (status.state === 'completed' && status.result !== null)
		events.push({ kind: 'finalAnswer', result: status.result });

	const finishedTasks = [...memory.finishedTasks, ...finished.map((event) => event.task)];
	const progress = readProgress(record);
	return {
		events,
		memory: {
			state: status.state,
			activity: activity ?? memory.activity,
			currentTask: progress?.current ?? undefined,
			completedTasks: progress?.completed ?? memory.completedTasks,
			finishedTasks,
			...(seenEvents.length > 0 ? { seenEvents } : {}),
		},
	};
}
