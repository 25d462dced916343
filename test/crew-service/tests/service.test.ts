import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { startCrewService, type CrewService } from '..';
import { call, kickoff as kickoffWith } from './client';
import { closedAfterEach, fakeClock } from './crewServiceTesting';

// The reference service is the oracle for the node's tests, so these tests pin
// its behaviour to the service's API as docs/development/service-api.md records it.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const start = closedAfterEach();

/** Raw HTTP for paths fetch would normalise (dot segments, malformed escapes). */
function rawGet(
	service: CrewService,
	rawPath: string,
	token = service.tokens.organization,
): Promise<{ status: number; json: any }> {
	const { hostname, port } = new URL(service.url);
	return new Promise((resolve, reject) => {
		const req = http.request(
			{
				host: hostname,
				port,
				path: rawPath,
				method: 'GET',
				headers: { authorization: `Bearer ${token}` },
			},
			(res) => {
				let text = '';
				res.on('data', (c) => (text += c));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
			},
		);
		req.on('error', reject);
		req.end();
	});
}

const kickoff = async (
	service: CrewService,
	body: unknown = { inputs: { topic: 'AI agents', audience: 'devs' } },
	token?: string,
) => await kickoffWith(service, body, token);

describe('authentication', () => {
	test('both token types work on every route and are logged by type', async () => {
		const s = await start({ durationMs: 0 });
		expect(s.tokens.organization).toMatch(/^org-tok-[0-9a-f]{16,}$/);
		expect(s.tokens.user).toMatch(/^usr-tok-[0-9a-f]{16,}$/);
		expect((await call(s, 'GET', '/inputs', { token: s.tokens.organization })).status).toBe(200);
		expect((await call(s, 'GET', '/inputs', { token: s.tokens.user })).status).toBe(200);
		const id = await kickoff(s, undefined, s.tokens.user);
		expect((await call(s, 'GET', `/${id}/status`, { token: s.tokens.user })).status).toBe(200);
		expect(s.requests.map((r) => r.tokenType)).toEqual(['organization', 'user', 'user', 'user']);
		expect(s.runs[0].tokenType).toBe('user');
	});

	test('missing, wrong or malformed credentials get 401 before anything else', async () => {
		const s = await start();
		const id = await kickoff(s);
		for (const token of [null, 'org-tok-wrong', `${s.tokens.organization}x`]) {
			for (const [method, p] of [
				['GET', '/inputs'],
				['POST', '/kickoff'],
				['GET', `/${id}/status`],
				['GET', `/status/${id}`],
			]) {
				// A body that is invalid in every way: auth must still be the first answer.
				const r = await call(s, method, p, {
					token,
					rawBody: method === 'POST' ? '{not json' : undefined,
				});
				expect([method, p, r.status]).toEqual([method, p, 401]);
				expect(r.json).toEqual({ error: 'Unauthorized', message: expect.any(String) });
				expect(r.headers.get('www-authenticate')).toBe('Bearer');
			}
		}
		for (const header of [`Token ${s.tokens.organization}`, s.tokens.organization, `Bearer  `]) {
			const r = await fetch(`${s.url}/inputs`, { headers: { authorization: header } });
			expect(r.status).toBe(401);
		}
		// The scheme is case-insensitive.
		expect(
			(await fetch(`${s.url}/inputs`, { headers: { authorization: `bearer ${s.tokens.user}` } }))
				.status,
		).toBe(200);
		expect(s.runs).toHaveLength(1);
		expect(s.requests.filter((r) => r.status === 401).every((r) => r.tokenType === null)).toBe(
			true,
		);
	});

	test('configured tokens replace the old ones at once', async () => {
		const s = await start({ tokens: { organization: 'org-A', user: 'usr-B' } });
		expect((await call(s, 'GET', '/inputs', { token: 'org-A' })).status).toBe(200);
		s.configure({ tokens: { organization: 'org-C' } });
		expect((await call(s, 'GET', '/inputs', { token: 'org-A' })).status).toBe(401);
		expect((await call(s, 'GET', '/inputs', { token: 'org-C' })).status).toBe(200);
		expect((await call(s, 'GET', '/inputs', { token: 'usr-B' })).status).toBe(200);
		expect(() => s.configure({ tokens: { user: 'org-C' } })).toThrow(/differ/);
	});
});

describe('GET /inputs', () => {
	test('names shape by default, objects shape on request', async () => {
		const s = await start();
		expect((await call(s, 'GET', '/inputs')).json).toEqual({ inputs: ['topic', 'audience'] });
		s.configure({ inputsShape: 'objects' });
		expect((await call(s, 'GET', '/inputs')).json).toEqual({
			inputs: [
				{ name: 'topic', type: 'string', required: true },
				{ name: 'audience', type: 'string', required: false },
			],
		});
		s.configure({ inputs: [{ name: 'odd "name".x', type: 'number' }] });
		expect((await call(s, 'GET', '/inputs')).json).toEqual({
			inputs: [{ name: 'odd "name".x', type: 'number', required: true }],
		});
		expect((await call(s, 'POST', '/inputs', { body: {} })).status).toBe(405);
	});
});

