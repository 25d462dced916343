import { type CrewService } from '..';
import { call, kickoff as kickoffWith } from './client';
import { closedAfterEach, fakeClock } from './crewServiceTesting';
import { useReceivers } from './receivers';

// The reference service's live dialect for human input (docs/development/service-api.md, the "Live" facts):
// the top-level humanInputWebhookUrl called with no Authorization
// and a UUID task_id, and POST /resume taking executionId/taskId and answering a NEW
// kickoff id. The documented dialect's /resume is pinned in webhooks.test.ts.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const start = closedAfterEach();
const startReceiver = useReceivers();

const kickoff = async (service: CrewService, body: Record<string, unknown> = {}) => await kickoffWith(service, { inputs: { topic: 'AI agents' }, ...body });
const resume = (service: CrewService, body: unknown) => call(service, 'POST', '/resume', { body });
// The wild path and shape: SUCCESS with `result` a string, as the live records have it too.
const status = async (service: CrewService, id: string) => (await call(service, 'GET', `/status/${id}`)).json;

describe('live dialect: human input', () => {
	test('a pause calls the top-level humanInputWebhookUrl with the live body, a UUID task_id and no Authorization', async () => {
		const s = await start({ dialect: 'live', durationMs: 300, recordShape: 'wild', plan: () => ({ humanInput: { taskId: 'analysis_task' } }) });
		const receiver = await startReceiver();
		const id = await kickoff(s, { humanInputWebhookUrl: receiver.url, meta: { run: 7 } });
		const [delivery] = await s.waitForWebhooks((ds) => ds.some((d) => d.kind === 'humanInput' && d.status !== null), 5_000);
		expect(delivery).toMatchObject({ kind: 'humanInput', url: receiver.url, kickoffId: id, status: 200 });
		expect(delivery.auth).toBeUndefined();
		expect(receiver.received).toHaveLength(1);
		const { headers, body } = receiver.received[0];
		expect(headers.authorization).toBeUndefined();
		expect(body).toEqual({ kickoff_id: id, execution_id: id, task_id: expect.stringMatching(UUID), task_output: 'Analysis of topic=AI agents', meta: { run: 7 } });
		expect(s.runs[0].callbacks.humanInput).toEqual({ url: receiver.url, auth: null });
	});

	test('live, the documented humanInputWebhook object calls nothing; documented, the top-level string calls nothing', async () => {
		const receiver = await startReceiver();
		// The paused task's task webhook is sent at the very moment a human-input call would be: it marks the pause.
		const taskWebhookUrl = 'http://127.0.0.1:9/task';
		const live = await start({ dialect: 'live', durationMs: 60, plan: () => ({ humanInput: { taskId: 'research_task' } }) });
		await kickoff(live, { taskWebhookUrl, humanInputWebhook: { url: receiver.url, authentication: { strategy: 'bearer', token: 'cb' } } });
		const documented = await start({ durationMs: 60, plan: () => ({ humanInput: { taskId: 'research_task' } }) });
		await kickoff(documented, { taskWebhookUrl, humanInputWebhookUrl: receiver.url });
		for (const service of [live, documented]) {
			const deliveries = await service.waitForWebhooks((ds) => ds.some((d) => d.kind === 'task'), 5_000);
			expect(deliveries.map((d) => d.kind)).toEqual(['task']);
			expect(service.runs[0].state).toBe('paused');
		}
		expect(receiver.received).toEqual([]);
	});
});

