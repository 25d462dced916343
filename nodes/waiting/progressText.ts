import type { CrewState, CrewStatus } from '../status/crewStatus';
import { progressEvents } from './crewProgress';
import type { ProgressEvent, ProgressMemory } from './crewProgress';

/**
 * What a person watching the crew reads: each progress event (crewProgress.ts) as a line of
 * text for a chat or a streamed response.
 */

const STATE_WORDS: Record<CrewState, string> = {
	pending: 'is queued',
	running: 'is running',
	paused: 'is waiting for human input',
	completed: 'completed',
	failed: 'failed',
	stopped: 'was stopped',
	not_found: 'is not known to the service',
};

/**
 * The end of a progress line. n8n's chat renders Markdown (markdown-it, CommonMark),
 * where a single newline joins lines into one paragraph: two spaces before it make it
 * a hard break there, and read as nothing in plain text (a streamed Webhook's client).
 */
export const LINE_END = '  \n';
/**
 * A blank line: it ends the progress, so the crew's answer that follows is a paragraph of its own.
 */
export const BEFORE_ANSWER = '\n\n';

/**
 * One event as a line of text for a chat or a streamed response. The kickoff ID is
 * named when given (the first state line a person reads; see progressLines). The
 * line of a completed crew ends with a blank line, so the final answer, the crew's
 * own text unchanged, stands apart as the answer.
 */
export function progressText(kickoffId: string | undefined, event: ProgressEvent): string {
	switch (event.kind) {
		case 'state': {
			const named = kickoffId ? ` (kickoff ID ${kickoffId})` : '';
			const detail = event.reason
				? `: ${event.reason}`
				: event.taskId
					? ` on task ${event.taskId}`
					: '';
			const end = event.state === 'completed' ? BEFORE_ANSWER : LINE_END;
			return `The crew ${STATE_WORDS[event.state]}${named}${detail}${end}`;
		}
		case 'activity':
			return `${event.text}${LINE_END}`;
		case 'taskFinished': {
			const by = event.agent ? ` by ${event.agent}` : '';
			const counts =
				event.completedTasks !== undefined && event.totalTasks !== undefined
					? ` (${event.completedTasks} of ${event.totalTasks})`
					: '';
			return `Task finished: ${event.task}${by}${counts}${LINE_END}`;
		}
		case 'finalAnswer':
			return event.result;
	}
}

/**
 * The lines one more status record adds, and what to remember for the next. The
 * kickoff ID is named once, on the state line of the first record (every first
 * record has one): later lines need not repeat what the person has read.
 */
export function progressLines(
	kickoffId: string,
	memory: ProgressMemory,
	status: CrewStatus,
): { lines: string[]; memory: ProgressMemory } {
	const first = memory.state === undefined;
	const next = progressEvents(memory, status);
	const lines = next.events.map((event) =>
		progressText(first && event.kind === 'state' ? kickoffId : undefined, event),
	);
	return { lines, memory: next.memory };
}