describe('POST /kickoff validation', () => {
	const invalid: Array<
		[string, { rawBody?: string; body?: unknown; headers?: Record<string, string> }]
	> = [
		['bad JSON', { rawBody: '{"inputs": {' }],
		['empty body', { rawBody: '' }],
		['body not an object', { body: ['topic'] }],
		['inputs missing', { body: { topic: 'x' } }],
		['inputs an array', { body: { inputs: ['x'] } }],
		['inputs a string', { body: { inputs: 'topic=x' } }],
		['inputs null', { body: { inputs: null } }],
		['non-string value', { body: { inputs: { topic: 'x', audience: 3 } } }],
		['nested object value', { body: { inputs: { topic: { text: 'x' } } } }],
		['meta not an object', { body: { inputs: { topic: 'x' }, meta: 'm' } }],
		['webhook not a string', { body: { inputs: { topic: 'x' }, crewWebhookUrl: 1 } }],
		[
			'non-JSON content type',
			{ body: { inputs: { topic: 'x' } }, headers: { 'content-type': 'text/plain' } },
		],
	];
	test.each(invalid)('%s → 400 in both error shapes, no run', async (_name, request) => {
		const s = await start();
		const documented = await call(s, 'POST', '/kickoff', request);
		expect(documented.status).toBe(400);
		expect(documented.json).toEqual({
			error: 'Bad Request',
			message: expect.stringMatching(/^Invalid input format: /),
		});
		s.configure({ errorShape: 'fastapi' });
		const fastapi = await call(s, 'POST', '/kickoff', request);
		expect(fastapi.status).toBe(400);
		expect(fastapi.json).toEqual({ detail: expect.stringMatching(/^Invalid input format: /) });
		expect(s.runs).toHaveLength(0);
	});

	test('missing or empty required inputs → 422 naming them, in both shapes', async () => {
		const s = await start({
			inputs: [
				{ name: 'topic' },
				{ name: 'budget', required: true },
				{ name: 'audience', required: false },
			],
		});
		const documented = await call(s, 'POST', '/kickoff', { body: { inputs: { topic: '' } } });
		expect(documented.status).toBe(422);
		expect(documented.json).toEqual({
			error: 'Validation Error',
			message: 'Missing required inputs',
			details: { missing_inputs: ['topic', 'budget'] },
		});
		s.configure({ errorShape: 'fastapi' });
		const fastapi = await call(s, 'POST', '/kickoff', { body: { inputs: { budget: '5' } } });
		expect(fastapi.status).toBe(422);
		expect(fastapi.json).toEqual({
			detail: [{ loc: ['body', 'inputs', 'topic'], msg: 'Field required', type: 'missing' }],
		});
		// Inherited property names are not "present".
		s.configure({ inputs: [{ name: 'constructor' }] });
		expect((await call(s, 'POST', '/kickoff', { body: { inputs: {} } })).status).toBe(422);
		expect(s.runs).toHaveLength(0);
	});

	test('accepted kickoff: uuid, extra inputs, meta and webhooks recorded, charset in content type', async () => {
		const clock = fakeClock();
		const s = await start({ now: clock.now });
		const body = {
			inputs: { topic: 'AI agents', extra: 'kept' },
			meta: { requestId: 'r1' },
			taskWebhookUrl: 'http://hooks.test/task',
			crewWebhookUrl: 'http://hooks.test/crew',
			unknownField: true,
		};
		const r = await call(s, 'POST', '/kickoff', {
			body,
			headers: { 'Content-Type': 'application/json; charset=utf-8' },
		});
		expect(r.status).toBe(200);
		expect(Object.keys(r.json)).toEqual(['kickoff_id']);
		expect(r.json.kickoff_id).toMatch(UUID);
		expect(s.runs).toEqual([
			{
				kickoffId: r.json.kickoff_id,
				index: 0,
				inputs: { topic: 'AI agents', extra: 'kept' },
				meta: { requestId: 'r1' },
				webhooks: {
					taskWebhookUrl: 'http://hooks.test/task',
					crewWebhookUrl: 'http://hooks.test/crew',
				},
				tokenType: 'organization',
				createdAt: clock.now(),
				completesAt: clock.now() + 2000,
				plan: {
					durationMs: 2000,
					outcome: 'success',
					result: 'Crew finished: topic=AI agents; extra=kept',
					resultJson: { inputs: { topic: 'AI agents', extra: 'kept' }, kickoffNumber: 1 },
					error: 'Task execution failed: invalid API key for external service',
					humanInput: null,
				},
				statusRequests: 0,
				state: 'pending',
				resumes: [],
			},
		]);
		expect(s.requests[0]).toMatchObject({
			route: 'kickoff',
			status: 200,
			kickoffId: r.json.kickoff_id,
			body,
		});
		// Not idempotent: the same POST again is a second run.
		expect(await kickoff(s, body)).not.toBe(r.json.kickoff_id);
		expect(s.runs[1].plan.resultJson).toEqual({ inputs: body.inputs, kickoffNumber: 2 });
		expect(s.count('kickoff', 'post')).toBe(2);
		expect((await call(s, 'GET', '/kickoff')).status).toBe(405);
	});
});

