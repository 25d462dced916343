import type { CrewService } from '..';
import { call, kickoff as kickoffWith } from './client';
import { closedAfterEach, fakeClock } from './crewServiceTesting';

// The live dialect answers as the "Live" facts of docs/development/service-api.md
// say; these tests pin it, since the node's live tests trust it.

const start = closedAfterEach();

const kickoff = async (service: CrewService, body: unknown = { inputs: { topic: 'AI' } }) =>
	await kickoffWith(service, body);

describe('reference service, live dialect: status records', () => {
	it('answers the platform-guide record through a run: PENDING, RUNNING with progress and events, SUCCESS with usage', async () => {
		const clock = fakeClock();
		const service = await start({ dialect: 'live', durationMs: 3000, now: clock.now });
		const id = await kickoff(service);

		const pending = (await call(service, 'GET', `/status/${id}`)).json;
		expect(pending).toMatchObject({
			state: 'PENDING',
			status: 'Task is Pending',
			result: null,
			events_count: 0,
		});

		clock.advance(1500); // task 1 done at 1000, task 2 under way
		const running = (await call(service, 'GET', `/status/${id}`)).json;
		expect(running).toMatchObject({
			state: 'RUNNING',
			status: 'Task is Running',
			result: null,
			result_json: null,
			usage_metrics: { total_tokens: 860, prompt_tokens: 640, completion_tokens: 220 },
			progress: {
				unit: 'task',
				completed: 1,
				total: 3,
				remaining: 2,
				current: 'analysis_task',
				current_agent: 'Data Analyst',
				duration_seconds: 1.5,
			},
			events_count: 4,
			events_by_type: { crew_kickoff_started: 1, task_started: 2, task_completed: 1 },
			last_event: expect.objectContaining({
				type: 'task_started',
				task_name: 'analysis_task',
				agent_role: 'Data Analyst',
			}),
			triggered_by: { type: 'service_account', id: expect.any(String) },
			execution_origin: 'api',
			source: 'memory',
			last_executed_task: expect.objectContaining({ name: 'research_task' }),
		});
		expect(running.events.map((event: { type: string }) => event.type)).toEqual([
			'crew_kickoff_started',
			'task_started',
			'task_completed',
			'task_started',
		]);
		// Events carry no prompts and no outputs.
		expect(JSON.stringify(running.events)).not.toMatch(/output|prompt/);

		clock.advance(1500);
		const done = (await call(service, 'GET', `/${id}/status`)).json;
		expect(done).toMatchObject({
			state: 'SUCCESS',
			status: null,
			result: 'Crew finished: topic=AI',
			usage_metrics: { total_tokens: 2580, prompt_tokens: 1920, completion_tokens: 660 },
			progress: { completed: 3, total: 3, remaining: 0, current: null },
			last_event: expect.objectContaining({ type: 'crew_kickoff_completed' }),
		});
	});

	it("puts a failure's exception text in status, with result null", async () => {
		const clock = fakeClock();
		const service = await start({
			dialect: 'live',
			durationMs: 1000,
			now: clock.now,
			plan: () => ({ outcome: 'failure', error: 'Task execution failed: invalid API key' }),
		});
		const id = await kickoff(service);
		clock.advance(1000);
		const failed = (await call(service, 'GET', `/status/${id}`)).json;
		expect(failed).toMatchObject({
			state: 'FAILED',
			status: 'Task execution failed: invalid API key',
			result: null,
			result_json: null,
		});
		expect(failed.usage_metrics.total_tokens).toBe(2580);
		expect(failed.events_by_type).toMatchObject({ task_failed: 1, crew_kickoff_failed: 1 });
	});

	it('answers 200 NOT FOUND for an unknown id, for the first reads while registering, and for a run paused for human input', async () => {
		const clock = fakeClock();
		const service = await start({
			dialect: 'live',
			durationMs: 3000,
			now: clock.now,
			registrationLagReads: 2,
		});
		expect(await call(service, 'GET', '/status/no-such-kickoff')).toMatchObject({
			status: 200,
			json: { state: 'NOT FOUND' },
		});

		const id = await kickoff(service, {
			inputs: { topic: 'AI' },
			meta: { reference: { humanInput: { taskId: 'analysis_task' } } },
		});
		clock.advance(500);
		const reads = [];
		for (let i = 0; i < 3; i++)
			reads.push((await call(service, 'GET', `/status/${id}`)).json.state);
		expect(reads).toEqual(['NOT FOUND', 'NOT FOUND', 'RUNNING']);
		clock.advance(2000); // the analysis task ends at 2000: paused
		expect((await call(service, 'GET', `/status/${id}`)).json).toEqual({ state: 'NOT FOUND' });
		expect(service.runs[0].state).toBe('paused');
	});

	it('leaves the documented dialect as it was', async () => {
		const service = await start({ durationMs: 1000 });
		expect(await call(service, 'GET', '/status/no-such-kickoff')).toMatchObject({
			status: 404,
			json: { error: 'Execution not found' },
		});
		expect((await call(service, 'POST', '/kickoff', { body: {} })).status).toBe(400);
	});
});

