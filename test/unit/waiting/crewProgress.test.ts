import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { NOTHING_SEEN, progressEvents } from '../../../nodes/waiting/crewProgress';
import { progressLines, progressText } from '../../../nodes/waiting/progressText';
import type { ProgressEvent, ProgressMemory } from '../../../nodes/waiting/crewProgress';

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

/** The lines of each record in turn, as liveProgress sends them. */
function linesOf(records: unknown[]): string[][] {
	let memory: ProgressMemory = NOTHING_SEEN;
	return records.map((record) => {
		const next = progressLines(KICKOFF_ID, memory, readCrewStatus(KICKOFF_ID, record));
		memory = next.memory;
		return next.lines;
	});
}

const textOf = (records: unknown[]) => linesOf(records).flat().join('');

describe('progressEvents: the documented dialect (status, current_task, progress, result.tasks)', () => {
	const running = (task: string, completed: number) => ({
		status: 'running',
		current_task: task,
		progress: { completed_tasks: completed, total_tasks: 3 },
	});
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
		const events = eventsOf([
			{ status: 'pending' },
			running('research_task', 0),
			running('research_task', 0),
			running('analysis_task', 1),
			running('report_task', 2),
			completed,
		]);
		expect(events).toEqual([
			[{ kind: 'state', state: 'pending' }],
			[
				{ kind: 'state', state: 'running' },
				{ kind: 'activity', text: 'Working on research_task (0 of 3 tasks done)' },
			],
			[],
			[
				{ kind: 'taskFinished', task: 'research_task', completedTasks: 1, totalTasks: 3 },
				{ kind: 'activity', text: 'Working on analysis_task (1 of 3 tasks done)' },
			],
			[
				{ kind: 'taskFinished', task: 'analysis_task', completedTasks: 2, totalTasks: 3 },
				{ kind: 'activity', text: 'Working on report_task (2 of 3 tasks done)' },
			],
			[
				{ kind: 'taskFinished', task: 'report_task', completedTasks: 3, totalTasks: 3 },
				{ kind: 'state', state: 'completed' },
				{ kind: 'finalAnswer', result: 'Final itinerary' },
			],
		]);
	});

	it('a task skipped between two reads is named by the finished record, in its order, and none twice', () => {
		const events = eventsOf([running('research_task', 0), completed]);
		expect(
			events[1]
				.filter((event) => event.kind === 'taskFinished')
				.map((event) => (event as { task: string }).task),
		).toEqual(['research_task', 'analysis_task', 'report_task']);
	});

	it('a read that finds the crew two tasks further on names the task it left at its own place, the skipped one when the record lists it', () => {
		const events = eventsOf([running('research_task', 0), running('report_task', 2), completed]);
		expect(events[1][0]).toEqual({
			kind: 'taskFinished',
			task: 'research_task',
			completedTasks: 1,
			totalTasks: 3,
		});
		expect(events[2].filter((event) => event.kind === 'taskFinished')).toEqual([
			{ kind: 'taskFinished', task: 'analysis_task', completedTasks: 2, totalTasks: 3 },
			{ kind: 'taskFinished', task: 'report_task', completedTasks: 3, totalTasks: 3 },
		]);
	});

	it('a crew that fails on a task did not finish it: the failure and its reason, no task, no answer', () => {
		const events = eventsOf([
			running('analysis_task', 1),
			{ status: 'error', error: 'Task execution failed: Invalid API key' },
		]);
		expect(events[1]).toEqual([
			{ kind: 'state', state: 'failed', reason: 'Task execution failed: Invalid API key' },
		]);
	});

	it('a stopped crew (REVOKED) says so once, with no reason and no answer', () => {
		const events = eventsOf([
			running('analysis_task', 1),
			{ status: 'revoked' },
			{ status: 'revoked' },
		]);
		expect(events[1]).toEqual([{ kind: 'state', state: 'stopped' }]);
		expect(events[2]).toEqual([]);
		expect(textOf([{ state: 'REVOKED', status: 'Task is Revoked' }])).toBe(
			`The crew was stopped (kickoff ID ${KICKOFF_ID})  \n`,
		);
	});

	it('a pause names the task waiting for a human', () => {
		const events = eventsOf([
			running('analysis_task', 1),
			{ status: 'pending_human_input', task_id: 'analysis_task', output: 'draft' },
		]);
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
			{
				state: 'SUCCESS',
				result: 'Final report',
				last_executed_task: { name: 'report', output: 'Final report' },
			},
		]);
		expect(events).toEqual([
			[{ kind: 'state', state: 'pending' }],
			[
				{ kind: 'state', state: 'running' },
				{ kind: 'activity', text: 'Working on task 1 of 3' },
			],
			[],
			[{ kind: 'activity', text: 'Working on task 2 of 3' }],
			[
				{ kind: 'taskFinished', task: 'report' },
				{ kind: 'state', state: 'completed' },
				{ kind: 'finalAnswer', result: 'Final report' },
			],
		]);
	});

	it('a failure carries the reason the result holds', () => {
		const [, failed] = eventsOf([
			{ state: 'RUNNING' },
			{ state: 'FAILURE', result: 'Task execution failed: invalid API key' },
		]);
		expect(failed).toEqual([
			{ kind: 'state', state: 'failed', reason: 'Task execution failed: invalid API key' },
		]);
	});
});