describe('run lifecycle', () => {
	test('pending → running with growing progress → completed, by the injected clock', async () => {
		const clock = fakeClock();
		const s = await start({ now: clock.now, durationMs: 1000 });
		const id = await kickoff(s);
		const status = async () => (await call(s, 'GET', `/${id}/status`)).json;

		expect(await status()).toEqual({ status: 'pending' });
		clock.advance(99);
		expect(await status()).toEqual({ status: 'pending' });
		clock.advance(1); // 100 ms = 10%
		expect(await status()).toEqual({
			status: 'running',
			current_task: 'research_task',
			progress: { completed_tasks: 0, total_tasks: 3 },
		});
		clock.set(s.runs[0].createdAt + 500);
		expect(await status()).toEqual({
			status: 'running',
			current_task: 'analysis_task',
			progress: { completed_tasks: 1, total_tasks: 3 },
		});
		clock.set(s.runs[0].createdAt + 999);
		expect(await status()).toEqual({
			status: 'running',
			current_task: 'report_task',
			progress: { completed_tasks: 2, total_tasks: 3 },
		});
		clock.set(s.runs[0].createdAt + 1000);
		const done = await status();
		expect(done).toEqual({
			status: 'completed',
			result: {
				output: 'Crew finished: topic=AI agents; audience=devs',
				tasks: [
					{
						task_id: 'research_task',
						output: expect.stringContaining('topic=AI agents'),
						agent: expect.any(String),
						execution_time: 0.3,
					},
					{
						task_id: 'analysis_task',
						output: expect.stringContaining('topic=AI agents'),
						agent: expect.any(String),
						execution_time: 0.3,
					},
					{
						task_id: 'report_task',
						output: 'Crew finished: topic=AI agents; audience=devs',
						agent: expect.any(String),
						execution_time: 0.3,
					},
				],
			},
			execution_time: 1,
		});
		expect(s.runs[0].statusRequests).toBe(6);
	});

	test("a poll in the kickoff's own millisecond is pending; durationMs 0 is finished at once", async () => {
		const clock = fakeClock();
		const s = await start({ now: clock.now, durationMs: 1 });
		const tiny = await kickoff(s);
		const instant = await kickoff(s, {
			inputs: { topic: 'x' },
			meta: { reference: { durationMs: 0 } },
		});
		expect((await call(s, 'GET', `/${tiny}/status`)).json).toEqual({ status: 'pending' });
		expect((await call(s, 'GET', `/${instant}/status`)).json.status).toBe('completed');
		clock.advance(1);
		expect((await call(s, 'GET', `/${tiny}/status`)).json.status).toBe('completed');
	});

	test('wild record shape through the same lifecycle', async () => {
		const clock = fakeClock();
		const s = await start({ now: clock.now, durationMs: 1000, recordShape: 'wild' });
		const id = await kickoff(s);
		const status = async () => (await call(s, 'GET', `/status/${id}`)).json;
		expect(await status()).toEqual({ state: 'PENDING' });
		clock.advance(600);
		expect(await status()).toEqual({
			state: 'RUNNING',
			status: 'Working on task 2 of 3',
			last_step: { thought: expect.any(String) },
		});
		clock.advance(400);
		expect(await status()).toEqual({
			state: 'SUCCESS',
			result: 'Crew finished: topic=AI agents; audience=devs',
			result_json: { inputs: { topic: 'AI agents', audience: 'devs' }, kickoffNumber: 1 },
			last_executed_task: {
				name: 'report',
				output: 'Crew finished: topic=AI agents; audience=devs',
			},
		});
	});

	test('failure, revoked and never outcomes via options.plan, in both shapes', async () => {
		const clock = fakeClock();
		const outcomes = ['failure', 'revoked', 'never', 'failure'] as const;
		const seen: unknown[] = [];
		const s = await start({
			now: clock.now,
			plan: (k) => {
				seen.push(k);
				return {
					outcome: outcomes[k.index],
					durationMs: 100 * (k.index + 1),
					...(k.index === 3 ? { error: 'quota exceeded' } : {}),
				};
			},
		});
		const ids = [];
		for (let i = 0; i < 4; i++)
			ids.push(await kickoff(s, { inputs: { topic: `t${i}` }, meta: { n: i } }));
		expect(seen[2]).toEqual({ inputs: { topic: 't2' }, meta: { n: 2 }, index: 2 });
		expect(s.runs.map((r) => r.completesAt)).toEqual([
			clock.now() + 100,
			clock.now() + 200,
			null,
			clock.now() + 400,
		]);
		clock.advance(1_000_000);
		const contract = await Promise.all(
			ids.map(async (id) => (await call(s, 'GET', `/${id}/status`)).json),
		);
		expect(contract).toEqual([
			{
				status: 'error',
				error: 'Task execution failed: invalid API key for external service',
				execution_time: 0.1,
			},
			{ status: 'revoked' },
			{
				status: 'running',
				current_task: 'report_task',
				progress: { completed_tasks: 2, total_tasks: 3 },
			},
			{ status: 'error', error: 'quota exceeded', execution_time: 0.4 },
		]);
		s.configure({ recordShape: 'wild' });
		const wild = await Promise.all(
			ids.map(async (id) => (await call(s, 'GET', `/${id}/status`)).json),
		);
		expect(wild).toEqual([
			{ state: 'FAILURE', result: 'Task execution failed: invalid API key for external service' },
			{ state: 'REVOKED' },
			{
				state: 'RUNNING',
				status: 'Working on task 3 of 3',
				last_step: { thought: expect.any(String) },
			},
			{ state: 'FAILURE', result: 'quota exceeded' },
		]);
	});

	test('meta.reference controls a run from outside and overrides options.plan', async () => {
		const clock = fakeClock();
		const s = await start({ now: clock.now, plan: () => ({ outcome: 'never', durationMs: 50 }) });
		const failing = await kickoff(s, {
			inputs: { topic: 'x' },
			meta: { reference: { outcome: 'failure', durationMs: 0, error: 'boom' } },
		});
		const custom = await kickoff(s, {
			inputs: { topic: 'x' },
			meta: { reference: { result: 'custom text', outcome: 'success' } },
		});
		expect((await call(s, 'GET', `/${failing}/status`)).json).toEqual({
			status: 'error',
			error: 'boom',
			execution_time: 0,
		});
		expect(s.runs[1].plan).toMatchObject({
			durationMs: 50,
			outcome: 'success',
			result: 'custom text',
		});
		clock.advance(50);
		expect((await call(s, 'GET', `/${custom}/status`)).json.result.output).toBe('custom text');
		for (const reference of [
			{ outcome: 'exploded' },
			{ durationMs: -1 },
			{ durationMs: '5' },
			{ error: 3 },
			'fail',
		]) {
			const r = await call(s, 'POST', '/kickoff', {
				body: { inputs: { topic: 'x' }, meta: { reference } },
			});
			expect(r.status).toBe(400);
			expect(r.json.message).toMatch(/meta\.reference/);
		}
		expect(s.runs).toHaveLength(2);
	});
});

