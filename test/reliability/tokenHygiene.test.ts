/**
 * Reliability matrix, token hygiene. Every node run in the suite already
 * fails if its output, error or logs hold the token (see runCrewNode); these
 * cases aim at the places a token would slip through: the HTTP client's own
 * error, which n8n wraps with the request options and so the Authorization
 * header, and a proxy page that echoes the header back.
 */
import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewNodeExpectingError, serializeError } from '../helpers/crewWorkflow';

const crew = useCrewService();
const token = 'tok-NEVER-SHOW-ME-91c3f7a0b2';

describe('the token never appears', () => {
	it('in a network error, although n8n\'s own error carries the request headers', async () => {
		const error = await runCrewNodeExpectingError({ parameters: { operation: 'getInputs' }, credentials: { baseUrl: 'http://127.0.0.1:1', token } });
		expect(serializeError(error)).not.toContain(token);
		expect(error.message).toMatch(/Could not connect/);
	});

	it('in an error built from a page that echoes the Authorization header', async () => {
		crew.service.injectFault({ route: 'inputs', kind: 'status', status: 502, contentType: 'text/html', body: `<title>Bad gateway: Authorization: Bearer ${crew.credentials.token}</title>`, times: 3 });
		const error = await runCrewNodeExpectingError({ parameters: { operation: 'getInputs' }, credentials: crew.credentials });
		expect(serializeError(error)).not.toContain(crew.credentials.token);
		expect(error.message).toContain('[token hidden]');
	});

	it('in Continue On Fail output, for a wrong token', async () => {
		const { output } = await runCrewNode({ parameters: { operation: 'getInputs' }, credentials: { ...crew.credentials, token }, continueOnFail: true });
		expect(JSON.stringify(output)).not.toContain(token);
		expect(output[0].json.error).toMatch(/401/);
	});

	it('in what the service logged', async () => {
		await runCrewNode({ parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' }, credentials: crew.credentials });
		expect(JSON.stringify(crew.service.requests)).not.toContain(crew.credentials.token);
		expect(crew.service.requests.every((request) => request.tokenLeaked === undefined)).toBe(true);
	});
});
