import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CrewService, type WebhookDelivery } from '..';
import { isLoopbackHost } from '../webhooks';
import { call, kickoff as kickoffWith } from './client';
import { closedAfterEach, fakeClock } from './crewServiceTesting';
import { useReceivers } from './receivers';
import type { ReceivedCall } from './receivers';

// Webhook calls and the human-in-the-loop pause/resume cycle of the reference
// service (docs/development/service-api.md#post-resume, #legacy-webhooks). Webhooks follow
// real time, so these tests use short runs (300-600 ms) and wait on deliveries
// with a deadline; run lifecycles use a fake clock where timing must be exact.

const start = closedAfterEach();
/** A webhook receiver on loopback; answers `answer` (default 200), or never when 'hang'. */
const startReceiver = useReceivers();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * waitForWebhooks resolves as soon as its predicate holds; its deadline only stops a test that
 * would hang. Generous, so that a loaded machine (webhooks follow real time) is never a failure.
 */
const HANG_GUARD_MS = 30_000;
/**
 * Resolves on a timer due `ms` after now. Node fires timers in the order they fall due, so every
 * webhook moment the service scheduled to fall due before it has been sent when this resolves,
 * however late a loaded machine runs both: an order of events, not a wall-clock bound.
 */
const timerDueIn = sleep;

const kickoff = async (service: CrewService, body: Record<string, unknown> = {}) =>
	await kickoffWith(service, { inputs: { topic: 'AI agents' }, ...body });

const resume = (service: CrewService, body: unknown, opts: { token?: string | null } = {}) =>
	call(service, 'POST', '/resume', { body, ...opts });
const status = async (service: CrewService, id: string) =>
	(await call(service, 'GET', `/${id}/status`)).json;
const wildStatus = async (service: CrewService, id: string) =>
	(await call(service, 'GET', `/status/${id}`)).json;

/** A loopback URL where nothing listens. */
async function deadUrl(): Promise<string> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return `http://127.0.0.1:${port}`;
}

const settled = (d: WebhookDelivery) => d.status !== null || d.error !== undefined;
const allSettled = (ds: WebhookDelivery[]) => ds.every(settled);
const kinds = (ds: WebhookDelivery[]) =>
	ds.map((d) => (d.kind === 'step' ? 'step' : `${d.kind}:${(d.payload as any).name ?? ''}`));

const STEP_KEYS = ['prompt', 'thought', 'tool', 'tool_input', 'result', 'kickoff_id', 'meta'];
const TASK_KEYS = [
	'description',
	'name',
	'expected_output',
	'summary',
	'agent',
	'output',
	'output_json',
	'kickoff_id',
	'meta',
];
const CREW_KEYS = ['kickoff_id', 'result', 'result_json', 'token_usage', 'meta'];
const FULL_RUN = [
	'step',
	'step',
	'task:research',
	'step',
	'step',
	'task:analysis',
	'step',
	'step',
	'task:report',
	'crew:',
];