describe('reference service, live dialect: errors', () => {
	it('answers the live 401s: a wrong token, no Authorization header', async () => {
		const service = await start({ dialect: 'live' });
		expect(await call(service, 'GET', '/inputs', { token: 'wrong-token' })).toMatchObject({
			status: 401,
			json: { detail: 'Invalid or missing authentication credentials' },
		});
		expect(await call(service, 'GET', '/inputs', { token: null })).toMatchObject({
			status: 401,
			json: { detail: 'Not authenticated' },
		});
	});

	it('names missing inputs in a plain string, for missing values, {} and a body without the inputs wrapper', async () => {
		const service = await start({
			dialect: 'live',
			inputs: [{ name: 'topic' }, { name: 'audience' }],
		});
		for (const body of [{ inputs: { topic: '' } }, { inputs: {} }, {}]) {
			const reply = await call(service, 'POST', '/kickoff', { body });
			expect(reply).toMatchObject({
				status: 422,
				json: { detail: 'Missing inputs: audience, topic' },
			});
		}
		expect(service.runs).toHaveLength(0);
	});

	it("answers a body that is not JSON with a plain-text 500, and GET / with the router's 404", async () => {
		const service = await start({ dialect: 'live' });
		const notJson = await call(service, 'POST', '/kickoff', { rawBody: 'topic=AI' });
		expect(notJson).toMatchObject({ status: 500, text: 'Internal Server Error' });
		expect(notJson.contentType).toMatch(/^text\/plain/);
		expect(await call(service, 'GET', '/')).toMatchObject({
			status: 404,
			json: { detail: 'Not Found' },
		});
	});
});

describe('reference service: a cold deployment (coldStartMs)', () => {
	it('takes the first request at once and answers it late; the next ones answer at once', async () => {
		const service = await start({ dialect: 'live', coldStartMs: 1500 });
		const startedAt = Date.now();
		const id = await kickoff(service);
		const answeredAt = Date.now();
		expect(answeredAt - startedAt).toBeGreaterThanOrEqual(1500);
		// The run was created as the request arrived, not as it was answered.
		expect(service.runs[0].createdAt).toBeLessThanOrEqual(answeredAt - 1500);
		// Answered at once, not held as the first was: it comes before a timer that falls due when a
		// held answer would (created first, so a held answer's own timer would fire after it).
		const heldAnswerDue = new Promise<string>((resolve) =>
			setTimeout(() => resolve('held'), 1500).unref(),
		);
		expect(
			await Promise.race([
				call(service, 'GET', `/status/${id}`).then(() => 'at once'),
				heldAnswerDue,
			]),
		).toBe('at once');
	});

	it('arms again when configure sets it', async () => {
		const service = await start({ dialect: 'live' });
		await call(service, 'GET', '/inputs');
		service.configure({ coldStartMs: 300 });
		const startedAt = Date.now();
		await call(service, 'GET', '/inputs');
		expect(Date.now() - startedAt).toBeGreaterThanOrEqual(300);
	});

	it('refuses values out of range', async () => {
		await expect(start({ coldStartMs: -1 })).rejects.toThrow(/coldStartMs/);
		await expect(start({ registrationLagReads: 1.5 })).rejects.toThrow(/registrationLagReads/);
	});
});

describe('reference service: runs registered late (registrationDelayMs)', () => {
	it("answers a run's status reads as for an unknown id until the delay has passed, live NOT FOUND and documented 404, counting them", async () => {
		const clock = fakeClock();
		for (const dialect of ['live', 'documented'] as const) {
			const service = await start({
				dialect,
				durationMs: 10_000,
				now: clock.now,
				registrationDelayMs: 3000,
			});
			const id = await kickoff(service);
			clock.advance(2999);
			const unknown = await call(service, 'GET', `/status/${id}`);
			expect(unknown).toMatchObject(
				dialect === 'live'
					? { status: 200, json: { state: 'NOT FOUND' } }
					: { status: 404, json: { error: 'Execution not found' } },
			);
			expect(await call(service, 'GET', `/${id}/status`)).toMatchObject({
				status: unknown.status,
				json: unknown.json,
			});
			clock.advance(1);
			expect((await call(service, 'GET', `/status/${id}`)).status).toBe(200);
			expect((await call(service, 'GET', `/status/${id}`)).json.state).not.toBe('NOT FOUND');
			expect(service.runs[0].statusRequests).toBe(4);
		}
	});

	it("takes a run's own delay from meta.reference, over the service's: one crew unknown while another is known at once; a resumed run is new again", async () => {
		const clock = fakeClock();
		const service = await start({
			dialect: 'live',
			durationMs: 900,
			now: clock.now,
			registrationDelayMs: 0,
		});
		const late = await kickoff(service, {
			inputs: { topic: 'late' },
			meta: { reference: { registrationDelayMs: 2000, humanInput: { taskId: 'analysis_task' } } },
		});
		const known = await kickoff(service, { inputs: { topic: 'known' } });
		expect(service.runs[0].plan.registrationDelayMs).toBe(2000);
		expect(service.runs[1].plan).not.toHaveProperty('registrationDelayMs');
		clock.advance(100);
		expect((await call(service, 'GET', `/status/${late}`)).json.state).toBe('NOT FOUND');
		expect((await call(service, 'GET', `/status/${known}`)).json.state).toBe('RUNNING');
		clock.advance(1900);
		// Registered, and paused at the end of analysis_task (600 ms): live, a pause reads NOT FOUND too.
		expect(service.runs[0].state).toBe('paused');
		const resumed = await call(service, 'POST', '/resume', {
			body: { executionId: late, taskId: 'analysis_task', isApprove: true },
		});
		const next = resumed.json.kickoff_id as string;
		expect((await call(service, 'GET', `/status/${next}`)).json.state).toBe('NOT FOUND');
		clock.advance(2000);
		expect((await call(service, 'GET', `/status/${next}`)).json.state).toBe('SUCCESS');
		const refused = await call(service, 'POST', '/kickoff', {
			body: { inputs: { topic: 'x' }, meta: { reference: { registrationDelayMs: -5 } } },
		});
		expect(refused.json.message).toMatch(
			/meta\.reference\.registrationDelayMs must be an integer 0\.\.600000/,
		);
	});
});
