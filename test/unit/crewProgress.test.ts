import { readCrewStatus } from '../../nodes/records/crewStatus';
import { NOTHING_SEEN, progressEvents, progressText } from '../../nodes/waiting/crewProgress';
import type { ProgressEvent, ProgressMemory } from '../../nodes/waiting/crewProgress';

const KICKOFF_ID = '97eba64f-958c-40a0-b61c-625fe635a3c0';

/** The events of each record in turn, as the poller would see them one after another. */
function eventsOf(records: unknown[]): ProgressEvent[][] {
	let memory: ProgressMemory = NOTHING_SEEN;
	return records.map((record) => {
		const next = progressEvents(memory, readCrewStatus(KICKOFF_ID, record));
		memory = next.memory;
		return next.events;
	});
}

const textOf = (records: unknown[]) => eventsOf(records).flat().map((event) => progressText(KICKOFF_ID, event)).join('');

describe('progressEvents: the documented dialect (status, current_task, progress, result.tasks)', () => {
	const running = (task: string, completed: number) => ({ status: 'running', current_task: task, progress: { completed_tasks: completed, total_tasks: 3 } });
	const completed = {
		status: 'completed',
		result: {
			output: 'Final itinerary',
			tasks: [
				{ task_id: 'research_task', output: 'notes' },
				{ task_id: 'analysis_task', output: 'analysis' },
				{ task_id: 'report_task', output: 'Final itinerary' },
			],
		},
	};

	it('names each task as the crew moves past it, then the state and the final answer', () => {
		const events = eventsOf([{ status: 'pending' }, running('research_task', 0), running('research_task', 0), running('analysis_task', 1), running('report_task', 2), completed]);
		expect(events).toEqual([
			[{ kind: 'state', state: 'pending' }],
			[{ kind: 'state', state: 'running' }, { kind: 'activity', text: 'Working on research_task (0 of 3 tasks done)' }],
			[],
			[{ kind: 'taskFinished', task: 'research_task', completedTasks: 1, totalTasks: 3 }, { kind: 'activity', text: 'Working on analysis_task (1 of 3 tasks done)' }],
			[{ kind: 'taskFinished', task: 'analysis_task', completedTasks: 2, totalTasks: 3 }, { kind: 'activity', text: 'Working on report_task (2 of 3 tasks done)' }],
			[{ kind: 'taskFinished', task: 'report_task', completedTasks: 3, totalTasks: 3 }, { kind: 'state', state: 'completed' }, { kind: 'finalAnswer', result: 'Final itinerary' }],
		]);
	});

	it('a task skipped between two reads is named by the finished record, in its order, and none twice', () => {
		const events = eventsOf([running('research_task', 0), completed]);
		expect(events[1].filter((event) => event.kind === 'taskFinished').map((event) => (event as { task: string }).task)).toEqual(['research_task', 'analysis_task', 'report_task']);
	});

	it('a crew that fails on a task did not finish it: the failure and its reason, no task, no answer', () => {
		const events = eventsOf([running('analysis_task', 1), { status: 'error', error: 'Task execution failed: Invalid API key' }]);
		expect(events[1]).toEqual([{ kind: 'state', state: 'failed', reason: 'Task execution failed: Invalid API key' }]);
	});

	it('a pause names the task waiting for a human', () => {
		const events = eventsOf([running('analysis_task', 1), { status: 'pending_human_input', task_id: 'analysis_task', output: 'draft' }]);
		expect(events[1]).toEqual([{ kind: 'state', state: 'paused', taskId: 'analysis_task' }]);
	});
});

describe('progressEvents: the Celery dialect (state, status text, last_executed_task)', () => {
	it('streams the status text as it changes and the last executed task at the end', () => {
		const events = eventsOf([
			{ state: 'PENDING' },
			{ state: 'RUNNING', status: 'Working on task 1 of 3' },
			{ state: 'RUNNING', status: 'Working on task 1 of 3' },
			{ state: 'RUNNING', status: 'Working on task 2 of 3' },
			{ state: 'SUCCESS', result: 'Final report', last_executed_task: { name: 'report', output: 'Final report' } },
		]);
		expect(events).toEqual([
			[{ kind: 'state', state: 'pending' }],
			[{ kind: 'state', state: 'running' }, { kind: 'activity', text: 'Working on task 1 of 3' }],
			[],
			[{ kind: 'activity', text: 'Working on task 2 of 3' }],
			[{ kind: 'taskFinished', task: 'report' }, { kind: 'state', state: 'completed' }, { kind: 'finalAnswer', result: 'Final report' }],
		]);
	});

	it('a failure carries the reason the result holds', () => {
		const [, failed] = eventsOf([{ state: 'RUNNING' }, { state: 'FAILURE', result: 'Task execution failed: invalid API key' }]);
		expect(failed).toEqual([{ kind: 'state', state: 'failed', reason: 'Task execution failed: invalid API key' }]);
	});
});

describe('progressEvents: records that say little', () => {
	it('a record that is not an object reads as running once, then nothing until something changes', () => {
		expect(eventsOf(['', 'gateway timeout', { state: 'RUNNING' }])).toEqual([[{ kind: 'state', state: 'running' }], [], []]);
	});

	it('a completed crew without output gives the state and no answer', () => {
		expect(eventsOf([{ status: 'completed' }])).toEqual([[{ kind: 'state', state: 'completed' }]]);
	});

	it('does not change the memory it is given', () => {
		const memory: ProgressMemory = { state: 'running', currentTask: 'research_task', completedTasks: 0, finishedTasks: [] };
		const copy = JSON.parse(JSON.stringify(memory));
		progressEvents(memory, readCrewStatus(KICKOFF_ID, { status: 'running', current_task: 'analysis_task', progress: { completed_tasks: 1, total_tasks: 3 } }));
		expect(memory).toEqual(copy);
	});
});

describe('progressText', () => {
	it('one line per event, with the kickoff ID on state changes, and the final answer as the crew wrote it', () => {
		expect(
			textOf([
				{ status: 'pending' },
				{ status: 'running', current_task: 'research_task', progress: { completed_tasks: 0, total_tasks: 2 } },
				{ status: 'completed', result: { output: 'The answer.', tasks: [{ task_id: 'research_task' }, { task_id: 'report_task' }] } },
			]),
		).toBe(
			[
				`The crew is queued (kickoff ID ${KICKOFF_ID})`,
				`The crew is running (kickoff ID ${KICKOFF_ID})`,
				'Working on research_task (0 of 2 tasks done)',
				'Task finished: research_task (1 of 2)',
				'Task finished: report_task (2 of 2)',
				`The crew completed (kickoff ID ${KICKOFF_ID})`,
				'The answer.',
			].join('\n'),
		);
	});

	it('names the failure reason and the paused task', () => {
		expect(progressText(KICKOFF_ID, { kind: 'state', state: 'failed', reason: 'boom' })).toBe(`The crew failed (kickoff ID ${KICKOFF_ID}): boom\n`);
		expect(progressText(KICKOFF_ID, { kind: 'state', state: 'paused', taskId: 'analysis_task' })).toBe(`The crew is waiting for human input (kickoff ID ${KICKOFF_ID}) on task analysis_task\n`);
	});
});