describe('webhook calls', () => {
	test('success: every step, task and crew payload, in order, at k/3 of the duration, meta echoed', async () => {
		const receiver = await startReceiver();
		const s = await start({ durationMs: 600 });
		const meta = { requestId: 'r-42', nested: { list: [1, 'two', null] } };
		const started = Date.now();
		const id = await kickoff(s, {
			inputs: { topic: 'AI agents', audience: 'devs' },
			meta,
			...receiver.hooks('a'),
		});
		// Every moment falls due by the end of the run (600 ms): the crew's is sent before a timer due half as long again.
		const sentBeforeHalfAsLongAgain = timerDueIn(900).then(() =>
			s.webhookDeliveries.map((d) => d.kind),
		);
		const deliveries = await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'crew') && allSettled(ds),
			HANG_GUARD_MS,
		);

		// The crew webhook comes when the status (on the real clock here) says completed.
		expect((await status(s, id)).status).toBe('completed');
		expect(kinds(deliveries)).toEqual(FULL_RUN);
		expect(
			deliveries.every((d) => d.status === 200 && d.error === undefined && d.kickoffId === id),
		).toBe(true);
		expect(deliveries.map((d) => d.url)).toEqual(
			deliveries.map((d) => `${receiver.base}/a/${d.kind}`),
		);
		// Real time: steps at 1/3 and 2/3 of each task, task k at k/3 of 600 ms, crew at the end.
		const offsets = deliveries.map((d) => d.at - started);
		[67, 133, 200, 267, 333, 400, 467, 533, 600, 600].forEach((due, i) =>
			expect(offsets[i]).toBeGreaterThanOrEqual(due - 2),
		);
		expect(await sentBeforeHalfAsLongAgain).toEqual(deliveries.map((d) => d.kind));
		for (let i = 1; i < offsets.length; i++)
			expect(offsets[i]).toBeGreaterThanOrEqual(offsets[i - 1]);

		// What the receiver got is what was recorded (arrival order may differ for same-moment calls).
		expect(receiver.received).toHaveLength(10);
		expect(receiver.received.every((r) => r.contentType === 'application/json')).toBe(true);
		const byPath = (p: string) => receiver.received.filter((r) => r.path === p).map((r) => r.body);
		expect(byPath('/a/step')).toEqual(
			deliveries.filter((d) => d.kind === 'step').map((d) => d.payload),
		);
		expect(byPath('/a/task')).toEqual(
			deliveries.filter((d) => d.kind === 'task').map((d) => d.payload),
		);

		const steps = byPath('/a/step');
		for (const step of steps) {
			expect(Object.keys(step)).toEqual(STEP_KEYS);
			expect(step).toEqual({
				prompt: expect.stringContaining('topic=AI agents; audience=devs'),
				thought: expect.any(String),
				tool: expect.any(String),
				tool_input: JSON.stringify({ query: 'topic=AI agents; audience=devs' }),
				result: expect.any(String),
				kickoff_id: id,
				meta,
			});
		}
		expect(steps.map((st) => st.tool)).toEqual([
			'search_the_internet',
			'read_website_content',
			'read_file',
			'calculator',
			'read_file',
			'write_file',
		]);
		const tasks = byPath('/a/task');
		for (const task of tasks) expect(Object.keys(task)).toEqual(TASK_KEYS);
		expect(tasks).toEqual([
			{
				description:
					'Research the most relevant and recent information for topic=AI agents; audience=devs',
				name: 'research',
				expected_output: expect.any(String),
				summary: 'Research the most relevant and recent information for topic=AI agents;...',
				agent: 'Senior Researcher',
				output: 'Research notes for topic=AI agents; audience=devs',
				output_json: null,
				kickoff_id: id,
				meta,
			},
			expect.objectContaining({
				name: 'analysis',
				agent: 'Data Analyst',
				output: 'Analysis of topic=AI agents; audience=devs',
				output_json: null,
			}),
			expect.objectContaining({
				name: 'report',
				output: 'Crew finished: topic=AI agents; audience=devs',
				output_json: { inputs: { topic: 'AI agents', audience: 'devs' }, kickoffNumber: 1 },
			}),
		]);
		const [crew] = byPath('/a/crew');
		expect(Object.keys(crew)).toEqual(CREW_KEYS);
		expect(crew).toEqual({
			kickoff_id: id,
			result: 'Crew finished: topic=AI agents; audience=devs',
			result_json: { inputs: { topic: 'AI agents', audience: 'devs' }, kickoffNumber: 1 },
			token_usage: { total_tokens: 2580, prompt_tokens: 1920, completion_tokens: 660 },
			meta,
		});
		// The status record and the crew payload agree on the result.
		expect((await status(s, id)).result.output).toBe(crew.result);
	});

	test('failure: no report_task webhook, crew payload with result null and the error; meta null without meta', async () => {
		const receiver = await startReceiver();
		const s = await start({
			durationMs: 300,
			plan: () => ({ outcome: 'failure', error: 'Task execution failed: quota exceeded' }),
		});
		const id = await kickoff(s, receiver.hooks('f'));
		const deliveries = await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'crew') && allSettled(ds),
			HANG_GUARD_MS,
		);
		expect(kinds(deliveries)).toEqual([
			'step',
			'step',
			'task:research',
			'step',
			'step',
			'task:analysis',
			'step',
			'step',
			'crew:',
		]);
		expect(deliveries.every((d) => (d.payload as any).meta === null)).toBe(true);
		const crew = deliveries[8].payload;
		expect(Object.keys(crew)).toEqual([...CREW_KEYS, 'error']);
		expect(crew).toEqual({
			kickoff_id: id,
			result: null,
			result_json: null,
			token_usage: { total_tokens: 2580, prompt_tokens: 1920, completion_tokens: 660 },
			meta: null,
			error: 'Task execution failed: quota exceeded',
		});
		expect(await status(s, id)).toMatchObject({
			status: 'error',
			error: 'Task execution failed: quota exceeded',
		});
	});

	test.each(['never', 'revoked'] as const)(
		'%s: steps and the first two tasks, then nothing, no crew payload',
		async (outcome) => {
			const receiver = await startReceiver();
			const s = await start({ durationMs: 300 });
			await kickoff(s, { ...receiver.hooks('n'), meta: { reference: { outcome } } });
			// Past the end of the run (300 ms) by the timers' order: a crew moment would have been sent before.
			const pastTheEnd = timerDueIn(450);
			await s.waitForWebhooks((ds) => ds.length === 8 && allSettled(ds), HANG_GUARD_MS);
			await pastTheEnd;
			expect(kinds(s.webhookDeliveries)).toEqual([
				'step',
				'step',
				'task:research',
				'step',
				'step',
				'task:analysis',
				'step',
				'step',
			]);
			expect(receiver.received).toHaveLength(8);
		},
	);

	test('holdMoments holds every call of runs kicked off until releaseMoments starts them, timed from the release', async () => {
		const receiver = await startReceiver();
		const s = await start({ durationMs: 300 });
		s.holdMoments();
		const id = await kickoff(s, receiver.hooks('h'));
		// Past the end of the run by the timers' order: nothing was sent while held.
		await timerDueIn(450);
		expect(s.webhookDeliveries).toEqual([]);
		const released = Date.now();
		expect(s.releaseMoments()).toBe(1);
		const deliveries = await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'crew') && allSettled(ds),
			HANG_GUARD_MS,
		);
		expect(kinds(deliveries)).toEqual(FULL_RUN);
		expect(deliveries.every((d) => d.kickoffId === id)).toBe(true);
		// Each moment at its offset from the release, not from the kickoff.
		[33, 67, 100].forEach((due, i) =>
			expect(deliveries[i].at - released).toBeGreaterThanOrEqual(due - 2),
		);
		// Released: a later kickoff is not held, and a reset also stops holding.
		expect(s.releaseMoments()).toBe(0);
		s.holdMoments();
		s.reset();
		await kickoff(s, { crewWebhookUrl: receiver.hooks('r').crewWebhookUrl });
		await s.waitForWebhooks((ds) => ds.length === 1 && allSettled(ds), HANG_GUARD_MS);
	});

	test('only the URLs given are called; durationMs 0 calls them all at once, in order', async () => {
		const receiver = await startReceiver();
		const s = await start({ durationMs: 0 });
		await kickoff(s, { crewWebhookUrl: receiver.hooks('c').crewWebhookUrl });
		await kickoff(s, { taskWebhookUrl: receiver.hooks('t').taskWebhookUrl });
		await kickoff(s, { stepWebhookUrl: `${receiver.base}/s` });
		await kickoff(s); // none
		await s.waitForWebhooks((ds) => ds.length === 10 && allSettled(ds), HANG_GUARD_MS);
		await sleep(50);
		expect(s.webhookDeliveries.map((d) => [d.kind, d.kickoffId])).toEqual([
			['crew', s.runs[0].kickoffId],
			...[0, 1, 2].map(() => ['task', s.runs[1].kickoffId]),
			...[0, 1, 2, 3, 4, 5].map(() => ['step', s.runs[2].kickoffId]),
		]);
		expect(kinds(s.webhookDeliveries.filter((d) => d.kind === 'task'))).toEqual([
			'task:research',
			'task:analysis',
			'task:report',
		]);
	});

	test('a receiver that is down, or answers 500, does not disturb the run; each call is recorded once, no retry', async () => {
		const failing = await startReceiver(500);
		const s = await start({ durationMs: 300 });
		// After the servers start, which could otherwise be given the port just freed.
		const dead = await deadUrl();
		const id = await kickoff(s, {
			taskWebhookUrl: `${dead}/task`,
			stepWebhookUrl: `${failing.base}/step`,
			crewWebhookUrl: `${dead}/crew`,
		});
		const deliveries = await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'crew') && allSettled(ds),
			HANG_GUARD_MS,
		);
		await sleep(100);
		expect(s.webhookDeliveries).toHaveLength(10);
		for (const d of deliveries) {
			if (d.kind === 'step') expect([d.status, d.error]).toEqual([500, undefined]);
			else expect([d.status, d.error]).toEqual([null, expect.stringMatching(/ECONNREFUSED/)]);
		}
		expect(failing.received).toHaveLength(6);
		expect((await status(s, id)).status).toBe('completed');
		// The service still answers normally.
		expect((await call(s, 'GET', '/inputs')).status).toBe(200);
	});

	test("webhookTargets 'loopback' (default) records other hosts without calling them; 'any' calls any http(s) URL", async () => {
		const receiver = await startReceiver();
		const s = await start({ durationMs: 0 });
		expect(s.options.webhookTargets).toBe('loopback');
		await kickoff(s, {
			crewWebhookUrl: 'https://hooks.example/crew',
			taskWebhookUrl: 'not a url',
			stepWebhookUrl: 'ftp://127.0.0.1/x',
		});
		await s.waitForWebhooks((ds) => ds.length === 10 && allSettled(ds), HANG_GUARD_MS);
		const errors = (kind: string) => [
			...new Set(s.webhookDeliveries.filter((d) => d.kind === kind).map((d) => d.error)),
		];
		expect(errors('crew')).toEqual([
			"not sent: hooks.example is not a loopback host (option webhookTargets is 'loopback')",
		]);
		expect(errors('task')).toEqual(['not sent: invalid URL']);
		expect(errors('step')).toEqual(['not sent: unsupported scheme ftp:']);
		expect(s.webhookDeliveries.every((d) => d.status === null)).toBe(true);

		s.reset();
		s.configure({ webhookTargets: 'any' });
		await kickoff(s, {
			crewWebhookUrl: receiver.hooks('x').crewWebhookUrl,
			stepWebhookUrl: 'ftp://hooks.example/x',
		});
		await s.waitForWebhooks((ds) => ds.length === 7 && allSettled(ds), HANG_GUARD_MS);
		expect(s.webhookDeliveries.find((d) => d.kind === 'crew')?.status).toBe(200);
		expect(s.webhookDeliveries.find((d) => d.kind === 'step')?.error).toBe(
			'not sent: unsupported scheme ftp:',
		);
		expect(() => s.configure({ webhookTargets: 'all' as never })).toThrow(TypeError);

		expect(
			['localhost', 'api.localhost', '127.0.0.1', '127.8.9.10', '[::1]'].every(isLoopbackHost),
		).toBe(true);
		expect(
			['hooks.example', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '[::2]', '0.0.0.0'].some(
				isLoopbackHost,
			),
		).toBe(false);
	});

	test('GET /_reference/webhooks lists the deliveries without auth; waitForWebhooks times out naming what came', async () => {
		const receiver = await startReceiver();
		const s = await start({ durationMs: 0 });
		await kickoff(s, { crewWebhookUrl: receiver.hooks('w').crewWebhookUrl, meta: { n: 1 } });
		await s.waitForWebhooks((ds) => ds.length === 1 && allSettled(ds), HANG_GUARD_MS);
		const admin = await call(s, 'GET', '/_reference/webhooks', { token: null });
		expect(admin.status).toBe(200);
		expect(admin.json).toEqual([
			{
				kind: 'crew',
				url: `${receiver.base}/w/crew`,
				kickoffId: s.runs[0].kickoffId,
				at: expect.any(Number),
				payload: expect.objectContaining({ meta: { n: 1 } }),
				status: 200,
			},
		]);
		expect(s.requests.some((r) => r.path.includes('_reference'))).toBe(false);
		await expect(s.waitForWebhooks((ds) => ds.length > 1, 50)).rejects.toThrow(
			/not met within 50 ms; deliveries so far: \[crew 200\]/,
		);
		await expect(
			s.waitForWebhooks(() => {
				throw new Error('predicate bug');
			}),
		).rejects.toThrow('predicate bug');
	});

	test('reset() cancels pending calls and empties the list', async () => {
		const receiver = await startReceiver();
		const s = await start({ durationMs: 300 });
		await kickoff(s, receiver.hooks('r'));
		const kept = s.webhookDeliveries;
		s.reset();
		await sleep(450);
		expect(receiver.received).toEqual([]);
		expect(kept).toBe(s.webhookDeliveries);
		expect(s.webhookDeliveries).toEqual([]);
	});

	test('close() cancels pending calls, aborts a hanging one promptly and rejects waiters', async () => {
		const hanging = await startReceiver('hang');
		const s = await start({ durationMs: 1200 }); // steps at 133 and 267 ms
		await kickoff(s, { stepWebhookUrl: `${hanging.base}/step` });
		await s.waitForWebhooks((ds) => ds.length === 1, HANG_GUARD_MS);
		// The receiver has it and will never answer.
		while (hanging.received.length === 0) await sleep(10);
		expect(hanging.received).toHaveLength(1);
		const waiting = s.waitForWebhooks((ds) => ds.length === 2, HANG_GUARD_MS);
		// Promptly: before the call's own 5 s timeout would have ended it (a timer due earlier fires first).
		const tooSlow = new Promise<string>((r) =>
			setTimeout(() => r('close() still waiting after 4 s'), 4000).unref(),
		);
		expect(await Promise.race([s.close().then(() => 'closed'), tooSlow])).toBe('closed');
		await expect(waiting).rejects.toThrow(/service closed/);
		await sleep(20);
		expect(s.webhookDeliveries[0]).toMatchObject({
			status: null,
			error: 'cancelled: service closed',
		});
		await sleep(300); // past the second step
		expect(hanging.received).toHaveLength(1);
		expect(s.webhookDeliveries).toHaveLength(1);
	});
});

