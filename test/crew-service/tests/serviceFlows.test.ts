import type { CrewService } from '..';
import { call, kickoff } from './client';
import { closedAfterEach, fakeClock } from './crewServiceTesting';

// Persisted flows in the reference service (docs/development/service-api.md#post-kickoff, restoreFromStateId):
// restoreFromStateId forks, inputs.id (deprecated) resumes, an unknown id starts fresh.

const UNKNOWN_ID = '123e4567-e89b-42d3-a456-426614174000';
const FLOW = { reference: { flow: true } };

const start = closedAfterEach();

/** A kickoff's answer, status and body only, accepted or not. */
async function post(service: CrewService, body: unknown): Promise<{ status: number; json: any }> {
	const { status, json } = await call(service, 'POST', '/kickoff', { body });
	return { status, json };
}

const status = async (service: CrewService, kickoffId: string) =>
	(await call(service, 'GET', `/status/${kickoffId}`)).json;

describe('reference service: persisted flows', () => {
	let service: CrewService;
	let clock: ReturnType<typeof fakeClock>;
	beforeEach(async () => {
		clock = fakeClock();
		service = await start({ durationMs: 1_000, now: clock.now, recordShape: 'wild' });
	});

	it("gives a finished flow's final state in result and result_json (wild shape), its id the kickoff_id", async () => {
		const id = await kickoff(service, { inputs: { topic: 'AI' }, meta: FLOW });
		expect(await status(service, id)).toEqual({ state: 'PENDING' });
		clock.advance(1_000);
		const state = { topic: 'AI', run_count: 1, kickoff_ids: [id], id };
		expect(await status(service, id)).toEqual({
			state: 'SUCCESS',
			result: state,
			result_json: state,
		});
		expect(service.runs[0].flow).toEqual({
			stateId: id,
			mode: 'fresh',
			requestedFrom: null,
			restoredFrom: null,
			state,
		});
		expect(service.flowStates).toEqual({ [id]: state });
	});

	it('puts the state beside the output in the contract shape', async () => {
		service.configure({ recordShape: 'contract' });
		const id = await kickoff(service, { inputs: { topic: 'AI' }, meta: FLOW });
		clock.advance(1_000);
		expect(await status(service, id)).toEqual({
			status: 'completed',
			result: {
				output: 'Crew finished: topic=AI',
				state: { topic: 'AI', run_count: 1, kickoff_ids: [id], id },
			},
			execution_time: 1,
		});
	});

	it('forks from restoreFromStateId: the state restored, the inputs on top, a fresh id; the source kept', async () => {
		const first = await kickoff(service, { inputs: { topic: 'AI', audience: 'devs' }, meta: FLOW });
		clock.advance(1_000);
		const second = await kickoff(service, {
			inputs: { topic: 'Robots' },
			restoreFromStateId: first,
			meta: FLOW,
		});
		clock.advance(1_000);
		expect((await status(service, second)).result_json).toEqual({
			topic: 'Robots',
			audience: 'devs',
			run_count: 2,
			kickoff_ids: [first, second],
			id: second,
		});
		expect(service.runs[1].flow).toMatchObject({
			mode: 'fork',
			requestedFrom: first,
			restoredFrom: first,
		});
		// The source run and its saved state are as they were.
		expect((await status(service, first)).result_json).toEqual({
			topic: 'AI',
			audience: 'devs',
			run_count: 1,
			kickoff_ids: [first],
			id: first,
		});
		expect(Object.keys(service.flowStates)).toEqual([first, second]);
	});

	it('starts a fresh state for an id it does not know, without an error', async () => {
		const id = await kickoff(service, {
			inputs: { topic: 'AI' },
			restoreFromStateId: UNKNOWN_ID,
			meta: FLOW,
		});
		clock.advance(1_000);
		expect((await status(service, id)).result_json).toEqual({
			topic: 'AI',
			run_count: 1,
			kickoff_ids: [id],
			id,
		});
		expect(service.runs[0].flow).toMatchObject({
			mode: 'fork',
			requestedFrom: UNKNOWN_ID,
			restoredFrom: null,
		});
	});

	it('resumes under the same id for the deprecated inputs.id, overwriting the saved state', async () => {
		const first = await kickoff(service, { inputs: { topic: 'AI' }, meta: FLOW });
		clock.advance(1_000);
		const second = await kickoff(service, { inputs: { id: first, topic: 'Robots' }, meta: FLOW });
		clock.advance(1_000);
		expect(second).not.toBe(first);
		const resumed = { topic: 'Robots', run_count: 2, kickoff_ids: [first, second], id: first };
		expect((await status(service, second)).result_json).toEqual(resumed);
		expect(service.runs[1].flow).toMatchObject({
			mode: 'resume',
			stateId: first,
			restoredFrom: first,
		});
		expect(service.flowStates).toEqual({ [first]: resumed });
	});

	it("answers 422 for an inputs.id that is not a UUID, in the vendor's words, on a crew as on a flow", async () => {
		for (const meta of [undefined, FLOW]) {
			expect(await post(service, { inputs: { id: 'test 1', topic: 'AI' }, meta })).toEqual({
				status: 422,
				json: {
					error: 'Validation Error',
					message: "'inputs.id' must be a valid UUID when provided; got 'test 1'.",
				},
			});
		}
		service.configure({ errorShape: 'fastapi' });
		expect((await post(service, { inputs: { id: 'x' } })).json).toEqual({
			detail: "'inputs.id' must be a valid UUID when provided; got 'x'.",
		});
		expect(service.runs).toEqual([]);
	});

	it('refuses a restoreFromStateId that is not a UUID string (422) or not a string (400); null is absent', async () => {
		expect(await post(service, { inputs: {}, restoreFromStateId: 'last run', meta: FLOW })).toEqual(
			{
				status: 422,
				json: {
					error: 'Validation Error',
					message: "'restoreFromStateId' must be a valid UUID when provided; got 'last run'.",
				},
			},
		);
		expect((await post(service, { inputs: {}, restoreFromStateId: 7 })).status).toBe(400);
		expect(
			(await post(service, { inputs: { topic: 'AI' }, restoreFromStateId: null, meta: FLOW }))
				.status,
		).toBe(200);
		expect(service.runs).toHaveLength(1);
	});

	it("ignores both for a crew: its record and plan are a crew's", async () => {
		const id = await kickoff(service, {
			inputs: { topic: 'AI', id: UNKNOWN_ID },
			restoreFromStateId: UNKNOWN_ID,
		});
		clock.advance(1_000);
		expect(await status(service, id)).toMatchObject({
			state: 'SUCCESS',
			result: `Crew finished: topic=AI; id=${UNKNOWN_ID}`,
		});
		expect(service.runs[0].flow).toBeNull();
		expect(service.runs[0].plan).not.toHaveProperty('flow');
		expect(service.flowStates).toEqual({});
	});

	it('takes flow from options.plan too, checks its type, and forgets saved states on reset', async () => {
		service.configure({ plan: () => ({ flow: true }) });
		const id = await kickoff(service, { inputs: { topic: 'AI' } });
		expect(service.runs[0].plan.flow).toBe(true);
		expect(
			(await post(service, { inputs: {}, meta: { reference: { flow: 'yes' } } })).json.message,
		).toMatch(/meta\.reference\.flow must be a boolean/);
		expect(Object.keys(service.flowStates)).toEqual([id]);
		service.reset();
		expect(service.flowStates).toEqual({});
	});

	it('serves the saved states over GET /_reference/flow-states for a service in another process', async () => {
		const id = await kickoff(service, { inputs: { topic: 'AI' }, meta: FLOW });
		const res = await fetch(`${service.url}/_reference/flow-states`);
		expect(await res.json()).toEqual({
			[id]: { topic: 'AI', run_count: 1, kickoff_ids: [id], id },
		});
	});
});