describe('live dialect: POST /resume', () => {
	test('the documented snake_case body is refused with FastAPI\'s 422 naming executionId and taskId', async () => {
		const s = await start({ dialect: 'live', durationMs: 300, plan: () => ({ humanInput: { taskId: 'research_task' } }) });
		const id = await kickoff(s);
		const body = { execution_id: id, task_id: 'research_task', human_feedback: 'ok', is_approve: true };
		const r = await resume(s, body);
		expect(r.status).toBe(422);
		expect(r.json).toEqual({
			detail: [
				{ type: 'missing', loc: ['body', 'executionId'], msg: 'Field required', input: body },
				{ type: 'missing', loc: ['body', 'taskId'], msg: 'Field required', input: body },
			],
		});
		expect((await resume(s, { executionId: id, taskId: 7, isApprove: 'yes' })).json.detail.map((d: any) => [d.type, d.loc[1]])).toEqual([
			['string_type', 'taskId'],
			['bool_type', 'isApprove'],
		]);
		expect(s.runs).toHaveLength(1);
	});

	test('approve: 200 with a new kickoff id, a new run that goes on from the pause and completes with the feedback', async () => {
		const clock = fakeClock();
		const s = await start({ dialect: 'live', now: clock.now, durationMs: 900, recordShape: 'wild', plan: () => ({ humanInput: { taskId: 'analysis_task' } }) });
		const id = await kickoff(s, { meta: { run: 1 } });
		clock.advance(600);
		expect(s.runs[0].state).toBe('paused');
		const r = await resume(s, { executionId: id, taskId: 'analysis_task', humanFeedback: 'Looks good', isApprove: true, crewWebhookUrl: 'http://127.0.0.1:9/crew' });
		expect(r.status).toBe(200);
		expect(r.json).toEqual({ kickoff_id: expect.stringMatching(UUID) });
		const newId = r.json.kickoff_id;
		expect(newId).not.toBe(id);
		const [paused, resumed] = s.runs;
		expect(resumed).toMatchObject({ kickoffId: newId, resumedFrom: id, index: 1, inputs: { topic: 'AI agents' }, meta: { run: 1 }, webhooks: { crewWebhookUrl: 'http://127.0.0.1:9/crew' }, completesAt: clock.now() + 300 });
		expect(resumed.resumes).toEqual([{ at: clock.now(), taskId: 'analysis_task', feedback: 'Looks good', approved: true, webhooks: { crewWebhookUrl: 'http://127.0.0.1:9/crew' } }]);
		// Resumed: never pending, running the last task.
		expect([resumed.state, paused.state]).toEqual(['running', 'paused']);
		expect(s.requests.at(-1)).toMatchObject({ route: 'resume', status: 200, kickoffId: id });
		clock.advance(300);
		expect(resumed.state).toBe('completed');
		expect(await status(s, newId)).toMatchObject({ state: 'SUCCESS', result: 'Crew finished: topic=AI agents (feedback: Looks good)' });
	});

	test('the task id the human-input call gave (a UUID) is taken, snake_case feedback too; reject pauses the new run again', async () => {
		const s = await start({ dialect: 'live', durationMs: 150, plan: () => ({ humanInput: { taskId: 'research_task' } }) });
		const receiver = await startReceiver();
		const id = await kickoff(s, { humanInputWebhookUrl: receiver.url });
		await s.waitForWebhooks((ds) => ds.filter((d) => d.kind === 'humanInput' && d.status !== null).length === 1, 5_000);
		const taskId = receiver.received[0].body.task_id;
		const r = await resume(s, { executionId: id, execution_id: id, taskId, task_id: taskId, human_feedback: 'More sources', is_approve: false });
		expect(r.status).toBe(200);
		const retry = s.runs[1];
		expect(retry.resumes).toMatchObject([{ taskId: 'research_task', feedback: 'More sources', approved: false }]);
		// The new run redoes the task and pauses; its own human-input call (carried over) names it, with a new task UUID.
		await s.waitForWebhooks((ds) => ds.filter((d) => d.kind === 'humanInput' && d.status !== null).length === 2, 5_000);
		const second = receiver.received[1].body;
		expect(second).toMatchObject({ kickoff_id: r.json.kickoff_id, execution_id: r.json.kickoff_id, task_output: 'Research notes for topic=AI agents (revised after feedback: More sources)' });
		expect(second.task_id).toMatch(UUID);
		expect(second.task_id).not.toBe(taskId);
		expect(retry.state).toBe('paused');
		// Approving the new run (no approval field: approve) completes a third run.
		const done = await resume(s, { executionId: second.kickoff_id, taskId: second.task_id });
		expect(s.runs[2]).toMatchObject({ kickoffId: done.json.kickoff_id, resumedFrom: second.kickoff_id });
		expect(s.runs[2].resumes[0]).toMatchObject({ approved: true, feedback: '' });
	});

	test('an unknown id, a run that is not paused, another task: still 200 with a new id, and that run ends FAILED saying why', async () => {
		const clock = fakeClock();
		const s = await start({ dialect: 'live', now: clock.now, durationMs: 300, recordShape: 'wild', plan: () => ({ humanInput: { taskId: 'report_task' } }) });
		const id = await kickoff(s);
		const answers = [
			await resume(s, { executionId: 'no-such-kickoff', taskId: 'report_task' }),
			await resume(s, { executionId: id, taskId: 'report_task' }),
		];
		clock.advance(300);
		answers.push(await resume(s, { executionId: id, taskId: 'research_task' }));
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
		clock.advance(300);
		const records = await Promise.all(answers.map((a) => status(s, a.json.kickoff_id)));
		// Live, a failed run's reason is in `status`, and `result` is null.
		expect(records.map((record) => [record.state, record.status, record.result])).toEqual([
			['FAILED', 'No execution found with ID: no-such-kickoff', null],
			['FAILED', 'Execution is not waiting for human input', null],
			['FAILED', 'Task research_task is not the task waiting for human input', null],
		]);
		expect(s.runs[0].state).toBe('paused');
	});
});
