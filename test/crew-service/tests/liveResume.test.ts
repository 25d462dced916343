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

const kickoff = async (service: CrewService, body: Record<string, unknown> = {}) =>
	await kickoffWith(service, { inputs: { topic: 'AI agents' }, ...body });
const resume = (service: CrewService, body: unknown) => call(service, 'POST', '/resume', { body });
// The wild path and shape: SUCCESS with `result` a string, as the live records have it too.
const status = async (service: CrewService, id: string) =>
	(await call(service, 'GET', `/status/${id}`)).json;

describe('live dialect: human input', () => {
	test('a pause calls the top-level humanInputWebhookUrl with the live body, a UUID task_id and no Authorization', async () => {
		const s = await start({
			dialect: 'live',
			durationMs: 300,
			recordShape: 'wild',
			plan: () => ({ humanInput: { taskId: 'analysis_task' } }),
		});
		const receiver = await startReceiver();
		const id = await kickoff(s, { humanInputWebhookUrl: receiver.url, meta: { run: 7 } });
		const [delivery] = await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'humanInput' && d.status !== null),
			5_000,
		);
		expect(delivery).toMatchObject({
			kind: 'humanInput',
			url: receiver.url,
			kickoffId: id,
			status: 200,
		});
		expect(delivery.auth).toBeUndefined();
		expect(receiver.received).toHaveLength(1);
		const { headers, body } = receiver.received[0];
		expect(headers.authorization).toBeUndefined();
		expect(body).toEqual({
			kickoff_id: id,
			execution_id: id,
			task_id: expect.stringMatching(UUID),
			task_output: 'Analysis of topic=AI agents',
			meta: { run: 7 },
		});
		expect(s.runs[0].callbacks.humanInput).toEqual({ url: receiver.url, auth: null });
	});

	test('live, the documented humanInputWebhook object calls nothing; documented, the top-level string calls nothing', async () => {
		const receiver = await startReceiver();
		// The paused task's task webhook is sent at the very moment a human-input call would be: it marks the pause.
		const taskWebhookUrl = 'http://127.0.0.1:9/task';
		const live = await start({
			dialect: 'live',
			durationMs: 60,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		await kickoff(live, {
			taskWebhookUrl,
			humanInputWebhook: { url: receiver.url, authentication: { strategy: 'bearer', token: 'cb' } },
		});
		const documented = await start({
			durationMs: 60,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		await kickoff(documented, { taskWebhookUrl, humanInputWebhookUrl: receiver.url });
		for (const service of [live, documented]) {
			const deliveries = await service.waitForWebhooks(
				(ds) => ds.some((d) => d.kind === 'task'),
				5_000,
			);
			expect(deliveries.map((d) => d.kind)).toEqual(['task']);
			expect(service.runs[0].state).toBe('paused');
		}
		expect(receiver.received).toEqual([]);
	});
});

describe('live dialect: POST /resume', () => {
	test("the documented snake_case body is refused with FastAPI's 422 naming executionId and taskId", async () => {
		const s = await start({
			dialect: 'live',
			durationMs: 300,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const id = await kickoff(s);
		const body = {
			execution_id: id,
			task_id: 'research_task',
			human_feedback: 'ok',
			is_approve: true,
		};
		const r = await resume(s, body);
		expect(r.status).toBe(422);
		expect(r.json).toEqual({
			detail: [
				{ type: 'missing', loc: ['body', 'executionId'], msg: 'Field required', input: body },
				{ type: 'missing', loc: ['body', 'taskId'], msg: 'Field required', input: body },
			],
		});
		expect(
			(await resume(s, { executionId: id, taskId: 7, isApprove: 'yes' })).json.detail.map(
				(d: any) => [d.type, d.loc[1]],
			),
		).toEqual([
			['string_type', 'taskId'],
			['bool_type', 'isApprove'],
		]);
		expect(s.runs).toHaveLength(1);
	});

	test('approve: 200 with a new kickoff id, a new run that goes on from the pause and completes with the feedback', async () => {
		const clock = fakeClock();
		const s = await start({
			dialect: 'live',
			now: clock.now,
			durationMs: 900,
			recordShape: 'wild',
			plan: () => ({ humanInput: { taskId: 'analysis_task' } }),
		});
		const id = await kickoff(s, { meta: { run: 1 } });
		clock.advance(600);
		expect(s.runs[0].state).toBe('paused');
		const r = await resume(s, {
			executionId: id,
			taskId: 'analysis_task',
			humanFeedback: 'Looks good',
			isApprove: true,
			crewWebhookUrl: 'http://127.0.0.1:9/crew',
		});
		expect(r.status).toBe(200);
		expect(r.json).toEqual({ kickoff_id: expect.stringMatching(UUID) });
		const newId = r.json.kickoff_id;
		expect(newId).not.toBe(id);
		const [paused, resumed] = s.runs;
		expect(resumed).toMatchObject({
			kickoffId: newId,
			resumedFrom: id,
			index: 1,
			inputs: { topic: 'AI agents' },
			meta: { run: 1 },
			webhooks: { crewWebhookUrl: 'http://127.0.0.1:9/crew' },
			completesAt: clock.now() + 300,
		});
		expect(resumed.resumes).toEqual([
			{
				at: clock.now(),
				taskId: 'analysis_task',
				feedback: 'Looks good',
				approved: true,
				webhooks: { crewWebhookUrl: 'http://127.0.0.1:9/crew' },
			},
		]);
		// Resumed: never pending, running the last task.
		expect([resumed.state, paused.state]).toEqual(['running', 'paused']);
		expect(s.requests.at(-1)).toMatchObject({ route: 'resume', status: 200, kickoffId: id });
		clock.advance(300);
		expect(resumed.state).toBe('completed');
		expect(await status(s, newId)).toMatchObject({
			state: 'SUCCESS',
			result: 'Crew finished: topic=AI agents (feedback: Looks good)',
		});
	});

	test('the task id the human-input call gave (a UUID) is taken, snake_case feedback too; reject pauses the new run again', async () => {
		const s = await start({
			dialect: 'live',
			durationMs: 150,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const receiver = await startReceiver();
		const id = await kickoff(s, { humanInputWebhookUrl: receiver.url });
		await s.waitForWebhooks(
			(ds) => ds.filter((d) => d.kind === 'humanInput' && d.status !== null).length === 1,
			5_000,
		);
		const taskId = receiver.received[0].body.task_id;
		const r = await resume(s, {
			executionId: id,
			execution_id: id,
			taskId,
			task_id: taskId,
			human_feedback: 'More sources',
			is_approve: false,
		});
		expect(r.status).toBe(200);
		const retry = s.runs[1];
		expect(retry.resumes).toMatchObject([
			{ taskId: 'research_task', feedback: 'More sources', approved: false },
		]);
		// The new run redoes the task and pauses; its own human-input call (carried over) names it, with a new task UUID.
		await s.waitForWebhooks(
			(ds) => ds.filter((d) => d.kind === 'humanInput' && d.status !== null).length === 2,
			5_000,
		);
		const second = receiver.received[1].body;
		expect(second).toMatchObject({
			kickoff_id: r.json.kickoff_id,
			execution_id: r.json.kickoff_id,
			task_output: 'Research notes for topic=AI agents (revised after feedback: More sources)',
		});
		expect(second.task_id).toMatch(UUID);
		expect(second.task_id).not.toBe(taskId);
		expect(retry.state).toBe('paused');
		// Approving the new run (no approval field: approve) completes a third run.
		const done = await resume(s, { executionId: second.kickoff_id, taskId: second.task_id });
		expect(s.runs[2]).toMatchObject({
			kickoffId: done.json.kickoff_id,
			resumedFrom: second.kickoff_id,
		});
		expect(s.runs[2].resumes[0]).toMatchObject({ approved: true, feedback: '' });
	});

	test('an unknown id, a run that is not paused, another task: still 200 with a new id, and that run ends FAILED saying why', async () => {
		const clock = fakeClock();
		const s = await start({
			dialect: 'live',
			now: clock.now,
			durationMs: 300,
			recordShape: 'wild',
			plan: () => ({ humanInput: { taskId: 'report_task' } }),
		});
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

/** Until `condition` holds (a run's state follows the service clock, which no delivery announces). */
async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

describe('resumed runs complete, fail or pause again, as the test plans them', () => {
	test('several tasks marked for human input: an approval runs on to the next one and the new run pauses there, then completes', async () => {
		const s = await start({
			dialect: 'live',
			durationMs: 150,
			plan: () => ({ humanInput: { taskIds: ['analysis_task', 'research_task'] } }),
		});
		const receiver = await startReceiver();
		const id = await kickoff(s, { humanInputWebhookUrl: receiver.url });
		const calls = async (count: number) => {
			await s.waitForWebhooks(
				(ds) => ds.filter((d) => d.kind === 'humanInput' && d.status !== null).length === count,
				5_000,
			);
			return receiver.received[count - 1].body;
		};
		const first = await calls(1);
		expect(first).toMatchObject({
			kickoff_id: id,
			task_output: 'Research notes for topic=AI agents',
		});
		const second = await resume(s, {
			executionId: id,
			taskId: first.task_id,
			humanFeedback: 'Good',
			isApprove: true,
		});
		const paused = await calls(2);
		expect(paused).toMatchObject({
			kickoff_id: second.json.kickoff_id,
			task_output: 'Analysis of topic=AI agents',
		});
		expect(s.runs[1]).toMatchObject({ state: 'paused', completesAt: null });
		const third = await resume(s, {
			executionId: paused.kickoff_id,
			taskId: paused.task_id,
			isApprove: true,
		});
		await until(() => s.runs[2].state === 'completed');
		expect(await status(s, third.json.kickoff_id)).toMatchObject({
			state: 'SUCCESS',
			result: 'Crew finished: topic=AI agents',
		});
		expect(receiver.received).toHaveLength(2);
	});

	test("a plan that fails: the approved run goes on and ends FAILED with the plan's error", async () => {
		const s = await start({
			dialect: 'live',
			durationMs: 150,
			plan: () => ({
				humanInput: { taskId: 'research_task' },
				outcome: 'failure',
				error: 'The report tool is down',
			}),
		});
		const receiver = await startReceiver();
		const id = await kickoff(s, { humanInputWebhookUrl: receiver.url });
		await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'humanInput' && d.status !== null),
			5_000,
		);
		const r = await resume(s, {
			executionId: id,
			taskId: receiver.received[0].body.task_id,
			isApprove: true,
		});
		await until(() => s.runs[1].state === 'failed');
		expect(await status(s, r.json.kickoff_id)).toMatchObject({
			state: 'FAILED',
			status: 'The report tool is down',
			result: null,
		});
	});

	test("a resume body's own event stream and human-input URL replace the paused run's (our choice); without them the run keeps calling the paused run's", async () => {
		const s = await start({
			dialect: 'live',
			durationMs: 150,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const kickoffReceiver = await startReceiver();
		const resumeReceiver = await startReceiver();
		const stream = (url: string, token: string) => ({
			url,
			events: ['crew_kickoff_completed', 'crew_kickoff_failed'],
			realtime: true,
			authentication: { strategy: 'bearer', token },
		});
		const id = await kickoff(s, {
			humanInputWebhookUrl: kickoffReceiver.url,
			webhooks: stream(kickoffReceiver.url, 'kickoff-token'),
		});
		await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'humanInput' && d.status !== null),
			5_000,
		);
		const taskId = kickoffReceiver.received[0].body.task_id;
		const r = await resume(s, {
			executionId: id,
			taskId,
			isApprove: false,
			humanInputWebhookUrl: resumeReceiver.url,
			webhooks: stream(resumeReceiver.url, 'resume-token'),
		});
		expect(r.status).toBe(200);
		expect(s.runs[1].callbacks).toEqual({
			stream: expect.objectContaining({ url: resumeReceiver.url, auth: 'bearer' }),
			humanInput: { url: resumeReceiver.url, auth: null },
		});
		// The resume's token is not logged.
		expect(JSON.stringify(s.requests.at(-1))).not.toContain('resume-token');
		await s.waitForWebhooks(
			(ds) => ds.filter((d) => d.kind === 'humanInput' && d.status !== null).length === 2,
			5_000,
		);
		expect(resumeReceiver.received.map((call) => call.body.kickoff_id)).toEqual([
			r.json.kickoff_id,
		]);
		const again = resumeReceiver.received[0].body;
		await resume(s, { executionId: again.kickoff_id, taskId: again.task_id, isApprove: true });
		await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'stream' && d.status !== null),
			5_000,
		);
		const ends = resumeReceiver.received.filter((call) => Array.isArray(call.body.events));
		expect(
			ends.map((call) => [
				call.headers.authorization,
				call.body.events[0].type,
				call.body.events[0].execution_id,
			]),
		).toEqual([['Bearer resume-token', 'crew_kickoff_completed', s.runs[2].kickoffId]]);
		expect(kickoffReceiver.received.filter((call) => Array.isArray(call.body.events))).toEqual([]);
	});

	test("documented dialect: a resume body's event stream replaces the run's, the run keeping its id", async () => {
		const s = await start({
			durationMs: 150,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const receiver = await startReceiver();
		const stream = (token: string) => ({
			url: receiver.url,
			events: ['crew_kickoff_completed'],
			realtime: true,
			authentication: { strategy: 'bearer', token },
		});
		const id = await kickoff(s, { webhooks: stream('kickoff-token') });
		await until(() => s.runs[0].state === 'paused');
		const r = await resume(s, {
			execution_id: id,
			task_id: 'research_task',
			is_approve: true,
			webhooks: stream('resume-token'),
		});
		expect(r.json).toMatchObject({ status: 'resumed' });
		await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'stream' && d.status !== null),
			5_000,
		);
		expect(
			receiver.received.map((call) => [
				call.headers.authorization,
				call.body.events[0].execution_id,
			]),
		).toEqual([['Bearer resume-token', id]]);
	});
});