describe('progressEvents: records that say little', () => {
	it('a record that is not an object reads as running once, then nothing until something changes', () => {
		expect(eventsOf(['', 'gateway timeout', { state: 'RUNNING' }])).toEqual([
			[{ kind: 'state', state: 'running' }],
			[],
			[],
		]);
	});

	it('a completed crew without output gives the state and no answer', () => {
		expect(eventsOf([{ status: 'completed' }])).toEqual([[{ kind: 'state', state: 'completed' }]]);
	});

	it('does not change the memory it is given', () => {
		const memory: ProgressMemory = {
			state: 'running',
			currentTask: 'research_task',
			completedTasks: 0,
			finishedTasks: [],
		};
		const copy = JSON.parse(JSON.stringify(memory));
		progressEvents(
			memory,
			readCrewStatus(KICKOFF_ID, {
				status: 'running',
				current_task: 'analysis_task',
				progress: { completed_tasks: 1, total_tasks: 3 },
			}),
		);
		expect(memory).toEqual(copy);
	});
});

describe('progressText', () => {
	it('one line per event, the kickoff ID on the first, a Markdown hard break after each, and the final answer as the crew wrote it after a blank line', () => {
		expect(
			textOf([
				{ status: 'pending' },
				{
					status: 'running',
					current_task: 'research_task',
					progress: { completed_tasks: 0, total_tasks: 2 },
				},
				{
					status: 'completed',
					result: {
						output: 'The answer.',
						tasks: [{ task_id: 'research_task' }, { task_id: 'report_task' }],
					},
				},
			]),
		).toBe(
			[
				`The crew is queued (kickoff ID ${KICKOFF_ID})  \n`,
				'The crew is running  \n',
				'Working on research_task (0 of 2 tasks done)  \n',
				'Task finished: research_task (1 of 2)  \n',
				'Task finished: report_task (2 of 2)  \n',
				'The crew completed\n\n',
				'The answer.',
			].join(''),
		);
	});

	it('names the failure reason and the paused task', () => {
		expect(progressText(undefined, { kind: 'state', state: 'failed', reason: 'boom' })).toBe(
			'The crew failed: boom  \n',
		);
		expect(progressText(KICKOFF_ID, { kind: 'state', state: 'failed', reason: 'boom' })).toBe(
			`The crew failed (kickoff ID ${KICKOFF_ID}): boom  \n`,
		);
		expect(
			progressText(undefined, { kind: 'state', state: 'paused', taskId: 'analysis_task' }),
		).toBe('The crew is waiting for human input on task analysis_task  \n');
	});

	it('a crew that fails on its first read names the kickoff ID with the reason, once', () => {
		const lines = linesOf([{ status: 'error', error: 'Invalid API key' }]).flat();
		expect(lines).toEqual([`The crew failed (kickoff ID ${KICKOFF_ID}): Invalid API key  \n`]);
	});
});

/**
 * Live records as the "Live" facts of docs/development/service-api.md describe them (the vendor's live tests of
 * 2026-10-01): `state` upper case, `status` a message ("Task is Running"), `progress` with
 * the current task and agent, and the 100 most recent `events` on every read.
 */