describe('human in the loop', () => {
	const ANALYSIS = 'Analysis of topic=AI agents';

	test('pause at a task: paused in both shapes, the clock no longer moves it; approve → completes with the feedback', async () => {
		const clock = fakeClock();
		const s = await start({
			now: clock.now,
			durationMs: 1000,
			plan: () => ({ humanInput: { taskId: 'analysis_task' } }),
		});
		const id = await kickoff(s);
		const run = s.runs[0];
		expect(run.plan.humanInput).toEqual({ taskId: 'analysis_task', taskIds: ['analysis_task'] });
		expect([run.state, run.completesAt, run.resumes]).toEqual(['pending', null, []]);

		clock.set(run.createdAt + 666);
		expect(await status(s, id)).toEqual({
			status: 'running',
			current_task: 'analysis_task',
			progress: { completed_tasks: 1, total_tasks: 3 },
		});
		clock.set(run.createdAt + 667); // round(2/3 of 1000)
		const paused = { status: 'pending_human_input', task_id: 'analysis_task', output: ANALYSIS };
		expect(await status(s, id)).toEqual(paused);
		expect(await wildStatus(s, id)).toEqual(paused); // configured shape is contract; both paths answer it
		s.configure({ recordShape: 'wild' });
		expect(await wildStatus(s, id)).toEqual({
			state: 'PENDING_HUMAN_INPUT',
			task_id: 'analysis_task',
			result: ANALYSIS,
		});
		expect(run.state).toBe('paused');
		clock.advance(1_000_000);
		expect(await wildStatus(s, id)).toEqual({
			state: 'PENDING_HUMAN_INPUT',
			task_id: 'analysis_task',
			result: ANALYSIS,
		});
		expect(run.completesAt).toBeNull();

		const resumedAt = clock.now();
		const r = await resume(s, {
			execution_id: id,
			task_id: 'analysis_task',
			human_feedback: 'Looks good',
			is_approve: true,
		});
		expect([r.status, r.json]).toEqual([
			200,
			{ status: 'resumed', message: 'Execution resumed successfully' },
		]);
		expect(run.resumes).toEqual([
			{
				at: resumedAt,
				taskId: 'analysis_task',
				feedback: 'Looks good',
				approved: true,
				webhooks: {},
			},
		]);
		expect(run.completesAt).toBe(resumedAt + 333); // the remaining third, from the resume
		expect(run.state).toBe('running');
		clock.advance(332);
		expect(await wildStatus(s, id)).toEqual({
			state: 'RUNNING',
			status: 'Working on task 3 of 3',
			last_step: { thought: expect.any(String) },
		});
		s.configure({ recordShape: 'contract' });
		expect(await status(s, id)).toEqual({
			status: 'running',
			current_task: 'report_task',
			progress: { completed_tasks: 2, total_tasks: 3 },
		});
		clock.advance(1);
		const done = await status(s, id);
		expect(done.status).toBe('completed');
		expect(done.result.output).toBe('Crew finished: topic=AI agents (feedback: Looks good)');
		expect(done.result.tasks.map((t: any) => t.output)).toEqual([
			'Research notes for topic=AI agents',
			ANALYSIS,
			'Crew finished: topic=AI agents (feedback: Looks good)',
		]);
		s.configure({ recordShape: 'wild' });
		expect(await wildStatus(s, id)).toMatchObject({
			state: 'SUCCESS',
			result: 'Crew finished: topic=AI agents (feedback: Looks good)',
			last_executed_task: { output: 'Crew finished: topic=AI agents (feedback: Looks good)' },
		});
		expect(run.state).toBe('completed');
		// Not paused any more.
		expect(
			(await resume(s, { execution_id: id, task_id: 'analysis_task', is_approve: true })).status,
		).toBe(409);
		expect(
			s.requests.filter((q) => q.route === 'resume').map((q) => [q.status, q.kickoffId]),
		).toEqual([
			[200, id],
			[409, id],
		]);
	});

	test('reject → the task runs again (its third of the duration) → paused again with the revision → approve → completes', async () => {
		const clock = fakeClock();
		const s = await start({ now: clock.now, durationMs: 900 });
		const id = await kickoff(s, {
			meta: { reference: { humanInput: { taskId: 'research_task' }, result: 'Final.' } },
		});
		const run = s.runs[0];
		clock.advance(300);
		expect(await status(s, id)).toEqual({
			status: 'pending_human_input',
			task_id: 'research_task',
			output: 'Research notes for topic=AI agents',
		});

		const rejectedAt = clock.now();
		const r = await resume(s, {
			execution_id: id,
			task_id: 'research_task',
			human_feedback: 'Needs sources',
			is_approve: false,
		});
		expect([r.status, r.json]).toEqual([
			200,
			{ status: 'retrying', message: 'Task will be retried with feedback' },
		]);
		expect(run.completesAt).toBeNull();
		// Re-running the task: running (never pending again), on the same task.
		expect(await status(s, id)).toEqual({
			status: 'running',
			current_task: 'research_task',
			progress: { completed_tasks: 0, total_tasks: 3 },
		});
		expect(run.state).toBe('running');
		expect(
			(await resume(s, { execution_id: id, task_id: 'research_task', is_approve: true })).status,
		).toBe(409);
		clock.advance(299);
		expect((await status(s, id)).status).toBe('running');
		clock.advance(1);
		expect(await status(s, id)).toEqual({
			status: 'pending_human_input',
			task_id: 'research_task',
			output: 'Research notes for topic=AI agents (revised after feedback: Needs sources)',
		});

		const approvedAt = clock.now();
		expect(
			(
				await resume(s, {
					execution_id: id,
					task_id: 'research_task',
					human_feedback: '',
					is_approve: true,
				})
			).json.status,
		).toBe('resumed');
		expect(run.resumes).toEqual([
			{
				at: rejectedAt,
				taskId: 'research_task',
				feedback: 'Needs sources',
				approved: false,
				webhooks: {},
			},
			{ at: approvedAt, taskId: 'research_task', feedback: '', approved: true, webhooks: {} },
		]);
		expect(run.completesAt).toBe(approvedAt + 600);
		clock.advance(600);
		const done = await status(s, id);
		expect(done.result.output).toBe('Final.'); // empty feedback adds nothing
		expect(done.result.tasks[0].output).toBe(
			'Research notes for topic=AI agents (revised after feedback: Needs sources)',
		);
	});

	test('a pause at report_task ends the run at the resume; humanInput null or a bad taskId', async () => {
		const clock = fakeClock();
		const s = await start({
			now: clock.now,
			durationMs: 300,
			plan: () => ({ humanInput: { taskId: 'report_task' } }),
		});
		const id = await kickoff(s);
		const plain = await kickoff(s, { meta: { reference: { humanInput: null } } });
		clock.advance(300);
		expect(await status(s, id)).toEqual({
			status: 'pending_human_input',
			task_id: 'report_task',
			output: 'Crew finished: topic=AI agents',
		});
		expect((await status(s, plain)).status).toBe('completed');
		expect(s.runs[1].plan.humanInput).toBeNull();
		expect(
			(
				await resume(s, {
					execution_id: id,
					task_id: 'report_task',
					human_feedback: 'Ship it',
					is_approve: true,
				})
			).status,
		).toBe(200);
		expect((await status(s, id)).result.output).toBe(
			'Crew finished: topic=AI agents (feedback: Ship it)',
		);
		for (const humanInput of [
			{ taskId: 'writing_task' },
			{ task: 'research_task' },
			'research_task',
			[],
		]) {
			const r = await call(s, 'POST', '/kickoff', {
				body: { inputs: { topic: 'x' }, meta: { reference: { humanInput } } },
			});
			expect([r.status, r.json.message]).toEqual([
				400,
				expect.stringMatching(/meta\.reference\.humanInput/),
			]);
		}
		// A bad plan() is a bug in the test using the service: 500, said on stderr.
		const stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
		s.configure({ plan: () => ({ humanInput: { taskId: 'nope' as never } }) });
		expect((await call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'x' } } })).status).toBe(
			500,
		);
		expect(String(stderr.mock.calls[0][1])).toMatch(
			/plan\(\)\.humanInput\.taskId must be one of research_task, analysis_task, report_task/,
		);
		stderr.mockRestore();
		expect(s.runs).toHaveLength(2);
	});

	test('every /resume error, in order of precedence, in both error shapes', async () => {
		const clock = fakeClock();
		const s = await start({
			now: clock.now,
			durationMs: 300,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const id = await kickoff(s);
		const valid = {
			execution_id: id,
			task_id: 'research_task',
			human_feedback: 'ok',
			is_approve: true,
		};

		// Not paused yet.
		const early = await resume(s, valid);
		expect([early.status, early.json]).toEqual([
			409,
			{ error: 'Conflict', message: 'Execution is not waiting for human input' },
		]);
		clock.advance(100);

		const unauthorized = await resume(s, valid, { token: null });
		expect(unauthorized.status).toBe(401);
		expect((await resume(s, valid, { token: 'org-tok-wrong' })).status).toBe(401);
		expect((await call(s, 'GET', '/resume')).status).toBe(405);
		const bad: Array<
			[string, { rawBody?: string; body?: unknown; headers?: Record<string, string> }, RegExp]
		> = [
			['bad JSON', { rawBody: '{"execution_id": ' }, /not valid JSON/],
			[
				'non-JSON content type',
				{ body: valid, headers: { 'content-type': 'text/plain' } },
				/Content-Type/,
			],
			['not an object', { body: [valid] }, /JSON object/],
			[
				'is_approve a string',
				{ body: { ...valid, is_approve: 'true' } },
				/"is_approve" must be a boolean/,
			],
			[
				'is_approve null',
				{ body: { ...valid, is_approve: null } },
				/"is_approve" must be a boolean/,
			],
			[
				'human_feedback a number',
				{ body: { ...valid, human_feedback: 5 } },
				/"human_feedback" must be a string/,
			],
			[
				'execution_id a number',
				{ body: { ...valid, execution_id: 7 } },
				/"execution_id" must be a string/,
			],
			['task_id an object', { body: { ...valid, task_id: {} } }, /"task_id" must be a string/],
			[
				'webhook URL a number',
				{ body: { ...valid, crewWebhookUrl: 1 } },
				/"crewWebhookUrl" must be a string/,
			],
			// A type error wins over a missing field.
			['wrong type and missing', { body: { is_approve: 'yes' } }, /is_approve/],
		];
		for (const [name, request, message] of bad) {
			const r = await call(s, 'POST', '/resume', request);
			expect([name, r.status, r.json]).toEqual([
				name,
				400,
				{ error: 'Bad Request', message: expect.stringMatching(message) },
			]);
		}
		const missing = await resume(s, { human_feedback: 'x', task_id: 'research_task' });
		expect([missing.status, missing.json]).toEqual([
			422,
			{
				error: 'Validation Error',
				message: 'Missing required fields',
				details: { missing_fields: ['execution_id', 'is_approve'] },
			},
		]);
		const unknown = await resume(s, {
			...valid,
			execution_id: '97eba64f-958c-40a0-b61c-625fe635a3c0',
		});
		expect([unknown.status, unknown.json]).toEqual([
			404,
			{ error: 'Not Found', message: 'Execution not found: 97eba64f-958c-40a0-b61c-625fe635a3c0' },
		]);
		const wrongTask = await resume(s, { ...valid, task_id: 'analysis_task' });
		expect([wrongTask.status, wrongTask.json.message]).toEqual([
			400,
			'Invalid resume request: task_id "analysis_task" is not the task waiting for human input ("research_task")',
		]);

		s.configure({ errorShape: 'fastapi' });
		const fastMissing = await resume(s, {});
		expect([fastMissing.status, fastMissing.json]).toEqual([
			422,
			{
				detail: ['execution_id', 'task_id', 'is_approve'].map((f) => ({
					loc: ['body', f],
					msg: 'Field required',
					type: 'missing',
				})),
			},
		]);
		expect((await resume(s, { ...valid, is_approve: 1 })).json).toEqual({
			detail: 'Invalid resume request: "is_approve" must be a boolean',
		});
		expect((await resume(s, { ...valid, execution_id: 'nope' })).json).toEqual({
			detail: 'Execution not found: nope',
		});

		// Nothing of that changed the run; human_feedback may be left out.
		expect(s.runs[0].resumes).toEqual([]);
		expect(s.runs[0].state).toBe('paused');
		const ok = await resume(s, { execution_id: id, task_id: 'research_task', is_approve: true });
		expect(ok.status).toBe(200);
		expect(s.runs[0].resumes[0].feedback).toBe('');
		const late = await resume(s, valid);
		expect([late.status, late.json]).toEqual([
			409,
			{ detail: 'Execution is not waiting for human input' },
		]);

		const logged = s.requests.filter((r) => r.route === 'resume');
		expect(logged).toHaveLength(22);
		expect(logged.filter((r) => r.status === 200)).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: '/resume',
				kickoffId: id,
				body: { execution_id: id, task_id: 'research_task', is_approve: true },
			}),
		]);
		expect(s.count('resume', 'POST')).toBe(21);
	});

	test('a token leaked into human_feedback is redacted in the log, the run and the result, and flagged', async () => {
		const clock = fakeClock();
		const s = await start({
			now: clock.now,
			durationMs: 300,
			plan: () => ({ humanInput: { taskId: 'report_task' } }),
		});
		const id = await kickoff(s);
		clock.advance(300);
		const leaked = `ok, my token is ${s.tokens.user}`;
		expect(
			(
				await resume(s, {
					execution_id: id,
					task_id: 'report_task',
					human_feedback: leaked,
					is_approve: true,
				})
			).status,
		).toBe(200);
		const text = JSON.stringify([s.requests, s.runs, await status(s, id)]);
		expect(text).not.toContain(s.tokens.user);
		expect(s.runs[0].resumes[0].feedback).toBe('ok, my token is [REDACTED]');
		expect(s.requests.filter((r) => r.tokenLeaked).map((r) => r.route)).toEqual(['resume']);
	});

	test('faults can target the resume route: the resume is applied, the answer lost', async () => {
		const clock = fakeClock();
		const s = await start({
			now: clock.now,
			durationMs: 300,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const id = await kickoff(s);
		clock.advance(100);
		s.injectFault({ route: 'resume', kind: 'status', status: 502, afterProcessing: true });
		expect(
			(await resume(s, { execution_id: id, task_id: 'research_task', is_approve: true })).status,
		).toBe(502);
		expect(s.runs[0].resumes).toHaveLength(1);
		// A retry of the lost answer finds the run no longer paused.
		expect(
			(await resume(s, { execution_id: id, task_id: 'research_task', is_approve: true })).status,
		).toBe(409);
	});

	test("webhooks: the task webhook at the pause, nothing while paused, then only the resume's URLs", async () => {
		const receiver = await startReceiver();
		const s = await start({ durationMs: 600 });
		const id = await kickoff(s, {
			...receiver.hooks('kickoff'),
			meta: { reference: { humanInput: { taskId: 'research_task' } }, tag: 'hitl' },
		});
		await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'task') && allSettled(ds),
			HANG_GUARD_MS,
		);
		expect(kinds(s.webhookDeliveries)).toEqual(['step', 'step', 'task:research']);
		expect(s.webhookDeliveries[2].payload).toMatchObject({
			name: 'research',
			output: 'Research notes for topic=AI agents',
			meta: { tag: 'hitl' },
		});
		expect(await status(s, id)).toMatchObject({
			status: 'pending_human_input',
			task_id: 'research_task',
		});
		await sleep(250); // past where analysis steps would have come
		expect(s.webhookDeliveries).toHaveLength(3);

		// Reject with new URLs: the task again, to those URLs only, then paused again.
		const retry = receiver.hooks('retry');
		expect(
			(
				await resume(s, {
					execution_id: id,
					task_id: 'research_task',
					human_feedback: 'More depth',
					is_approve: false,
					...retry,
				})
			).status,
		).toBe(200);
		await s.waitForWebhooks((ds) => ds.length === 6 && allSettled(ds), HANG_GUARD_MS);
		expect(s.webhookDeliveries.slice(3).map((d) => d.url)).toEqual([
			retry.stepWebhookUrl,
			retry.stepWebhookUrl,
			retry.taskWebhookUrl,
		]);
		expect(s.webhookDeliveries[5].payload).toMatchObject({
			output: 'Research notes for topic=AI agents (revised after feedback: More depth)',
		});
		await sleep(20);
		expect(await status(s, id)).toMatchObject({ status: 'pending_human_input' });

		// Approve with only a crew URL: no step or task calls at all from here, the crew payload has the feedback.
		const approve = receiver.hooks('approve');
		expect(
			(
				await resume(s, {
					execution_id: id,
					task_id: 'research_task',
					human_feedback: 'Good now',
					is_approve: true,
					crewWebhookUrl: approve.crewWebhookUrl,
				})
			).status,
		).toBe(200);
		await s.waitForWebhooks((ds) => ds.length === 7 && allSettled(ds), HANG_GUARD_MS);
		await sleep(50);
		expect(s.webhookDeliveries).toHaveLength(7);
		expect(s.webhookDeliveries[6]).toMatchObject({
			kind: 'crew',
			url: approve.crewWebhookUrl,
			status: 200,
		});
		expect(s.webhookDeliveries[6].payload).toEqual({
			kickoff_id: id,
			result: 'Crew finished: topic=AI agents (feedback: Good now)',
			result_json: { inputs: { topic: 'AI agents' }, kickoffNumber: 1 },
			token_usage: { total_tokens: 3440, prompt_tokens: 2560, completion_tokens: 880 }, // 8 steps: one task ran twice
			meta: { reference: { humanInput: { taskId: 'research_task' } }, tag: 'hitl' },
		});
		expect((await status(s, id)).status).toBe('completed');
		expect(receiver.received.filter((r) => r.path.startsWith('/kickoff/'))).toHaveLength(3);
		expect(s.runs[0].resumes.map((r) => r.webhooks)).toEqual([
			retry,
			{ crewWebhookUrl: approve.crewWebhookUrl },
		]);
	});

	test('a resume without URLs: nothing more is called, though the kickoff had URLs', async () => {
		const receiver = await startReceiver();
		const s = await start({
			durationMs: 300,
			plan: () => ({ humanInput: { taskId: 'analysis_task' } }),
		});
		const id = await kickoff(s, receiver.hooks('k'));
		await s.waitForWebhooks((ds) => ds.length === 6 && allSettled(ds), HANG_GUARD_MS);
		await sleep(10);
		expect(
			(await resume(s, { execution_id: id, task_id: 'analysis_task', is_approve: true })).status,
		).toBe(200);
		await sleep(250);
		expect((await status(s, id)).status).toBe('completed');
		expect(s.webhookDeliveries).toHaveLength(6);
		expect(receiver.received).toHaveLength(6);
	});

	test('a resume accepted on the fake clock before real time reached the pause first sends the paused part, as it was', async () => {
		const receiver = await startReceiver();
		const clock = fakeClock();
		const s = await start({
			now: clock.now,
			durationMs: 600,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const id = await kickoff(s, receiver.hooks('before'));
		clock.advance(200);
		expect(s.runs[0].state).toBe('paused');
		expect(s.webhookDeliveries).toHaveLength(0); // real time: only a few ms have passed
		const retry = receiver.hooks('retry');
		expect(
			(
				await resume(s, {
					execution_id: id,
					task_id: 'research_task',
					human_feedback: 'Again',
					is_approve: false,
					...retry,
				})
			).status,
		).toBe(200);
		// Sent at once, to the kickoff's URLs, built before the resume took effect.
		expect(s.webhookDeliveries.map((d) => d.url)).toEqual([
			`${receiver.base}/before/step`,
			`${receiver.base}/before/step`,
			`${receiver.base}/before/task`,
		]);
		expect(s.webhookDeliveries[2].payload).toMatchObject({
			output: 'Research notes for topic=AI agents',
		});
		await s.waitForWebhooks((ds) => ds.length === 6 && allSettled(ds), HANG_GUARD_MS);
		expect(s.webhookDeliveries.slice(3).map((d) => d.url)).toEqual([
			retry.stepWebhookUrl,
			retry.stepWebhookUrl,
			retry.taskWebhookUrl,
		]);
		expect(s.webhookDeliveries[5].payload).toMatchObject({
			output: 'Research notes for topic=AI agents (revised after feedback: Again)',
		});

		clock.advance(200);
		const after = receiver.hooks('after');
		expect(
			(await resume(s, { execution_id: id, task_id: 'research_task', is_approve: true, ...after }))
				.status,
		).toBe(200);
		await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'crew') && allSettled(ds),
			HANG_GUARD_MS,
		);
		expect(kinds(s.webhookDeliveries.slice(6))).toEqual(FULL_RUN.slice(3));
		expect(
			s.webhookDeliveries.slice(6).every((d) => d.url.startsWith(`${receiver.base}/after/`)),
		).toBe(true);
	});

	test('over HTTP: runs show state and resumes; reset() clears a paused run', async () => {
		const clock = fakeClock();
		const s = await start({ now: clock.now, durationMs: 300 });
		const id = await kickoff(s, {
			meta: { reference: { humanInput: { taskId: 'research_task' } } },
		});
		clock.advance(100);
		const runs = (await call(s, 'GET', '/_reference/runs', { token: null })).json;
		expect(runs).toEqual([
			expect.objectContaining({
				kickoffId: id,
				state: 'paused',
				resumes: [],
				completesAt: null,
				plan: expect.objectContaining({
					humanInput: { taskId: 'research_task', taskIds: ['research_task'] },
				}),
			}),
		]);
		s.reset();
		expect(
			(await resume(s, { execution_id: id, task_id: 'research_task', is_approve: true })).status,
		).toBe(404);
	});
});

