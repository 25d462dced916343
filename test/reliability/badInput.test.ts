/**
 * Reliability matrix, bad input and odd answers: each gives a clear
 * item-level error or a correct output, never a crash or a hang.
 */
import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';

const crew = useCrewService();

const kickoff = (inputsJson: unknown) => ({ operation: 'kickoff', inputsMode: 'json', inputsJson });
const getStatus = (kickoffId: string) => ({ operation: 'getStatus', kickoffId });

describe('base URL', () => {
	it("with a path that is not the crew's: the error points at the Base URL", async () => {
		const error = await runCrewNodeExpectingError({
			parameters: { operation: 'getInputs' },
			credentials: { ...crew.credentials, baseUrl: `${crew.service.url}/api/v1` },
		});
		expect(error.httpCode).toBe('404');
		expect(error.description).toMatch(/Base URL/);
	});

	it('pointing at a web page: a kickoff without kickoff_id says so', async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'notJson',
			status: 200,
			contentType: 'text/html',
		});
		const error = await runCrewNodeExpectingError({
			parameters: kickoff('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(error.message).toMatch(/sent no kickoff_id/);
		expect(error.description).toMatch(/Base URL/);
	});
});

describe('inputs', () => {
	it('a 1 MB inputs object: the service refuses it and the error says why', async () => {
		const huge = JSON.stringify({ topic: 'x'.repeat(1_100_000) });
		const error = await runCrewNodeExpectingError({
			parameters: kickoff(huge),
			credentials: crew.credentials,
		});
		expect(error.httpCode).toBe('413');
		expect(crew.service.count('kickoff', 'POST')).toBe(1);
	});

	it('unusual input names reach the service as they are', async () => {
		const names = {
			'travel dates': 'May',
			'user.name': 'Ada',
			'say "hi"': 'yes',
			'ünïcødé 名前': 'ok',
			topic: 'AI',
		};
		await runCrewNode({ parameters: kickoff(names), credentials: crew.credentials });
		expect(crew.service.runs[0].inputs).toEqual(names);
	});
});

describe('status records', () => {
	const recordOnce = (body: string) =>
		crew.service.injectFault({ route: 'status', kind: 'status', status: 200, body });

	it.each([
		[
			'unknown fields and an unknown state',
			'{"state": "THINKING_HARD", "mood": "good"}',
			{ state: 'running', result: null },
		],
		[
			'null everywhere',
			'{"state": null, "status": null, "result": null, "result_json": null, "last_executed_task": null}',
			{ state: 'running' },
		],
		[
			'result as an object without output',
			'{"status": "completed", "result": {"tasks": []}}',
			{ state: 'completed', result: null },
		],
		[
			'result_json that is not an object',
			'{"state": "SUCCESS", "result": "r", "result_json": [1, 2]}',
			{ state: 'completed', result: 'r', result_json: null },
		],
	])('%s', async (_, body, expected) => {
		recordOnce(body);
		const { output } = await runCrewNode({
			parameters: getStatus('any-id'),
			credentials: crew.credentials,
		});
		expect(output[0].json).toMatchObject(expected);
		expect(output[0].json.response).toEqual(JSON.parse(body));
	});

	it('a 10 MB result is read whole', async () => {
		crew.service.configure({ durationMs: 0, plan: () => ({ result: 'r'.repeat(10 * 1_048_576) }) });
		const { output: started } = await runCrewNode({
			parameters: kickoff('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		const { output } = await runCrewNode({
			parameters: getStatus(started[0].json.kickoff_id as string),
			credentials: crew.credentials,
		});
		expect((output[0].json.result as string).length).toBe(10 * 1_048_576);
	});
});