describe('status routes', () => {
	test('both spellings answer by default; statusPaths disables one with FastAPI 404', async () => {
		const s = await start({ durationMs: 0 });
		const id = await kickoff(s);
		expect((await call(s, 'GET', `/${id}/status`)).json.status).toBe('completed');
		expect((await call(s, 'GET', `/status/${id}`)).json.status).toBe('completed');

		s.configure({ statusPaths: 'contract' });
		expect((await call(s, 'GET', `/${id}/status`)).status).toBe(200);
		const wild = await call(s, 'GET', `/status/${id}`, { token: null });
		expect([wild.status, wild.json]).toEqual([404, { detail: 'Not Found' }]);

		s.configure({ statusPaths: 'wild' });
		expect((await call(s, 'GET', `/status/${id}`)).status).toBe(200);
		const contract = await call(s, 'GET', `/${id}/status`);
		expect([contract.status, contract.json]).toEqual([404, { detail: 'Not Found' }]);

		expect(
			s.requests.filter((r) => r.route === 'status').map((r) => [r.spelling, r.status]),
		).toEqual([
			['contract', 200],
			['wild', 200],
			['contract', 200],
			['wild', 404],
			['wild', 200],
			['contract', 404],
		]);
		expect(s.runs[0].statusRequests).toBe(4);
		expect(s.count('status')).toBe(6);
		expect(s.count('status', 'GET')).toBe(6);
	});

	test('unknown ids get the documented "Execution not found" 404 naming the id, in both error shapes; the unserved spelling the router\'s bare one', async () => {
		const s = await start();
		const missing = '97eba64f-958c-40a0-b61c-625fe635a3c0';
		const r = await call(s, 'GET', `/${missing}/status`);
		expect([r.status, r.json]).toEqual([
			404,
			{ error: 'Execution not found', message: `No execution found with ID: ${missing}` },
		]);
		s.configure({ errorShape: 'fastapi' });
		const f = await call(s, 'GET', `/status/${missing}`);
		expect([f.status, f.json]).toEqual([404, { detail: `No execution found with ID: ${missing}` }]);
		s.configure({ statusPaths: 'wild', errorShape: 'documented' });
		const unserved = await call(s, 'GET', `/${missing}/status`);
		expect([unserved.status, unserved.json]).toEqual([404, { detail: 'Not Found' }]);
	});

	test('odd ids are decoded and simply not found, never routed elsewhere', async () => {
		const s = await start({ durationMs: 0 });
		const id = await kickoff(s);
		const notFound = (r: { status: number; json: any }) => r.status === 404;
		const cases: Array<[string, string | null]> = [
			// [raw path, id the log must show (null: no status route matched)]
			[`/${encodeURIComponent(`${id}/x`)}/status`, `${id}/x`],
			[`/status/${encodeURIComponent(`${id}/status`)}`, `${id}/status`],
			[`/status/${encodeURIComponent(`x/${id}`)}`, `x/${id}`],
			[`/${encodeURIComponent(`${id}?`)}/status`, `${id}?`],
			[`/${id}%20/status`, `${id} `],
			['/%E0%A4%A/status', '%E0%A4%A'],
			['/..%2Finputs/status', '../inputs'],
			['/inputs/status', 'inputs'],
			['/status/kickoff', 'kickoff'],
			[`/${id}/extra/status`, null],
			[`/status/${id}/`, null],
			[`/status/${id}/status/x`, null],
			[`//${id}/status`, null],
			[`/${id}/status/`, null],
		];
		for (const [rawPath, loggedId] of cases) {
			const r = await rawGet(s, rawPath);
			expect([rawPath, notFound(r)]).toEqual([rawPath, true]);
			const logged = s.requests[s.requests.length - 1];
			if (loggedId === null) {
				expect(r.json).toEqual({ detail: 'Not Found' });
				expect(logged.route).toBe('other');
			} else {
				expect(r.json.message).toBe(`No execution found with ID: ${loggedId}`);
				expect(logged).toMatchObject({ route: 'status', kickoffId: loggedId, status: 404 });
			}
		}
		expect(s.runs[0].statusRequests).toBe(0);
		// The real id still resolves after all that.
		expect((await rawGet(s, `/${id}/status`)).status).toBe(200);
	});

	test('the real id, percent-encoded, resolves', async () => {
		const s = await start({ durationMs: 0 });
		const id = await kickoff(s);
		const encoded = id.replace(/-/g, '%2D');
		expect((await rawGet(s, `/${encoded}/status`)).status).toBe(200);
		expect((await rawGet(s, `/status/${encoded}?ignored=1`)).status).toBe(200);
	});

	test('unknown routes are FastAPI 404s without needing auth', async () => {
		const s = await start();
		for (const p of ['/', '/input', '/kickoff/', '/v1/kickoff', '/_reference/nope', '/inputs/']) {
			const r = await call(s, 'GET', p, { token: null });
			expect([p, r.status, r.json]).toEqual([p, 404, { detail: 'Not Found' }]);
		}
		expect(s.count('other')).toBe(6);
	});
});

