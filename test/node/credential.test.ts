import { CrewApi } from '../../credentials/CrewApi.credentials';
import { useCrewService } from '../helpers/crewService';
import { testCredential } from '../helpers/crewWorkflow';

const crew = useCrewService();

describe('CrewApi credential', () => {
	it('passes its test with the organization token and with a user token', async () => {
		expect(await testCredential(crew.credentials)).toEqual({ status: 'OK' });
		expect(await testCredential(crew.userCredentials)).toEqual({ status: 'OK' });
		expect(crew.service.requests.map((request) => request.tokenType)).toEqual([
			'organization',
			'user',
		]);
	});

	it('tests GET /inputs, and tells a wrong token by a 401', async () => {
		expect(await testCredential({ ...crew.credentials, token: 'wrong-token' })).toMatchObject({
			status: 'Error',
			httpCode: '401',
		});
		expect(crew.service.requests[0]).toMatchObject({ method: 'GET', route: 'inputs' });
	});

	it('tells a wrong address by a connection error', async () => {
		expect(await testCredential({ baseUrl: 'http://127.0.0.1:1', token: 'x-token' })).toMatchObject(
			{ status: 'Error', message: expect.stringMatching(/ECONNREFUSED|connect/i) },
		);
	});

	it('survives a trailing slash and whitespace around the base URL and the token', async () => {
		const sloppy = { baseUrl: `  ${crew.service.url}//  `, token: ` ${crew.credentials.token}\n` };
		expect(await testCredential(sloppy)).toEqual({ status: 'OK' });
		expect(crew.service.requests[0]).toMatchObject({
			method: 'GET',
			route: 'inputs',
			tokenType: 'organization',
		});
	});

	it('authenticates by a bearer header built by n8n, not by the node', () => {
		expect(new CrewApi().authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '=Bearer {{$credentials.token.trim()}}' } },
		});
	});
});
