import type { CrewService } from '..';
import { call, kickoff as kickoffWith } from './client';
import { closedAfterEach, fakeClock } from './crewServiceTesting';

// POST /stop/{kickoff_id} of the reference service, pinned to the vendor's documentation
// (docs/development/service-api.md#stopping-a-run): the oracle of the node's Stop tests.

const start = closedAfterEach();

async function kickoff(service: CrewService, meta?: unknown, extra: Record<string, unknown> = {}) {
	return await kickoffWith(service, {
		inputs: { topic: 'AI' },
		...(meta ? { meta } : {}),
		...extra,
	});
}

describe('reference service: POST /stop/{kickoff_id}', () => {
	it('registrationDelayMs: a fresh run reads NOT FOUND and its stop is the 404, until the delay has passed; then it stops', async () => {
		const clock = fakeClock();
		const service = await start({
			dialect: 'live',
			durationMs: 10_000,
			now: clock.now,
			registrationDelayMs: 3000,
		});
		const id = await kickoff(service);
		clock.advance(2999);
		expect((await call(service, 'GET', `/status/${id}`)).json.state).toBe('NOT FOUND');
		expect(await call(service, 'POST', `/stop/${id}`)).toMatchObject({
			status: 404,
			json: { error: 'Execution not found', message: `No execution found with ID: ${id}` },
		});
		clock.advance(1);
		expect((await call(service, 'GET', `/status/${id}`)).json.state).toBe('RUNNING');
		expect(await call(service, 'POST', `/stop/${id}`)).toMatchObject({
			status: 200,
			json: { status: 'stopped', kickoffId: id },
		});
		expect((await call(service, 'GET', `/status/${id}`)).json.state).toBe('REVOKED');
		await expect(start({ registrationDelayMs: -1 })).rejects.toThrow(/registrationDelayMs/);
	});

	it('stops a running crew: 200 with the camelCase id, then REVOKED in every status spelling and record shape', async () => {
		const clock = fakeClock();
		const service = await start({ durationMs: 1000, now: clock.now, recordShape: 'wild' });
		const id = await kickoff(service);
		clock.advance(400);
		expect((await call(service, 'GET', `/status/${id}`)).json.state).toBe('RUNNING');
		expect(await call(service, 'POST', `/stop/${id}`)).toMatchObject({
			status: 200,
			json: { status: 'stopped', kickoffId: id },
		});
		expect((await call(service, 'GET', `/status/${id}`)).json).toEqual({ state: 'REVOKED' });
		// The run's planned end passes: it stays stopped.
		clock.advance(5000);
		expect((await call(service, 'GET', `/${id}/status`)).json).toEqual({ state: 'REVOKED' });
		expect(service.runs[0]).toMatchObject({ state: 'revoked', stoppedAt: clock.now() - 5000 });
		service.configure({ recordShape: 'contract' });
		expect((await call(service, 'GET', `/${id}/status`)).json).toEqual({ status: 'revoked' });
		expect(service.requests.filter((entry) => entry.route === 'stop')).toEqual([
			expect.objectContaining({
				method: 'POST',
				kickoffId: id,
				status: 200,
				tokenType: 'organization',
			}),
		]);
		expect(service.count('stop')).toBe(1);
	});

	it('stops a pending run, a run paused for human input, and a run that would never end', async () => {
		const clock = fakeClock();
		const service = await start({ durationMs: 900, now: clock.now });
		const pending = await kickoff(service);
		const paused = await kickoff(service, {
			reference: { humanInput: { taskId: 'research_task' } },
		});
		const never = await kickoff(service, { reference: { outcome: 'never' } });
		clock.advance(50);
		expect(service.runs.map((run) => run.state)).toEqual(['pending', 'pending', 'pending']);
		expect((await call(service, 'POST', `/stop/${pending}`)).status).toBe(200);
		clock.advance(400);
		expect(service.runs.map((run) => run.state)).toEqual(['revoked', 'paused', 'running']);
		expect((await call(service, 'POST', `/stop/${paused}`)).status).toBe(200);
		expect((await call(service, 'POST', `/stop/${never}`)).status).toBe(200);
		expect(service.runs.map((run) => run.state)).toEqual(['revoked', 'revoked', 'revoked']);
		// A stopped run can no longer be resumed.
		expect(
			(
				await call(service, 'POST', '/resume', {
					body: { execution_id: paused, task_id: 'research_task', is_approve: true },
				})
			).status,
		).toBe(409);
	});

	it('refuses a run that has ended with its state: SUCCESS, FAILURE, REVOKED (a second stop)', async () => {
		const clock = fakeClock();
		const service = await start({ durationMs: 100, now: clock.now });
		const succeeded = await kickoff(service);
		const failed = await kickoff(service, { reference: { outcome: 'failure' } });
		const stopped = await kickoff(service);
		expect((await call(service, 'POST', `/stop/${stopped}`)).status).toBe(200);
		clock.advance(100);
		expect(await call(service, 'POST', `/stop/${succeeded}`)).toMatchObject({
			status: 400,
			json: { detail: 'Cannot stop execution. Current state: SUCCESS' },
		});
		expect(await call(service, 'POST', `/stop/${failed}`)).toMatchObject({
			status: 400,
			json: { detail: 'Cannot stop execution. Current state: FAILURE' },
		});
		expect(await call(service, 'POST', `/stop/${stopped}`)).toMatchObject({
			status: 400,
			json: { detail: 'Cannot stop execution. Current state: REVOKED' },
		});
		expect(service.count('stop')).toBe(4);
	});

	it('answers the documented 404 for an unknown id, in every dialect and error shape', async () => {
		for (const options of [{}, { errorShape: 'fastapi' as const }, { dialect: 'live' as const }]) {
			const service = await start(options);
			expect(await call(service, 'POST', '/stop/no-such-kickoff')).toMatchObject({
				status: 404,
				json: {
					error: 'Execution not found',
					message: 'No execution found with ID: no-such-kickoff',
				},
			});
		}
	});

	it('checks the token and the method like every route', async () => {
		const service = await start();
		const id = await kickoff(service);
		expect((await call(service, 'POST', `/stop/${id}`, { token: 'wrong' })).status).toBe(401);
		expect((await call(service, 'POST', `/stop/${id}`, { token: null })).status).toBe(401);
		expect((await call(service, 'GET', `/stop/${id}`)).status).toBe(405);
		expect(service.runs[0].state).not.toBe('revoked');
		expect(
			(await call(service, 'POST', `/stop/${id}`, { token: service.tokens.user })).status,
		).toBe(200);
	});

	it("a deployment without the route: FastAPI's bare 404 before auth, or a 405; the run goes on", async () => {
		const clock = fakeClock();
		const service = await start({ stopRoute: false, now: clock.now });
		const id = await kickoff(service);
		expect(await call(service, 'POST', `/stop/${id}`)).toMatchObject({
			status: 404,
			json: { detail: 'Not Found' },
		});
		expect(await call(service, 'POST', `/stop/${id}`, { token: null })).toMatchObject({
			status: 404,
			json: { detail: 'Not Found' },
		});
		service.configure({ stopRoute: 'methodNotAllowed' });
		expect(await call(service, 'POST', `/stop/${id}`)).toMatchObject({
			status: 405,
			json: { detail: 'Method Not Allowed' },
		});
		clock.advance(5000);
		expect(service.runs[0].state).toBe('completed');
		expect(service.count('stop')).toBe(3);
		expect(() => service.configure({ stopRoute: 'no' as never })).toThrow(/stopRoute/);
	});

	it('stops a deployed flow, read REVOKED by the live dialect', async () => {
		const clock = fakeClock();
		const service = await start({
			deployment: 'flow',
			dialect: 'live',
			durationMs: 1000,
			now: clock.now,
		});
		const id = await kickoff(service);
		clock.advance(500);
		expect((await call(service, 'POST', `/stop/${id}`)).json).toEqual({
			status: 'stopped',
			kickoffId: id,
		});
		expect((await call(service, 'GET', `/status/${id}`)).json).toMatchObject({ state: 'REVOKED' });
	});

	it('the live crew record reads REVOKED with its reason word, and no final result', async () => {
		const clock = fakeClock();
		const service = await start({ dialect: 'live', durationMs: 1000, now: clock.now });
		const id = await kickoff(service);
		clock.advance(500);
		await call(service, 'POST', `/stop/${id}`);
		expect((await call(service, 'GET', `/status/${id}`)).json).toMatchObject({
			state: 'REVOKED',
			status: 'Task is Revoked',
			result: null,
		});
	});

	it('a stopped run calls nobody again: its step, task and crew webhooks and its event stream are dropped', async () => {
		const service = await start({ durationMs: 300 });
		service.holdMoments();
		const hooks = {
			stepWebhookUrl: 'http://127.0.0.1:9/step',
			taskWebhookUrl: 'http://127.0.0.1:9/task',
			crewWebhookUrl: 'http://127.0.0.1:9/crew',
		};
		const stopped = await kickoff(service, undefined, {
			...hooks,
			webhooks: { events: [], url: 'http://127.0.0.1:9/stream' },
		});
		await kickoff(service, undefined, hooks);
		expect((await call(service, 'POST', `/stop/${stopped}`)).status).toBe(200);
		// Only the run that was not stopped has moments left to time.
		expect(service.releaseMoments()).toBe(1);
		const deliveries = await service.waitForWebhooks(
			(ds) => ds.some((d) => d.kind === 'crew'),
			5_000,
		);
		expect(deliveries.filter((delivery) => delivery.kickoffId === stopped)).toEqual([]);
	});
});