describe('faults', () => {
	test('status fault: status, headers, HTML body, times, then normal; only on its route', async () => {
		const s = await start();
		s.injectFault({
			route: 'inputs',
			kind: 'status',
			status: 503,
			times: 2,
			body: '<html>down</html>',
			contentType: 'text/html',
			headers: { 'Retry-After': '2' },
		});
		const kicked = await call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'x' } } });
		expect(kicked.status).toBe(200); // other routes untouched
		for (let i = 0; i < 2; i++) {
			const r = await call(s, 'GET', '/inputs');
			expect([
				r.status,
				r.text,
				r.headers.get('content-type'),
				r.headers.get('retry-after'),
			]).toEqual([503, '<html>down</html>', 'text/html', '2']);
		}
		expect((await call(s, 'GET', '/inputs')).status).toBe(200);
		expect(s.requests.map((r) => r.status)).toEqual([200, 503, 503, 200]);
	});

	test('status fault default body follows errorShape; fault strikes even without auth; faults queue in order', async () => {
		const s = await start();
		s.injectFault({ route: 'any', kind: 'status', status: 500 });
		s.injectFault({
			route: 'any',
			kind: 'status',
			status: 429,
			headers: { 'Retry-After': 'Wed, 21 Oct 2026 07:28:00 GMT' },
		});
		const first = await call(s, 'GET', '/inputs', { token: null });
		expect([first.status, first.json]).toEqual([
			500,
			{ error: 'Internal Server Error', message: expect.stringMatching(/contact support/) },
		]);
		s.configure({ errorShape: 'fastapi' });
		const second = await call(s, 'GET', '/nowhere');
		expect([second.status, second.json, second.headers.get('retry-after')]).toEqual([
			429,
			{ detail: expect.any(String) },
			'Wed, 21 Oct 2026 07:28:00 GMT',
		]);
		expect((await call(s, 'GET', '/inputs')).status).toBe(200);
	});

	test('reset before processing: connection error, no run, status null', async () => {
		const s = await start();
		s.injectFault({ route: 'kickoff', kind: 'reset' });
		// A real RST (ECONNRESET), not a polite close that a client might treat differently.
		await expect(
			call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'x' } } }),
		).rejects.toMatchObject({
			message: 'fetch failed',
			cause: { code: 'ECONNRESET' },
		});
		expect(s.runs).toHaveLength(0);
		expect(s.requests[0]).toMatchObject({ route: 'kickoff', status: null });
		expect(await kickoff(s)).toMatch(UUID);
	});

	test('afterProcessing: the kickoff creates its run, then the answer is lost', async () => {
		const s = await start();
		s.injectFault({ route: 'kickoff', kind: 'reset', afterProcessing: true });
		s.injectFault({ route: 'kickoff', kind: 'status', status: 502, afterProcessing: true });
		await expect(
			call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'a' } } }),
		).rejects.toThrow();
		expect((await call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'b' } } })).status).toBe(
			502,
		);
		expect(s.runs.map((r) => r.inputs.topic)).toEqual(['a', 'b']);
		expect(s.requests.map((r) => [r.status, r.kickoffId])).toEqual([
			[null, s.runs[0].kickoffId],
			[502, s.runs[1].kickoffId],
		]);
		// Without afterProcessing the same 502 creates nothing.
		s.injectFault({ route: 'kickoff', kind: 'status', status: 502 });
		expect((await call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'c' } } })).status).toBe(
			502,
		);
		expect(s.runs).toHaveLength(2);
	});

	test('hang never answers, and close() still ends promptly', async () => {
		const s = await start();
		s.injectFault({ route: 'status', kind: 'hang' });
		const hung = call(s, 'GET', '/status/some-id', { signal: AbortSignal.timeout(300) });
		await expect(hung).rejects.toThrow();
		expect(s.requests[0].status).toBeNull();
		// A second hanging request still open while closing.
		s.injectFault({ route: 'inputs', kind: 'hang' });
		const pending = fetch(`${s.url}/inputs`).then(
			() => 'answered',
			(e: Error) => `failed: ${e.message}`,
		);
		await new Promise((r) => setTimeout(r, 50));
		const tooSlow = new Promise<string>((r) =>
			setTimeout(() => r('close() still waiting after 1s'), 1000).unref(),
		);
		expect(await Promise.race([s.close().then(() => 'closed'), tooSlow])).toBe('closed');
		expect(await pending).toBe('failed: fetch failed');
		await s.close(); // idempotent
	});

	test('delay answers normally after delayMs (before or after processing)', async () => {
		const s = await start();
		s.injectFault({ route: 'inputs', kind: 'delay', delayMs: 200 });
		let started = Date.now();
		const r = await call(s, 'GET', '/inputs');
		expect(Date.now() - started).toBeGreaterThanOrEqual(190);
		expect(r.json).toEqual({ inputs: ['topic', 'audience'] });

		s.injectFault({ route: 'kickoff', kind: 'delay', delayMs: 300, afterProcessing: true });
		started = Date.now();
		const slow = call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'x' } } });
		// Created before the answer: waited for as it happens (a loaded machine may take longer than the delay to get there).
		for (const giveUp = Date.now() + 10_000; s.runs.length === 0 && Date.now() < giveUp; )
			await new Promise((res) => setTimeout(res, 5));
		expect(s.runs).toHaveLength(1);
		expect(s.requests[1].status).toBeNull(); // not answered yet
		expect((await slow).json.kickoff_id).toBe(s.runs[0].kickoffId);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(() => s.injectFault({ route: 'inputs', kind: 'delay' })).toThrow(/delayMs/);
	});

	test('emptyBody and notJson answer 200 with unparseable bodies', async () => {
		const s = await start();
		s.injectFault({ route: 'kickoff', kind: 'emptyBody', afterProcessing: true });
		s.injectFault({ route: 'status', kind: 'notJson' });
		s.injectFault({ route: 'inputs', kind: 'notJson', body: 'OK', contentType: 'text/plain' });
		const empty = await call(s, 'POST', '/kickoff', { body: { inputs: { topic: 'x' } } });
		expect([empty.status, empty.text, empty.headers.get('content-type')]).toEqual([
			200,
			'',
			'application/json',
		]);
		expect(s.runs).toHaveLength(1);
		const html = await call(s, 'GET', `/${s.runs[0].kickoffId}/status`);
		expect([html.status, html.headers.get('content-type'), html.json]).toEqual([
			200,
			'application/json',
			undefined,
		]);
		expect(html.text).toMatch(/<html>/);
		const plain = await call(s, 'GET', '/inputs');
		expect([plain.status, plain.text, plain.headers.get('content-type')]).toEqual([
			200,
			'OK',
			'text/plain',
		]);
	});

	test('a status fault with a spelling strikes only that spelling: the served route fails, the router still answers the other', async () => {
		const s = await start({ durationMs: 0, statusPaths: 'contract' });
		const id = await kickoff(s);
		s.injectFault({ route: 'status', spelling: 'contract', kind: 'status', status: 500, times: 2 });
		const answers = [];
		for (const p of [
			`/status/${id}`,
			`/${id}/status`,
			`/status/${id}`,
			`/${id}/status`,
			`/${id}/status`,
		]) {
			const r = await call(s, 'GET', p);
			answers.push([p.startsWith('/status/') ? 'wild' : 'contract', r.status]);
		}
		expect(answers).toEqual([
			['wild', 404],
			['contract', 500],
			['wild', 404],
			['contract', 500],
			['contract', 200],
		]);
		expect(
			s.requests.filter((r) => r.route === 'status').map((r) => [r.spelling, r.status]),
		).toEqual(answers);
		expect(s.count('status')).toBe(5);
		// Without a spelling, a status fault is a proxy's: it strikes the unserved spelling too.
		s.injectFault({ route: 'status', kind: 'status', status: 502 });
		expect((await call(s, 'GET', `/status/${id}`)).status).toBe(502);
		for (const f of [
			{ route: 'inputs', spelling: 'wild', kind: 'hang' },
			{ route: 'status', spelling: 'both', kind: 'hang' },
		]) {
			expect(() => s.injectFault(f as never)).toThrow(TypeError);
		}
	});

	test('clearFaults, reset and fault validation', async () => {
		const s = await start();
		s.injectFault({ route: 'any', kind: 'status', status: 500, times: 5 });
		s.clearFaults();
		expect((await call(s, 'GET', '/inputs')).status).toBe(200);
		await kickoff(s);
		s.injectFault({ route: 'any', kind: 'status', status: 500 });
		s.reset();
		expect([s.requests.length, s.runs.length]).toEqual([0, 0]);
		expect(await kickoff(s)).toMatch(UUID); // the fault went with reset()
		expect(s.runs[0].index).toBe(0);
		const bad: unknown[] = [
			{ route: 'inputz', kind: 'status' },
			{ route: 'any', kind: 'explode' },
			{ route: 'any', kind: 'status', times: 0 },
			{ route: 'any', kind: 'status', status: 'bad' },
			{ route: 'any', kind: 'status', extra: 1 },
		];
		for (const f of bad) expect(() => s.injectFault(f as never)).toThrow(TypeError);
	});
});