// The service's own callback channels (docs/development/service-api.md#callbacks): Event Streaming with a
// bearer token, the crew human-input webhook, the signed flow feedback request.
describe('callback channels', () => {
	async function startRecorder() {
		const receiver = await startReceiver();
		return { url: `${receiver.base}/hook`, calls: receiver.received };
	}
	const streamed = (calls: ReceivedCall[]) => calls.flatMap((c) => c.body.events as any[]);
	const byTime = (events: any[]) =>
		[...events].sort((a, b) => a.timestamp.localeCompare(b.timestamp));

	test('batched stream: {"events":[...]} with the bearer token as given, every event of a run, terminal event carries the output', async () => {
		const hook = await startRecorder();
		const s = await start({ durationMs: 300, eventStream: { flushMs: 50 } });
		const id = await kickoff(s, {
			inputs: { topic: 'streams' },
			webhooks: {
				url: hook.url,
				events: [],
				authentication: { strategy: 'bearer', token: 'stream-tok-1' },
			},
		});
		await s.waitForWebhooks(
			(ds) =>
				streamed(hook.calls).some((e) => e.type === 'crew_kickoff_completed') && allSettled(ds),
			HANG_GUARD_MS,
		);
		expect(
			hook.calls.every(
				(c) =>
					c.headers.authorization === 'Bearer stream-tok-1' &&
					Object.keys(c.body).join() === 'events',
			),
		).toBe(true);
		// Batched: fewer requests than events.
		const events = byTime(streamed(hook.calls));
		expect(hook.calls.length).toBeLessThan(events.length);
		expect(events.map((e) => e.type).filter((t) => !t.startsWith('tool_'))).toEqual([
			'crew_kickoff_started',
			'task_started',
			'task_completed',
			'task_started',
			'task_completed',
			'task_started',
			'task_completed',
			'report_draft_ready',
			'crew_kickoff_completed',
		]);
		for (const e of events)
			expect(Object.keys(e)).toEqual(['id', 'execution_id', 'timestamp', 'type', 'data']);
		expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
		expect(
			events.every(
				(e) =>
					e.execution_id === id && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(e.timestamp),
			),
		).toBe(true);
		expect(events.at(-1).data).toMatchObject({
			output: {
				raw: 'Crew finished: topic=streams',
				json_dict: { inputs: { topic: 'streams' }, kickoffNumber: 1 },
			},
			total_tokens: 2580,
		});
		// The run and the request log show the config, never the token.
		expect(s.runs[0].callbacks.stream).toEqual({
			url: hook.url,
			events: [],
			realtime: false,
			auth: 'bearer',
		});
		expect(JSON.stringify([s.runs, s.requests])).not.toContain('stream-tok-1');
		expect(s.webhookDeliveries.every((d) => d.kind === 'stream' && d.auth === 'bearer')).toBe(true);
	});

	test('realtime: one event per request, only the requested types; failure ends with crew_kickoff_failed and data.error', async () => {
		const hook = await startRecorder();
		const s = await start({
			durationMs: 300,
			plan: () => ({ outcome: 'failure', error: 'quota exceeded' }),
		});
		await kickoff(s, {
			webhooks: {
				url: hook.url,
				events: ['task_completed', 'crew_kickoff_failed'],
				realtime: true,
				authentication: { strategy: 'bearer', token: 't' },
			},
		});
		await s.waitForWebhooks(
			(ds) => streamed(hook.calls).some((e) => e.type === 'crew_kickoff_failed') && allSettled(ds),
			HANG_GUARD_MS,
		);
		expect(hook.calls.every((c) => c.body.events.length === 1)).toBe(true);
		expect(byTime(streamed(hook.calls)).map((e) => e.type)).toEqual([
			'task_completed',
			'task_completed',
			'crew_kickoff_failed',
		]);
		expect(streamed(hook.calls).find((e) => e.type === 'crew_kickoff_failed').data).toEqual({
			crew_name: 'reference_crew',
			error: 'quota exceeded',
		});
	});

	test('a batch with a duplicate; a receiver that is down gets no retry', async () => {
		const hook = await startRecorder();
		const s = await start({ durationMs: 0, eventStream: { duplicate: true, shuffle: true } });
		await kickoff(s, {
			webhooks: { url: hook.url, authentication: { strategy: 'bearer', token: 't' } },
		});
		await s.waitForWebhooks((ds) => ds.length >= 1 && allSettled(ds), HANG_GUARD_MS);
		const [batch] = hook.calls.map((c) => c.body.events as any[]);
		expect(batch.length).toBe(new Set(batch.map((e) => e.id)).size + 1);
		const s2 = await start({ durationMs: 0 });
		// After the service starts, which could otherwise be given the port just freed.
		const dead = await deadUrl();
		await kickoff(s2, {
			webhooks: { url: dead, authentication: { strategy: 'bearer', token: 't' } },
		});
		await s2.waitForWebhooks((ds) => ds.length === 1 && allSettled(ds), HANG_GUARD_MS);
		await sleep(200);
		expect(s2.webhookDeliveries).toHaveLength(1);
		expect(s2.webhookDeliveries[0].error).toBeDefined();
	});

	test('wrong shapes are refused with 400; only loopback targets are called', async () => {
		const s = await start({ durationMs: 0 });
		for (const bad of [
			{ webhooks: 'x' },
			{ webhooks: { url: 'http://127.0.0.1:1', events: 'all' } },
			{
				webhooks: { url: 'u', authentication: { strategy: 'basic', username: 'a', password: 'b' } },
			},
			{ humanInputWebhook: { url: 'u', authentication: { strategy: 'oauth' } } },
		]) {
			expect(
				(await call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'x' }, ...bad } })).status,
			).toBe(400);
		}
		await kickoff(s, {
			webhooks: {
				url: 'https://hooks.example/stream',
				authentication: { strategy: 'bearer', token: 't' },
			},
		});
		await s.waitForWebhooks((ds) => ds.length > 0 && allSettled(ds), HANG_GUARD_MS);
		expect(s.webhookDeliveries[0].error).toMatch(/not a loopback host/);
	});

	test('humanInputWebhook: called with basic auth as the run pauses, carried over to the resumed run', async () => {
		const hook = await startRecorder();
		const s = await start({ durationMs: 300 });
		const id = await kickoff(s, {
			meta: { reference: { humanInput: { taskId: 'analysis_task' } } },
			humanInputWebhook: {
				url: hook.url,
				authentication: { strategy: 'basic', username: 'crewai', password: 'pw-1' },
			},
		});
		await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'humanInput') && allSettled(ds),
			HANG_GUARD_MS,
		);
		expect(hook.calls).toHaveLength(1);
		expect(hook.calls[0].headers.authorization).toBe(
			`Basic ${Buffer.from('crewai:pw-1').toString('base64')}`,
		);
		expect(hook.calls[0].body).toEqual({
			execution_id: id,
			task_id: 'analysis_task',
			output: 'Analysis of topic=AI agents',
		});
		expect(
			(
				await resume(s, {
					execution_id: id,
					task_id: 'analysis_task',
					is_approve: false,
					human_feedback: 'More',
				})
			).status,
		).toBe(200);
		await s.waitForWebhooks(
			(ds) => ds.filter((d) => d.kind === 'humanInput').length === 2 && allSettled(ds),
			HANG_GUARD_MS,
		);
		expect(hook.calls[1].body.output).toBe(
			'Analysis of topic=AI agents (revised after feedback: More)',
		);
	});

	test('flow feedback: signed request (both header families, both shapes), callback_url takes one answer', async () => {
		const { createHmac } = await import('node:crypto');
		const hook = await startRecorder();
		const clock = fakeClock(1_800_000_000_000);
		const secret = 'whsec_reference_secret';
		const s = await start({
			durationMs: 300,
			now: clock.now,
			flowFeedback: { url: hook.url, secret, headers: 'crewai', shape: 'flat' },
		});
		const id = await kickoff(s, {
			meta: { reference: { humanInput: { taskId: 'research_task' } } },
		});
		clock.advance(150);
		await s.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'feedbackRequest') && allSettled(ds),
			HANG_GUARD_MS,
		);
		const [request] = hook.calls;
		expect(request.headers['x-crewai-timestamp']).toBe(String(1_800_000_000));
		const mac = createHmac('sha256', secret)
			.update(`${String(1_800_000_000)}.${request.raw}`)
			.digest('hex');
		expect(request.headers['x-crewai-signature']).toBe(`sha256=${mac}`);
		expect(request.body).toMatchObject({
			event_type: 'new_request',
			status: 'pending',
			flow_id: id,
			emit: ['approved', 'rejected'],
			output: 'Research notes for topic=AI agents',
		});
		const callback = request.body.callback_url as string;
		expect(callback).toMatch(
			/\/crewai_plus\/api\/v1\/human_feedback_requests\/[^/]+\/respond\?token=[0-9a-f]{32}$/,
		);

		const answer = (url: string, body: unknown) =>
			fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		expect(
			(await answer(callback.replace(/token=\w+/, 'token=wrong'), { feedback: 'x' })).status,
		).toBe(401);
		const first = await answer(callback, { feedback: 'approved', source: 'n8n' });
		expect(first.status).toBe(200);
		expect(await first.json()).toMatchObject({
			status: 'accepted',
			request: { status: 'responded', feedback: 'approved', outcome: 'approved' },
		});
		expect((await answer(callback, { feedback: 'again' })).status).toBe(409);
		expect(s.feedbackRequests[0].answers.map((a) => a.status)).toEqual([200, 409]);
		expect(s.runs[0].resumes).toEqual([
			expect.objectContaining({ approved: true, feedback: 'approved' }),
		]);
		clock.advance(1000);
		expect((await status(s, id)).result.output).toBe(
			'Crew finished: topic=AI agents (feedback: approved)',
		);

		s.configure({ flowFeedback: { url: hook.url, secret } });
		await kickoff(s, { meta: { reference: { humanInput: { taskId: 'research_task' } } } });
		await s.waitForWebhooks(
			(ds) => ds.filter((d) => d.kind === 'feedbackRequest').length === 2 && allSettled(ds),
			HANG_GUARD_MS,
		);
		const nested = hook.calls[1];
		expect(nested.headers['x-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
		expect(nested.headers['x-timestamp']).toBeDefined();
		expect(nested.body).toMatchObject({
			event: 'new_request',
			request: { emit_options: ['approved', 'rejected'] },
			callback_url: expect.any(String),
		});
		// The admin route shows the option without its secret.
		expect(
			JSON.stringify(
				(await call(s, 'POST', '/_reference/configure', { token: null, body: {} })).json,
			),
		).not.toContain(secret);
	});
});
