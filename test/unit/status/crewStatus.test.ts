import { readCrewStatus, readCrewState, readFlowState } from '../../../nodes/status/crewStatus';

const KICKOFF_ID = '97eba64f-958c-40a0-b61c-625fe635a3c0';

const STATE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('readCrewStatus: the wild (Celery-like) dialect', () => {
	it('reads a running record, keeping the raw record as response', () => {
		const record = {
			state: 'RUNNING',
			status: 'Working on task 2 of 3',
			last_step: { thought: 'hm' },
		};
		expect(readCrewStatus('k1', record)).toEqual({
			kickoff_id: 'k1',
			state: 'running',
			result: null,
			result_json: null,
			error: null,
			task_id: null,
			response: record,
		});
	});

	it('reads a success with a text result and result_json', () => {
		const record = {
			state: 'SUCCESS',
			result: 'Final report',
			result_json: { score: 7 },
			last_executed_task: { name: 'report', output: 'x' },
		};
		const status = readCrewStatus('k1', record);
		expect(status.state).toBe('completed');
		expect(status.result).toBe('Final report');
		expect(status.result_json).toEqual({ score: 7 });
	});

	it('falls back to last_executed_task.output when there is no result', () => {
		expect(
			readCrewStatus('k', { state: 'SUCCESS', last_executed_task: { output: 'from task' } }).result,
		).toBe('from task');
	});

	it('reads FAILURE with the reason from result, and leaves result empty', () => {
		const status = readCrewStatus('k', {
			state: 'FAILURE',
			result: 'Task execution failed: invalid API key',
		});
		expect(status).toMatchObject({
			state: 'failed',
			result: null,
			error: 'Task execution failed: invalid API key',
		});
	});

	it.each(['PENDING', 'queued'])('reads %s as pending', (state) => {
		expect(readCrewStatus('k', { state }).state).toBe('pending');
	});

	it.each(['FAILED', 'FAILURE', 'error'])('reads %s as failed', (state) => {
		expect(readCrewStatus('k', { state }).state).toBe('failed');
	});
});

describe('readCrewStatus: a stopped run (REVOKED)', () => {
	it.each([
		['the wild dialect', { state: 'REVOKED' }],
		[
			'the live dialect, with its status word',
			{
				state: 'REVOKED',
				status: 'Task is Revoked',
				result: null,
				usage_metrics: { total_tokens: 860, prompt_tokens: 640, completion_tokens: 220 },
			},
		],
		['the documented dialect', { status: 'revoked' }],
		['another plausible spelling', { status: 'cancelled' }],
	])('reads %s as stopped: never running, pending, or a failure without a reason', (_, record) => {
		const status = readCrewStatus('k', record);
		expect(status).toMatchObject({
			kickoff_id: 'k',
			state: 'stopped',
			result: null,
			result_json: null,
			error: null,
			task_id: null,
		});
	});

	it('keeps the tokens a stopped run used, and no flow state', () => {
		const status = readCrewStatus(
			'k',
			{
				state: 'REVOKED',
				usage_metrics: { total_tokens: 860, prompt_tokens: 640, completion_tokens: 220 },
			},
			'flow',
		);
		expect(status.usage).toMatchObject({ total_tokens: 860 });
		expect(status.flow_state).toBeUndefined();
	});
});

describe('readCrewStatus: the documented dialect', () => {
	it('reads running with progress', () => {
		const status = readCrewStatus('k', {
			status: 'running',
			current_task: 'research_task',
			progress: { completed_tasks: 1, total_tasks: 3 },
		});
		expect(status.state).toBe('running');
	});

	it('reads completed with result.output', () => {
		const record = {
			status: 'completed',
			result: { output: 'Itinerary', tasks: [] },
			execution_time: 108.5,
		};
		expect(readCrewStatus('k', record)).toMatchObject({
			state: 'completed',
			result: 'Itinerary',
			result_json: null,
		});
	});

	it('turns a structured result.output into JSON text', () => {
		expect(readCrewStatus('k', { status: 'completed', result: { output: { a: 1 } } }).result).toBe(
			'{"a":1}',
		);
	});

	it('reads error with the reason from error', () => {
		expect(
			readCrewStatus('k', { status: 'error', error: 'Invalid API key for external service' }),
		).toMatchObject({
			state: 'failed',
			error: 'Invalid API key for external service',
		});
	});

	it('gives a reason even when a failed record has none', () => {
		expect(readCrewStatus('k', { status: 'failure' }).error).toContain('failure');
	});
});