describe('admin routes', () => {
	test('requests, runs, faults, configure and reset over HTTP, unauthenticated and unlogged', async () => {
		const s = await start({ durationMs: 0 });
		const admin = async (method: string, p: string, body?: unknown) =>
			call(s, method, `/_reference/${p}`, { token: null, body });
		const id = await kickoff(s);

		expect((await admin('GET', 'requests')).json).toEqual([
			expect.objectContaining({ route: 'kickoff', kickoffId: id, status: 200 }),
		]);
		expect((await admin('GET', 'runs')).json).toEqual([
			expect.objectContaining({ kickoffId: id, statusRequests: 0 }),
		]);

		expect(
			(await admin('POST', 'faults', { route: 'status', kind: 'status', status: 503 })).json,
		).toEqual({ ok: true, queued: 1 });
		expect((await call(s, 'GET', `/${id}/status`)).status).toBe(503);
		const badFault = await admin('POST', 'faults', [
			{ route: 'status', kind: 'hang' },
			{ route: 'nope', kind: 'hang' },
		]);
		expect(badFault.status).toBe(400);
		expect((await call(s, 'GET', `/${id}/status`)).status).toBe(200); // nothing of the bad batch was queued

		const configured = await admin('POST', 'configure', {
			recordShape: 'wild',
			statusPaths: 'wild',
			tokens: { user: 'usr-rotated' },
		});
		expect(configured.status).toBe(200);
		expect(configured.json.options).toMatchObject({
			recordShape: 'wild',
			statusPaths: 'wild',
			durationMs: 0,
		});
		expect(configured.json.options.tokens).toBeUndefined();
		expect((await call(s, 'GET', `/status/${id}`, { token: 'usr-rotated' })).json.state).toBe(
			'SUCCESS',
		);
		for (const body of [{ plan: 1 }, { now: 1 }, { port: 1 }, { recordShape: 'B' }, { bogus: 1 }]) {
			expect((await admin('POST', 'configure', body)).status).toBe(400);
		}
		expect((await admin('GET', 'configure')).status).toBe(405);

		expect(s.requests.every((r) => !r.path.startsWith('/_reference/'))).toBe(true);
		expect(s.count('other')).toBe(0);
		expect((await admin('POST', 'reset')).json).toEqual({ ok: true });
		expect([s.runs.length, s.requests.length]).toEqual([0, 0]);
		expect((await admin('GET', 'runs')).json).toEqual([]);
	});
});

