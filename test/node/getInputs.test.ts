import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';

const crew = useCrewService();
const parameters = { operation: 'getInputs' };

describe('Get Inputs', () => {
	it('lists the names from the documented answer, one output per item, paired', async () => {
		const { output } = await runCrewNode({
			parameters,
			credentials: crew.credentials,
			items: items(2),
		});
		expect(output).toEqual(
			[0, 1].map((item) => ({
				json: {
					inputs: ['topic', 'audience'],
					input_details: [
						{ name: 'topic', type: 'string', required: true },
						{ name: 'audience', type: 'string', required: true },
					],
				},
				pairedItem: { item },
			})),
		);
	});

	it('keeps type and required from the answer with objects', async () => {
		crew.service.configure({
			inputsShape: 'objects',
			inputs: [
				{ name: 'topic', required: true },
				{ name: 'age', type: 'number', required: false },
			],
		});
		const { output } = await runCrewNode({ parameters, credentials: crew.userCredentials });
		expect(output[0].json.input_details).toEqual([
			{ name: 'topic', type: 'string', required: true },
			{ name: 'age', type: 'number', required: false },
		]);
	});

	it('fails with the code and what to do for a wrong token', async () => {
		const error = await runCrewNodeExpectingError({
			parameters,
			credentials: { ...crew.credentials, token: 'not-the-token' },
		});
		expect(error.httpCode).toBe('401');
		expect(error.message).toMatch(/answered 401 while reading the crew's inputs/);
		expect(error.description).toMatch(/token/);
	});

	it('turns the error into an output item with Continue On Fail', async () => {
		const { output } = await runCrewNode({
			parameters,
			credentials: { ...crew.credentials, token: 'not-the-token' },
			continueOnFail: true,
			items: items(2),
		});
		expect(output).toHaveLength(2);
		expect(output[1]).toMatchObject({
			json: { error: expect.stringContaining('401') },
			pairedItem: { item: 1 },
		});
	});

	it('tells a page that is not a crew from a crew', async () => {
		crew.service.injectFault({
			route: 'inputs',
			kind: 'status',
			status: 200,
			contentType: 'text/html',
			body: '<html><title>Welcome</title></html>',
		});
		const error = await runCrewNodeExpectingError({ parameters, credentials: crew.credentials });
		expect(error.message).toMatch(/not with a crew's list of inputs/);
		expect(error.description).toMatch(/Base URL/);
	});

	it('rides out a failing read by asking again', async () => {
		crew.service.injectFault({ route: 'inputs', kind: 'status', status: 503 });
		const { output } = await runCrewNode({ parameters, credentials: crew.credentials });
		expect(output[0].json.inputs).toEqual(['topic', 'audience']);
		expect(crew.service.count('inputs')).toBe(2);
	});

	it.each([
		['empty', '', /no Base URL/],
		['without a scheme', 'crew.example.com', /must start with https:\/\//],
		[
			'plain http to a host not on your own network',
			'http://crew.example.com',
			/http:\/\/ is taken only for a service on your own network/,
		],
	])('refuses a base URL that is %s, without a request', async (_, baseUrl, message) => {
		const error = await runCrewNodeExpectingError({
			parameters,
			credentials: { baseUrl, token: 't0ken-x' },
		});
		expect(error.message).toMatch(message);
		expect(crew.service.requests).toHaveLength(0);
	});

	it('says it could not connect when nothing listens at the base URL', async () => {
		const error = await runCrewNodeExpectingError({
			parameters,
			credentials: { baseUrl: 'http://127.0.0.1:1', token: 't0ken-x' },
		});
		expect(error.message).toMatch(
			/Could not connect to the crew service at http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/,
		);
	});
});