describe('readCrewStatus: a crew paused for human input', () => {
	it.each([
		[
			'the wild dialect',
			{ state: 'PENDING_HUMAN_INPUT', task_id: 'research_task', result: 'draft' },
		],
		[
			'the documented dialect',
			{ status: 'pending_human_input', task_id: 'research_task', output: 'draft' },
		],
		['another plausible spelling', { status: 'awaiting_human_input', task_id: 'research_task' }],
	])('reads %s as paused, naming the task', (_, record) => {
		expect(readCrewStatus('k', record)).toMatchObject({
			state: 'paused',
			task_id: 'research_task',
			result: null,
			error: null,
		});
	});

	it('reads PAUSED without a task as paused with no task', () => {
		expect(readCrewStatus('k', { state: 'PAUSED' })).toMatchObject({
			state: 'paused',
			task_id: null,
		});
	});

	it("gives what the person judges: the task's output as sent, its name and description where the record says them", () => {
		expect(
			readCrewStatus('k', {
				state: 'PENDING_HUMAN_INPUT',
				task_id: 'research_task',
				result: 'draft',
			}),
		).toMatchObject({ task_output: 'draft', task_name: null, task_description: null });
		expect(
			readCrewStatus('k', {
				status: 'pending_human_input',
				task: { id: 't-1', name: 'research', description: 'Research AI', output: { notes: ['a'] } },
			}),
		).toMatchObject({
			task_id: 't-1',
			task_output: { notes: ['a'] },
			task_name: 'research',
			task_description: 'Research AI',
		});
		expect(readCrewStatus('k', { state: 'PAUSED' })).toMatchObject({
			task_output: null,
			task_name: null,
			task_description: null,
		});
	});

	it('gives the task fields to paused records only: other records are as they were', () => {
		for (const record of [
			{ state: 'RUNNING', output: 'x' },
			{ state: 'SUCCESS', result: 'done' },
			{ state: 'FAILED', status: 'boom' },
		]) {
			expect(
				Object.keys(readCrewStatus('k', record)).filter((key) => key.startsWith('task_')),
			).toEqual(['task_id']);
		}
	});
});

describe('readCrewStatus: anything else', () => {
	it('prefers state over status when both are there', () => {
		expect(readCrewState({ state: 'SUCCESS', status: 'running' })).toBe('completed');
	});

	it.each([
		['an unknown word', { state: 'THINKING' }],
		['nulls everywhere', { state: null, status: null, result: null, result_json: null }],
		['no state at all', { foo: 1 }],
	])('reads %s as still running', (_, record) => {
		expect(readCrewStatus('k', record).state).toBe('running');
	});

	it.each([
		['an empty body', '', {}],
		['undefined', undefined, {}],
		['text', 'oops', { body: 'oops' }],
		['an array', [1], { body: [1] }],
	])('reads %s as running without throwing', (_, body, response) => {
		expect(readCrewStatus('k', body)).toMatchObject({ state: 'running', response });
	});

	it('ignores a result_json that is not an object', () => {
		expect(
			readCrewStatus('k', { state: 'SUCCESS', result: 'r', result_json: 'nope' }).result_json,
		).toBeNull();
	});

	it('treats a completed record without any output as a null result', () => {
		expect(readCrewStatus('k', { status: 'completed', result: null })).toMatchObject({
			state: 'completed',
			result: null,
		});
	});
});