describe('progressLines: the live platform record (progress, events)', () => {
	const at = (second: number) => `2026-10-01T12:00:${String(second).padStart(2, '0')}.000000+00:00`;
	const event = (type: string, second: number, fields: object = {}) => ({
		type,
		timestamp: at(second),
		crew_name: 'research_crew',
		...fields,
	});
	const started = (task: string, agent: string, second: number) =>
		event('task_started', second, { task_name: task, agent_role: agent });
	const finished = (task: string, agent: string, second: number) =>
		event('task_completed', second, { task_name: task, agent_role: agent });
	const llm = (agent: string, second: number) =>
		event('llm_call_completed', second, { agent_role: agent, model: 'gpt-4o-mini' });
	const progress = (completed: number, current: string | null, agent: string | null) => ({
		unit: 'task',
		completed,
		total: 3,
		remaining: 3 - completed,
		current,
		current_agent: agent,
		started_at: at(0),
		updated_at: at(completed * 10),
		duration_seconds: completed * 10,
	});
	const running = (completed: number, current: string, agent: string, events: object[]) => ({
		state: 'RUNNING',
		status: 'Task is Running',
		result: null,
		result_json: null,
		progress: progress(completed, current, agent),
		events,
		events_count: events.length,
	});
	const e1 = [event('crew_kickoff_started', 1), started('research_task', 'Senior Researcher', 1)];
	const e2 = [
		...e1,
		llm('Senior Researcher', 5),
		finished('research_task', 'Senior Researcher', 9),
		started('analysis_task', 'Analyst', 10),
	];
	const e3 = [
		...e2,
		finished('analysis_task', 'Analyst', 19),
		started('report_task', 'Reporting Analyst', 20),
	];
	const e4 = [
		...e3,
		finished('report_task', 'Reporting Analyst', 29),
		event('crew_kickoff_completed', 30),
	];
	const pending = {
		state: 'PENDING',
		status: 'Task is Pending',
		result: null,
		progress: null,
		events: [],
		events_count: 0,
	};
	const success = {
		state: 'SUCCESS',
		status: null,
		result: 'Report for the audience',
		result_json: null,
		usage_metrics: { total_tokens: 1200, prompt_tokens: 1000, completion_tokens: 200 },
		progress: progress(3, null, null),
		events: e4,
		last_executed_task: { name: 'report_task', output: 'Report for the audience' },
	};

	it('a crew of three tasks: each task finishing once, with its agent and count; the current task and agent; the answer last after a blank line', () => {
		const lines = linesOf([
			pending,
			running(0, 'research_task', 'Senior Researcher', e1),
			running(0, 'research_task', 'Senior Researcher', [...e1, llm('Senior Researcher', 5)]),
			running(1, 'analysis_task', 'Analyst', e2),
			running(2, 'report_task', 'Reporting Analyst', e3),
			running(2, 'report_task', 'Reporting Analyst', e3),
			success,
		]);
		expect(lines).toEqual([
			[`The crew is queued (kickoff ID ${KICKOFF_ID})  \n`],
			[
				'The crew is running  \n',
				'Senior Researcher is working on research_task (0 of 3 tasks done)  \n',
			],
			[],
			[
				'Task finished: research_task by Senior Researcher (1 of 3)  \n',
				'Analyst is working on analysis_task (1 of 3 tasks done)  \n',
			],
			[
				'Task finished: analysis_task by Analyst (2 of 3)  \n',
				'Reporting Analyst is working on report_task (2 of 3 tasks done)  \n',
			],
			[],
			[
				'Task finished: report_task by Reporting Analyst (3 of 3)  \n',
				'The crew completed\n\n',
				'Report for the audience',
			],
		]);
	});

	it('one line per thing: the state and a status message that repeats it ("Task is Running") are one line, the kickoff ID is named once', () => {
		const text = textOf([
			pending,
			{ state: 'STARTED', status: 'Task is Started' },
			{ state: 'RUNNING', status: 'Task is Running', progress: null },
			success,
		]);
		expect(text).not.toMatch(/Task is/);
		expect(text.split(KICKOFF_ID)).toHaveLength(2);
		expect(text.startsWith(`The crew is queued (kickoff ID ${KICKOFF_ID})`)).toBe(true);
		// A status message that says more than the state is still the crew's own line.
		expect(textOf([{ state: 'RUNNING', status: 'Waiting for the search API' }])).toBe(
			`The crew is running (kickoff ID ${KICKOFF_ID})  \nWaiting for the search API  \n`,
		);
	});

	it('the answer comes last, after a blank line, and nothing follows it', () => {
		const text = textOf([pending, running(1, 'analysis_task', 'Analyst', e2), success]);
		expect(text.endsWith('  \nThe crew completed\n\nReport for the audience')).toBe(true);
		expect(text.split('\n\n')).toHaveLength(2);
	});

	it('each task_completed once, whatever order the events come in and however often the window repeats them', () => {
		const shuffled = (events: object[]) => [...events].reverse();
		const lines = linesOf([
			running(1, 'analysis_task', 'Analyst', shuffled(e2)),
			running(1, 'analysis_task', 'Analyst', e2),
			running(2, 'report_task', 'Reporting Analyst', shuffled(e3)),
			success,
		]).flat();
		expect(lines.filter((line) => line.startsWith('Task finished:'))).toEqual([
			'Task finished: research_task by Senior Researcher (1 of 3)  \n',
			'Task finished: analysis_task by Analyst (2 of 3)  \n',
			'Task finished: report_task by Reporting Analyst (3 of 3)  \n',
		]);
	});

	it('a window that slid past an event does not bring it back', () => {
		const windowed = e3.slice(-2); // research_task's completion has left the window of recent events
		const lines = linesOf([
			running(1, 'analysis_task', 'Analyst', e2),
			running(2, 'report_task', 'Reporting Analyst', windowed),
			success,
		]).flat();
		expect(lines.filter((line) => line.startsWith('Task finished:'))).toEqual([
			'Task finished: research_task by Senior Researcher (1 of 3)  \n',
			'Task finished: analysis_task by Analyst (2 of 3)  \n',
			'Task finished: report_task by Reporting Analyst (3 of 3)  \n',
		]);
	});

	it('a task a flow runs again later is told again, and a count never passes the total', () => {
		const flowStep = (events: object[]) => ({
			state: 'RUNNING',
			progress: { unit: 'step', completed: 2, total: null, current: 'revise', current_agent: null },
			events,
		});
		const first = [finished('draft_task', 'Writer', 10)];
		const again = [...first, finished('draft_task', 'Writer', 20)];
		const finishes = linesOf([flowStep(first), flowStep(first), flowStep(again)])
			.flat()
			.filter((line) => line.startsWith('Task finished:'));
		expect(finishes).toEqual([
			'Task finished: draft_task by Writer  \n',
			'Task finished: draft_task by Writer  \n',
		]);
		// A crew of three whose fourth completion is reported: no "4 of 3".
		const fourth = linesOf([
			running(2, 'report_task', 'Reporting Analyst', e3),
			{ ...success, events: [...e4, finished('report_task', 'Reporting Analyst', 31)] },
		]).flat();
		expect(fourth).toContain('Task finished: report_task by Reporting Analyst  \n');
		expect(fourth.join('')).not.toMatch(/4 of 3/);
	});

	it('a record that lists events is not second-guessed from the current task: a task the platform has not reported finished yet is not told', () => {
		// progress moved on before the task_completed event reached the window.
		const lines = linesOf([
			running(0, 'research_task', 'Senior Researcher', e1),
			running(1, 'analysis_task', 'Analyst', e1),
			running(1, 'analysis_task', 'Analyst', e2),
		]);
		expect(lines[1].some((line) => line.startsWith('Task finished:'))).toBe(false);
		expect(lines[2]).toEqual(['Task finished: research_task by Senior Researcher (1 of 3)  \n']);
	});

	it('a flow counts its steps with no "of N", even when a total is sent', () => {
		const step = (completed: number, current: string, total: number | null = null) => ({
			state: 'RUNNING',
			status: 'Task is Running',
			progress: { unit: 'step', completed, total, remaining: null, current, current_agent: null },
			events: [
				event('method_execution_started', completed, {
					flow_name: 'ContentFlow',
					method_name: current,
				}),
			],
		});
		const text = textOf([
			step(0, 'plan_outline'),
			step(1, 'write_draft', 9),
			step(2, 'review_draft'),
		]);
		expect(text).toBe(
			[
				`The crew is running (kickoff ID ${KICKOFF_ID})  \n`,
				'Working on step plan_outline (0 steps done)  \n',
				'Working on step write_draft (1 step done)  \n',
				'Working on step review_draft (2 steps done)  \n',
			].join(''),
		);
		expect(text).not.toMatch(/ of /);
	});

	it("a flow's crew task finishing is told without a count: a flow knows no total", () => {
		const record = {
			state: 'RUNNING',
			progress: {
				unit: 'step',
				completed: 3,
				total: null,
				current: 'write_draft',
				current_agent: null,
			},
			events: [finished('draft_task', 'Writer', 12)],
		};
		expect(linesOf([record]).flat()).toContain('Task finished: draft_task by Writer  \n');
	});

	it('a queued run whose progress counts nothing yet says only that it is queued', () => {
		expect(
			linesOf([
				{
					state: 'PENDING',
					status: 'Task is Pending',
					progress: progress(0, null, null),
					events: [],
				},
			]).flat(),
		).toEqual([`The crew is queued (kickoff ID ${KICKOFF_ID})  \n`]);
	});

	it('remembers a bounded number of events however long the crew runs', () => {
		let memory: ProgressMemory = NOTHING_SEEN;
		for (let read = 0; read < 10; read++) {
			const events = Array.from({ length: 100 }, (_, index) => ({
				type: 'llm_call_completed',
				agent_role: 'Analyst',
				timestamp: read * 100 + index,
			}));
			memory = progressLines(
				KICKOFF_ID,
				memory,
				readCrewStatus(KICKOFF_ID, running(1, 'analysis_task', 'Analyst', events)),
			).memory;
		}
		expect(memory.seenEvents?.length).toBeLessThanOrEqual(200);
	});
});