// A deployed flow (option deployment: 'flow'), as the "Live" facts of docs/development/service-api.md saw one.
describe('reference service: a deployed flow', () => {
	let service: CrewService;
	let clock: ReturnType<typeof fakeClock>;
	beforeEach(async () => {
		clock = fakeClock();
		service = await start({
			durationMs: 1_000,
			now: clock.now,
			deployment: 'flow',
			dialect: 'live',
		});
	});

	async function inputs(): Promise<unknown> {
		const res = await fetch(`${service.url}/inputs`, {
			headers: { authorization: `Bearer ${service.tokens.organization}` },
		});
		return await res.json();
	}

	it('lists its state fields, id among them, names only; with types, defaults and none required in the objects shape', async () => {
		expect(await inputs()).toEqual({ inputs: ['topic', 'count', 'id', 'history'] });
		service.configure({ inputsShape: 'objects' });
		expect(await inputs()).toEqual({
			inputs: [
				{ name: 'topic', type: 'str', required: false, default: 'AI agents' },
				{ name: 'count', type: 'int', required: false, default: 1 },
				{ name: 'id', type: 'str', required: false, default: null },
				{ name: 'history', type: 'list', required: false, default: [] },
			],
		});
	});

	it('runs {"inputs": {}} on the defaults; its live record gives the final method\'s text and no state; state id = kickoff id', async () => {
		const id = await kickoff(service, { inputs: {} });
		expect(await status(service, id)).toEqual({
			state: 'PENDING',
			status: null,
			result: null,
			result_json: null,
			progress: null,
		});
		clock.advance(500);
		expect(await status(service, id)).toEqual({
			state: 'RUNNING',
			status: 'Task is Running',
			result: null,
			result_json: null,
			progress: {
				unit: 'step',
				completed: 1,
				total: null,
				remaining: null,
				current: 'analyse_findings',
			},
		});
		clock.advance(500);
		expect(await status(service, id)).toEqual({
			state: 'SUCCESS',
			status: null,
			result: 'Flow finished: {"topic":"AI agents","count":1,"history":[],"run_count":1}',
			result_json: null,
		});
		expect(service.flowStates).toEqual({
			[id]: { topic: 'AI agents', count: 1, history: [], run_count: 1, kickoff_ids: [id], id },
		});
	});

	it('takes typed values and a bare body without the inputs wrapper (which runs on the defaults)', async () => {
		const typed = await kickoff(service, { inputs: { topic: 't', count: 2, history: ['one'] } });
		const bare = await kickoff(service, { topic: 'ignored' });
		clock.advance(1_000);
		expect(service.flowStates[typed]).toMatchObject({ topic: 't', count: 2, history: ['one'] });
		expect(service.flowStates[bare]).toMatchObject({ topic: 'AI agents', count: 1, history: [] });
		expect(service.runs[1].inputs).toEqual({});
	});

	it('fails the run for a value of the wrong type, a list given as text; takes an int given as digits, as pydantic does', async () => {
		const wrong = await kickoff(service, { inputs: { history: '["one"]' } });
		const lax = await kickoff(service, { inputs: { count: '3' } });
		clock.advance(1_000);
		expect(await status(service, wrong)).toEqual({
			state: 'FAILED',
			status:
				'1 validation error for FlowState\nhistory\n  Input should be a valid list [type=list_type, input_value="[\\"one\\"]", input_type=str]',
			result: null,
			result_json: null,
		});
		expect((await status(service, lax)).state).toBe('SUCCESS');
	});

	it("restores from a previous run's kickoff id; an unknown id runs on the defaults with no error", async () => {
		const first = await kickoff(service, { inputs: { topic: 't', history: ['one'] } });
		clock.advance(1_000);
		const second = await kickoff(service, { inputs: { count: 5 }, restoreFromStateId: first });
		const unknown = await kickoff(service, { inputs: {}, restoreFromStateId: UNKNOWN_ID });
		clock.advance(1_000);
		expect(service.flowStates[second]).toEqual({
			topic: 't',
			count: 5,
			history: ['one'],
			run_count: 2,
			kickoff_ids: [first, second],
			id: second,
		});
		expect((await status(service, second)).result).toBe(
			'Flow finished: {"topic":"t","count":5,"history":["one"],"run_count":2}',
		);
		expect(service.flowStates[unknown]).toMatchObject({ topic: 'AI agents', run_count: 1 });
	});

	it("answers a non-UUID inputs.id with the vendor's 422, a number quoted as text", async () => {
		expect(await post(service, { inputs: { id: 'test 1' } })).toEqual({
			status: 422,
			json: {
				error: 'Validation Error',
				message: "'inputs.id' must be a valid UUID when provided; got 'test 1'.",
			},
		});
		expect((await post(service, { inputs: { id: 7 } })).json.message).toBe(
			"'inputs.id' must be a valid UUID when provided; got '7'.",
		);
	});

	it("keeps the documented dialect's flow record (state in result) for a deployed flow started there", async () => {
		service.configure({ dialect: 'documented', recordShape: 'wild' });
		const id = await kickoff(service, { inputs: { count: 2 } });
		clock.advance(1_000);
		const state = {
			topic: 'AI agents',
			count: 2,
			history: [],
			run_count: 1,
			kickoff_ids: [id],
			id,
		};
		expect(await status(service, id)).toEqual({
			state: 'SUCCESS',
			result: state,
			result_json: state,
		});
	});

	it('streams flow_started, each method, and flow_finished with the state; a failing run ends in method_execution_failed and flow_failed', async () => {
		const real = await start({
			durationMs: 60,
			deployment: 'flow',
			dialect: 'live',
			eventStream: { shuffle: false },
		});
		const webhooks = {
			url: `${real.url}/_sink`,
			realtime: true,
			authentication: { strategy: 'bearer', token: 'stream-token' },
		};
		const ok = await kickoff(real, { inputs: { topic: 't' }, webhooks });
		const failing = await kickoff(real, { inputs: { history: 'x' }, webhooks });
		const typesOf = (id: string) =>
			real.webhookDeliveries
				.filter((d) => d.kickoffId === id)
				.flatMap((d) =>
					(d.payload as { events: Array<{ type: string }> }).events.map((e) => e.type),
				);
		await real.waitForWebhooks(
			() => typesOf(ok).includes('flow_finished') && typesOf(failing).includes('flow_failed'),
			3_000,
		);
		expect(typesOf(ok)).toEqual([
			'flow_started',
			'method_execution_started',
			'method_execution_finished',
			'method_execution_started',
			'method_execution_finished',
			'method_execution_started',
			'method_execution_finished',
			'flow_finished',
		]);
		const finished = real.webhookDeliveries
			.flatMap(
				(d) =>
					(d.payload as { events: Array<{ type: string; data: any; execution_id: string }> })
						.events,
			)
			.find((e) => e.type === 'flow_finished');
		expect(finished?.execution_id).toBe(ok);
		expect(finished?.data.state).toMatchObject({ topic: 't', id: ok });
		expect(typesOf(failing).slice(-2)).toEqual(['method_execution_failed', 'flow_failed']);
	});
});