describe('readCrewStatus: the live platform-guide record', () => {
	const base = { result_json: null, events: [], events_count: 0 };

	it('reads NOT FOUND as its own state, never pending', () => {
		expect(readCrewStatus('k', { state: 'NOT FOUND' })).toMatchObject({
			state: 'not_found',
			result: null,
			error: null,
		});
	});

	it('takes the failure reason from status when result is null', () => {
		const record = {
			...base,
			state: 'FAILED',
			status: 'Task execution failed: invalid API key',
			result: null,
			usage_metrics: { total_tokens: 10, prompt_tokens: 7, completion_tokens: 3 },
		};
		expect(readCrewStatus('k', record)).toMatchObject({
			state: 'failed',
			error: 'Task execution failed: invalid API key',
			usage: { total_tokens: 10, prompt_tokens: 7, completion_tokens: 3 },
		});
	});

	it('does not take a state word in status for a reason', () => {
		expect(readCrewStatus('k', { state: 'FAILED', status: 'failed' }).error).toBe(
			'The crew service reported the state "FAILED" without a reason.',
		);
	});

	it('gives usage on a completed record and progress on a running one', () => {
		const usage_metrics = { total_tokens: 2580, prompt_tokens: 1920, completion_tokens: 660 };
		expect(
			readCrewStatus('k', {
				...base,
				state: 'SUCCESS',
				status: null,
				result: 'Report',
				usage_metrics,
			}),
		).toMatchObject({ state: 'completed', result: 'Report', usage: usage_metrics });
		const running = readCrewStatus('k', {
			...base,
			state: 'RUNNING',
			status: 'Task is Running',
			result: null,
			usage_metrics,
			progress: {
				unit: 'task',
				completed: 1,
				total: 3,
				remaining: 2,
				current: 'analysis_task',
				current_agent: 'Data Analyst',
			},
		});
		expect(running.progress).toEqual({
			unit: 'task',
			completed: 1,
			total: 3,
			current: 'analysis_task',
			current_agent: 'Data Analyst',
		});
		expect(running).not.toHaveProperty('usage');
	});

	it('adds neither field when the record carries none', () => {
		const status = readCrewStatus('k', { state: 'SUCCESS', result: 'x' });
		expect(status).not.toHaveProperty('usage');
		expect(status).not.toHaveProperty('progress');
	});
});

describe("a flow's final state id", () => {
	it("falls back to the kickoff id for a completed flow whose record carries no state (live: the final method's text)", () => {
		const live = { state: 'SUCCESS', status: null, result: 'Flow finished', result_json: null };
		expect(readCrewStatus(KICKOFF_ID, live, 'flow')).toMatchObject({
			state: 'completed',
			result: 'Flow finished',
			flow_state: { id: KICKOFF_ID },
		});
	});

	it('keeps a state the record carries, and gives none for a crew, a running flow or a failed one', () => {
		const state = { id: '123e4567-e89b-42d3-a456-426614174000', topic: 't' };
		expect(
			readCrewStatus(KICKOFF_ID, { state: 'SUCCESS', result: state, result_json: state }, 'flow')
				.flow_state,
		).toEqual(state);
		expect(readCrewStatus(KICKOFF_ID, { state: 'SUCCESS', result: 'text' })).not.toHaveProperty(
			'flow_state',
		);
		expect(
			readCrewStatus(KICKOFF_ID, { state: 'SUCCESS', result: 'text' }, 'crew'),
		).not.toHaveProperty('flow_state');
		expect(readCrewStatus(KICKOFF_ID, { state: 'RUNNING' }, 'flow')).not.toHaveProperty(
			'flow_state',
		);
		expect(
			readCrewStatus(KICKOFF_ID, { state: 'FAILED', status: 'boom' }, 'flow'),
		).not.toHaveProperty('flow_state');
	});
});

describe('readFlowState', () => {
	const state = { id: STATE_ID, counter: 2 };

	it("finds a flow's final state where a finished flow's record holds it", () => {
		expect(readFlowState({ state: 'SUCCESS', result: state, result_json: state })).toBe(state);
		expect(readFlowState({ state: 'SUCCESS', result: 'done', result_json: state })).toBe(state);
		expect(readFlowState({ status: 'completed', result: { output: 'done', state } })).toBe(state);
	});

	it("takes no object without a UUID id for a state: a crew's structured output stays only result_json", () => {
		expect(
			readFlowState({ state: 'SUCCESS', result: 'done', result_json: { id: 7, score: 1 } }),
		).toBeUndefined();
		expect(
			readFlowState({ status: 'completed', result: { output: 'done', tasks: [] } }),
		).toBeUndefined();
	});

	it("adds flow_state to a completed record only, so a crew's record keeps its fields exactly", () => {
		const flow = readCrewStatus('k1', { state: 'SUCCESS', result: state, result_json: state });
		expect(flow).toMatchObject({ state: 'completed', result_json: state, flow_state: state });
		const crew = readCrewStatus('k2', {
			state: 'SUCCESS',
			result: 'Final report',
			result_json: { score: 7 },
		});
		expect(Object.keys(crew)).toEqual([
			'kickoff_id',
			'state',
			'result',
			'result_json',
			'error',
			'task_id',
			'response',
		]);
		expect(readCrewStatus('k3', { state: 'RUNNING', result: state })).not.toHaveProperty(
			'flow_state',
		);
	});
});
