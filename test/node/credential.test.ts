import { CrewApi } from '../../credentials/CrewApi.credentials';
import { useCrewService } from '../helpers/crewService';
import { resolveCredentialTemplate, sendRequest } from '../helpers/executeFunctions';
import type { Credentials } from '../helpers/executeFunctions';

const crew = useCrewService();

/** What n8n's "Test" button does: the credential's test request, authenticated by the credential. */
async function testCredential(credentials: Credentials) {
	const { request } = new CrewApi().test;
	const baseUrl = resolveCredentialTemplate(String(request.baseURL), credentials);
	return (await sendRequest({ method: 'GET', url: `${baseUrl}${request.url}`, returnFullResponse: true, ignoreHttpStatusErrors: true }, credentials)) as {
		statusCode: number;
	};
}

describe('CrewApi credential', () => {
	it('passes its test with the organization token and with a user token', async () => {
		expect((await testCredential(crew.credentials)).statusCode).toBe(200);
		expect((await testCredential(crew.userCredentials)).statusCode).toBe(200);
		expect(crew.service.requests.map((request) => request.tokenType)).toEqual(['organization', 'user']);
	});

	it('tests GET /inputs, and tells a wrong token by a 401', async () => {
		expect((await testCredential({ ...crew.credentials, token: 'wrong-token' })).statusCode).toBe(401);
		expect(crew.service.requests[0]).toMatchObject({ method: 'GET', route: 'inputs' });
	});

	it('tells a wrong address by a connection error', async () => {
		await expect(testCredential({ baseUrl: 'http://127.0.0.1:1', token: 'x' })).rejects.toThrow();
	});

	it('survives a trailing slash and whitespace around the base URL and the token', async () => {
		const sloppy = { baseUrl: `  ${crew.service.url}//  `, token: ` ${crew.credentials.token}\n` };
		expect((await testCredential(sloppy)).statusCode).toBe(200);
	});

	it('authenticates by a bearer header built by n8n, not by the node', () => {
		expect(new CrewApi().authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '=Bearer {{$credentials.token.trim()}}' } },
		});
	});
});
