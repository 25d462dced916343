import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';

const crew = useCrewService();

const jsonKickoff = (inputsJson: unknown, options: object = {}) => ({
	operation: 'kickoff',
	inputsMode: 'json',
	inputsJson,
	options,
});

describe('Kickoff', () => {
	it('sends the inputs, meta and webhook URLs as the service expects, and returns the kickoff_id', async () => {
		const { output } = await runCrewNode({
			parameters: jsonKickoff('{"topic": "AI agents", "pages": 3}', {
				meta: '{"run": "nightly"}',
				taskWebhookUrl: 'https://hooks.example/task',
				crewWebhookUrl: 'https://hooks.example/crew',
			}),
			credentials: crew.credentials,
		});
		const [run] = crew.service.runs;
		expect(output).toEqual([{ json: { kickoff_id: run.kickoffId }, pairedItem: { item: 0 } }]);
		expect(crew.service.requests[0].body).toEqual({
			inputs: { topic: 'AI agents', pages: '3' },
			meta: { run: 'nightly' },
			taskWebhookUrl: 'https://hooks.example/task',
			crewWebhookUrl: 'https://hooks.example/crew',
		});
	});

	it('takes inputs as an object, as AI agents and expressions give them', async () => {
		await runCrewNode({
			parameters: jsonKickoff({ topic: 'AI', deep: { a: 1 }, draft: false }),
			credentials: crew.credentials,
		});
		expect(crew.service.runs[0].inputs).toEqual({ topic: 'AI', deep: '{"a":1}', draft: 'false' });
	});

	it("kicks off once per item, with each item's own inputs, in order", async () => {
		const { output } = await runCrewNode({
			parameters: (itemIndex) => jsonKickoff(`{"topic": "topic ${itemIndex}"}`),
			credentials: crew.credentials,
			items: items(3),
		});
		expect(crew.service.runs.map((run) => run.inputs.topic)).toEqual([
			'topic 0',
			'topic 1',
			'topic 2',
		]);
		expect(output.map((item) => item.json.kickoff_id)).toEqual(
			crew.service.runs.map((run) => run.kickoffId),
		);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it.each([
		['invalid JSON', '{"topic": }', /not valid JSON/],
		['an array', '["AI"]', /not an array/],
		['a scalar', '"AI"', /not a string/],
	])('rejects inputs that are %s, without a request', async (_, inputsJson, message) => {
		const error = await runCrewNodeExpectingError({
			parameters: jsonKickoff(inputsJson),
			credentials: crew.credentials,
		});
		expect(error.message).toMatch(message);
		expect(error.context).toMatchObject({ itemIndex: 0 });
		expect(crew.service.requests).toHaveLength(0);
	});

	it('names the missing inputs of a 422, in both error shapes', async () => {
		const documented = await runCrewNodeExpectingError({
			parameters: jsonKickoff('{"audience": "devs"}'),
			credentials: crew.credentials,
		});
		expect(documented.httpCode).toBe('422');
		expect(documented.message).toContain('missing inputs topic');
		crew.service.configure({ errorShape: 'fastapi' });
		const fastApi = await runCrewNodeExpectingError({
			parameters: jsonKickoff('{"audience": "devs"}'),
			credentials: crew.credentials,
		});
		expect(fastApi.message).toContain('missing inputs topic');
	});

	it("shows the service's message for a 400", async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 400,
			body: '{"detail": "inputs must be text"}',
		});
		const error = await runCrewNodeExpectingError({
			parameters: jsonKickoff('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(error.httpCode).toBe('400');
		expect(error.message).toContain('inputs must be text');
	});

	it.each([
		['a 500', { kind: 'status', status: 500 } as const, /may or may not have started/],
		[
			'a 502 page from a proxy',
			{
				kind: 'status',
				status: 502,
				contentType: 'text/html',
				body: '<title>502 Bad Gateway</title>',
			} as const,
			/may or may not have started/,
		],
		[
			'a dropped connection after the kickoff arrived',
			{ kind: 'reset', afterProcessing: true } as const,
			/not sent again/,
		],
	])('never sends a kickoff twice after %s', async (_, fault, description) => {
		crew.service.injectFault({ route: 'kickoff', ...fault });
		const error = await runCrewNodeExpectingError({
			parameters: jsonKickoff('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(error.description).toMatch(description);
		expect(crew.service.count('kickoff', 'POST')).toBe(1);
	});

	it('sends the kickoff again after a 429, which the service did not process', async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 429,
			headers: { 'Retry-After': '0' },
		});
		const { output } = await runCrewNode({
			parameters: jsonKickoff('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(crew.service.count('kickoff', 'POST')).toBe(2);
		expect(crew.service.runs).toHaveLength(1);
		expect(output[0].json.kickoff_id).toBe(crew.service.runs[0].kickoffId);
	});

	it('stops at the first failing item without Continue On Fail', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: (itemIndex) => jsonKickoff(itemIndex === 1 ? 'not json' : '{"topic": "AI"}'),
			credentials: crew.credentials,
			items: items(3),
		});
		expect(error.context).toMatchObject({ itemIndex: 1 });
		expect(crew.service.runs).toHaveLength(1);
	});

	it('gives the failing item an error item and starts the others with Continue On Fail', async () => {
		const { output } = await runCrewNode({
			parameters: (itemIndex) => jsonKickoff(itemIndex === 1 ? 'not json' : '{"topic": "AI"}'),
			credentials: crew.credentials,
			items: items(3),
			continueOnFail: true,
		});
		expect(output.map((item) => Object.keys(item.json))).toEqual([
			['kickoff_id'],
			['error', 'description'],
			['kickoff_id'],
		]);
		expect(output[1].json.error).toMatch(/not valid JSON/);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(crew.service.runs).toHaveLength(2);
	});

	it('sends a Human Input Webhook URL with the human-input secret the credential holds when Auth is unset, and without a secret needs none', async () => {
		const options = { humanInputWebhookUrl: 'https://hooks.example/human' };
		await runCrewNode({
			parameters: jsonKickoff('{"topic": "AI"}', options),
			credentials: { ...crew.credentials, basicUser: 'crewai', basicPassword: 'pw' },
		});
		await runCrewNode({
			parameters: jsonKickoff('{"topic": "AI"}', options),
			credentials: { ...crew.credentials, basicUser: 'crewai' },
		});
		await runCrewNode({
			parameters: jsonKickoff('{"topic": "AI"}', options),
			credentials: crew.credentials,
		});
		// The documented object only with a full secret; the top-level URL always.
		expect(crew.service.runs.map((run) => run.callbacks.humanInput)).toEqual([
			{ url: 'https://hooks.example/human', auth: 'basic' },
			null,
			null,
		]);
		expect(
			crew.service.requests.map(
				(request) => (request.body as { humanInputWebhookUrl?: string }).humanInputWebhookUrl,
			),
		).toEqual(Array(3).fill('https://hooks.example/human'));
	});
});

describe('Kickoff with mapped inputs', () => {
	const schema = [
		{
			id: 'topic',
			displayName: 'topic',
			required: true,
			defaultMatch: false,
			display: true,
			type: 'string',
		},
		{
			id: 'audience',
			displayName: 'audience',
			required: false,
			defaultMatch: false,
			display: true,
			type: 'string',
		},
		{
			id: 'pages',
			displayName: 'pages',
			required: false,
			defaultMatch: false,
			display: true,
			type: 'number',
		},
	];
	const mapped = (value: object) => ({
		operation: 'kickoff',
		inputsMode: 'map',
		inputs: { mappingMode: 'defineBelow', value, schema },
	});

	it("sends the values each item's expressions gave, converted to text", async () => {
		await runCrewNode({
			parameters: (itemIndex) =>
				mapped({ topic: `topic ${itemIndex}`, audience: null, pages: itemIndex + 1 }),
			credentials: crew.credentials,
			items: items(2),
		});
		expect(crew.service.requests.map((request) => request.body)).toEqual([
			{ inputs: { topic: 'topic 0', pages: '1' } },
			{ inputs: { topic: 'topic 1', pages: '2' } },
		]);
	});

	it('reports empty required inputs by name, without a request', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: mapped({ topic: '', pages: 2 }),
			credentials: crew.credentials,
		});
		expect(error.message).toBe('Required inputs are empty: topic');
		expect(crew.service.requests).toHaveLength(0);
	});
});
