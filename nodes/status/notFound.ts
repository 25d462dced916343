import type { CrewStatus } from './crewStatus';
import { inRegistrationWindow } from './registrationWindow';
import { pausedTaskFieldsOf, withMissingFrom } from '../records/pausedTask';
import type { PausedTask } from '../records/pausedTask';

/**
 * The live service answers 200 `NOT FOUND` for three different things
 * (docs/development/service-api.md#not-found-is-a-200): a kickoff id it does not know, a run right
 * after its kickoff that is not registered yet ("a few reads may say it too"), and a run waiting
 * for human input (never `PAUSED`). One record cannot tell them apart; what the wait has seen of
 * the run before, and how long ago its kickoff was answered (registrationWindow.ts), can. Pure, so
 * the decision is tested without a service or a clock.
 */

/** What the reads of one run have shown so far. */
export interface NotFoundMemory {
	/** A read gave the run's own record (pending, running, ...): the service knew it. */
	seen: boolean;
	/** NOT FOUND reads since the kickoff while it was never seen: the item's error says how many. */
	notFoundReads: number;
}

export const NOTHING_READ: NotFoundMemory = { seen: false, notFoundReads: 0 };

/**
 * Where the reads of a run start: from nothing, or (a run an earlier try of the node saw) from
 * seen.
 */
export function firstMemory(seenBefore: boolean | undefined): NotFoundMemory {
	return seenBefore === true ? { seen: true, notFoundReads: 0 } : NOTHING_READ;
}

export type NotFoundVerdict =
	/**
	 * Never seen, inside the registration window: not registered yet, read again at the next poll.
	 */
	| 'tolerate'
	/** Never seen, and NOT FOUND after the registration window: the service knows no such run. */
	| 'unknownRun'
	/**
	 * Seen before, gone now: on the live service that is a run waiting for human input, however
	 * young.
	 */
	| 'paused';

/** The memory after one more status record of the run. */
export function rememberRead(memory: NotFoundMemory, status: CrewStatus): NotFoundMemory {
	if (status.state !== 'not_found')
		return memory.seen ? memory : { seen: true, notFoundReads: memory.notFoundReads };
	return memory.seen ? memory : { seen: false, notFoundReads: memory.notFoundReads + 1 };
}

/**
 * What a NOT FOUND read means, given the memory that already counts it (rememberRead
 * first) and how long after the kickoff's answer it was read. A run the service showed
 * is registered, so its NOT FOUND is a pause at any age.
 */
export function judgeNotFound(memory: NotFoundMemory, sinceKickoffMs: number): NotFoundVerdict {
	if (memory.seen) return 'paused';
	return inRegistrationWindow(sinceKickoffMs) ? 'tolerate' : 'unknownRun';
}

/**
 * What a person does with a run the service stopped reporting after it ran: it waits for a human.
 */
export function pausedNextStep(kickoffId: string, taskId: string | null): string {
	const task = taskId ? ` and task ID ${taskId}` : '';
	return (
		`The crew service stopped reporting this run after it was running (it answers NOT FOUND), which on the hosted service means the crew waits for human input. ` +
		`Resume it with the Resume operation, kickoff ID ${kickoffId}${task}, or answer it in the crew's dashboard; ` +
		`to be told the task ID, set the Human Input Webhook URL option to a Crew Trigger.`
	);
}

/**
 * The record of a run that paused for human input, read as NOT FOUND: state
 * `paused`, the task as a human-input call named it (else its fields null), what
 * to do next, and the service's record as it came.
 */
export function pausedFromNotFound(status: CrewStatus, task: Partial<PausedTask> = {}): CrewStatus {
	const fields = pausedTaskFieldsOf(task);
	return {
		...status,
		state: 'paused',
		result: null,
		result_json: null,
		error: null,
		...fields,
		next_step: pausedNextStep(status.kickoff_id, fields.task_id),
	};
}

/**
 * A status read that confirms a human-input call (Wait By: Callback): the call says
 * the run paused on its task, so NOT FOUND here is that pause, whatever the wait saw
 * before and however young the run (the service calls only about a run it runs: the
 * registration window is for reads with nothing else to go by); a paused record gets
 * what the call says and the record does not. Any other record is the service's word
 * over the call's (a run still running, or one that ended since).
 */
export function pauseOfHumanInputCall(status: CrewStatus, task: PausedTask): CrewStatus {
	if (status.state === 'not_found') return pausedFromNotFound(status, task);
	if (status.state !== 'paused') return status;
	const known = pausedTaskFieldsOf(status);
	const merged = withMissingFrom(known, task);
	if (Object.entries(merged).every(([field, value]) => known[field as keyof PausedTask] === value))
		return status;
	// A pause this node read from NOT FOUND carries its advice, which names the task once it is
	// known.
	return 'next_step' in status ? pausedFromNotFound(status, merged) : { ...status, ...merged };
}