describe('secrets', () => {
	test('no stored log or admin answer contains a token; leaks elsewhere are redacted and flagged', async () => {
		const s = await start({ durationMs: 0 });
		const { organization, user } = s.tokens;
		const id = await kickoff(s, { inputs: { topic: 'x' } }, user);
		await call(s, 'GET', `/${id}/status`);
		await call(s, 'GET', '/inputs', { token: 'org-tok-not-the-right-one' });
		s.injectFault({ route: 'inputs', kind: 'reset' });
		await call(s, 'GET', '/inputs').catch(() => undefined);
		// A client that leaks the token into the URL and body.
		await call(s, 'GET', `/inputs?access_token=${organization}`);
		const leaky = await call(s, 'POST', '/kickoff', {
			body: { inputs: { topic: `token is ${user}` }, meta: { [organization]: 1 } },
		});
		const leakedRun = s.runs.find((r) => r.kickoffId === leaky.json.kickoff_id);
		const status = await call(s, 'GET', `/${leaky.json.kickoff_id}/status`);

		const stored = JSON.stringify([s.requests, s.runs, s.options.inputs]);
		const adminAnswers =
			(await call(s, 'GET', '/_reference/requests', { token: null })).text +
			(await call(s, 'GET', '/_reference/runs', { token: null })).text;
		for (const text of [stored, adminAnswers, status.text]) {
			expect(text).not.toContain(organization);
			expect(text).not.toContain(user);
			expect(text).not.toContain('org-tok-not-the-right-one');
		}
		expect(stored).toContain('[REDACTED]');
		expect(leakedRun?.inputs.topic).toBe('token is [REDACTED]');
		expect(s.requests.filter((r) => r.tokenLeaked).map((r) => r.route)).toEqual([
			'inputs',
			'kickoff',
		]);
		expect(s.requests.filter((r) => !r.tokenLeaked)).toHaveLength(5);
	});
});

describe('options', () => {
	test('invalid options are rejected loudly', async () => {
		for (const bad of [
			{ recordShape: 'B' },
			{ statusPaths: 'all' },
			{ durationMs: -1 },
			{ inputs: [{}] },
			{ tokens: { organization: 'a b' } },
			{ tokens: { organization: 'same', user: 'same' } },
			{ colour: 'red' },
		]) {
			await expect(startCrewService(bad as never)).rejects.toThrow(TypeError);
		}
		const s = await start();
		expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(s.options.port).toBe(Number(new URL(s.url).port));
		expect(() => s.configure({ port: 1 })).toThrow(/port/);
		expect(Object.isFrozen(s.options)).toBe(true);
	});
});

describe('cli', () => {
	test('--json prints one line, serves with env tokens, exits 0 on SIGTERM', async () => {
		const child = spawn(
			process.execPath,
			[
				path.join(__dirname, '..', 'cli.js'),
				'--port',
				'0',
				'--json',
				'--shape',
				'wild',
				'--duration',
				'0',
				'--webhook-targets',
				'any',
			],
			{
				env: { ...process.env, CREW_ORG_TOKEN: 'org-from-env', CREW_USER_TOKEN: 'usr-from-env' },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let stdout = '';
		const exited = new Promise<number | null>((resolve) =>
			child.on('exit', (code) => resolve(code)),
		);
		const firstLine = await new Promise<string>((resolve, reject) => {
			child.stdout.on('data', (chunk) => {
				stdout += chunk;
				if (stdout.includes('\n')) resolve(stdout.split('\n')[0]);
			});
			child.on('exit', () => reject(new Error('cli exited before printing')));
		});
		try {
			const info = JSON.parse(firstLine);
			expect(info).toEqual({
				url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
				tokens: { organization: 'org-from-env', user: 'usr-from-env' },
			});
			const headers = { authorization: 'Bearer usr-from-env', 'content-type': 'application/json' };
			const k: any = await (
				await fetch(`${info.url}/kickoff`, {
					method: 'POST',
					headers,
					body: JSON.stringify({ inputs: { topic: 'cli' } }),
				})
			).json();
			const st: any = await (await fetch(`${info.url}/status/${k.kickoff_id}`, { headers })).json();
			expect(st.state).toBe('SUCCESS');
			// Human in the loop, steered from outside through meta.reference.
			const paused: any = await (
				await fetch(`${info.url}/kickoff`, {
					method: 'POST',
					headers,
					body: JSON.stringify({
						inputs: { topic: 'cli' },
						meta: { reference: { humanInput: { taskId: 'research_task' } } },
					}),
				})
			).json();
			expect(
				await (await fetch(`${info.url}/status/${paused.kickoff_id}`, { headers })).json(),
			).toEqual({
				state: 'PENDING_HUMAN_INPUT',
				task_id: 'research_task',
				result: 'Research notes for topic=cli',
			});
			const resumed = await fetch(`${info.url}/resume`, {
				method: 'POST',
				headers,
				body: JSON.stringify({
					execution_id: paused.kickoff_id,
					task_id: 'research_task',
					human_feedback: 'fine',
					is_approve: true,
				}),
			});
			expect(await resumed.json()).toEqual({
				status: 'resumed',
				message: 'Execution resumed successfully',
			});
			expect(
				await (await fetch(`${info.url}/status/${paused.kickoff_id}`, { headers })).json(),
			).toMatchObject({ state: 'SUCCESS', result: 'Crew finished: topic=cli (feedback: fine)' });
			const options: any = await (
				await fetch(`${info.url}/_reference/configure`, { method: 'POST', body: '{}' })
			).json();
			expect(options.options.webhookTargets).toBe('any');
			expect(await (await fetch(`${info.url}/_reference/webhooks`)).json()).toEqual([]);
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
		expect(stdout.trim().split('\n')).toHaveLength(1);
	});
});
