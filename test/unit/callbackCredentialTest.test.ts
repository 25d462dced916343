import { checkCallbackSecrets, MIN_BEARER_TOKEN_LENGTH } from '../../nodes/Crew/methods/callbackCredentialTest';

const longToken = 'a'.repeat(MIN_BEARER_TOKEN_LENGTH);

describe('checkCallbackSecrets (the Crew Callback API credential test)', () => {
	it('refuses a credential with no secret at all', () => {
		expect(checkCallbackSecrets({})).toMatchObject({ status: 'Error', message: expect.stringMatching(/No secret is set/) });
		expect(checkCallbackSecrets({ bearerToken: '  ', signingSecret: '' }).status).toBe('Error');
	});
	it('refuses a bearer token short enough to guess', () => {
		const result = checkCallbackSecrets({ bearerToken: 'a'.repeat(MIN_BEARER_TOKEN_LENGTH - 1) });
		expect(result).toMatchObject({ status: 'Error', message: expect.stringMatching(/openssl rand -hex 32/) });
	});
	it('refuses half a basic auth pair', () => {
		expect(checkCallbackSecrets({ basicUser: 'crewai' }).status).toBe('Error');
		expect(checkCallbackSecrets({ basicPassword: 'pw-1234567890' }).status).toBe('Error');
	});
	it('refuses a signing secret that is not the whole whsec_ secret', () => {
		expect(checkCallbackSecrets({ signingSecret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })).toMatchObject({ status: 'Error', message: expect.stringMatching(/whsec_/) });
	});
	it('accepts usable secrets, and says what it cannot know', () => {
		expect(checkCallbackSecrets({ bearerToken: longToken })).toMatchObject({ status: 'OK', message: expect.stringMatching(/401/) });
		expect(checkCallbackSecrets({ signingSecret: 'whsec_abc' }).status).toBe('OK');
		expect(checkCallbackSecrets({ basicUser: 'crewai', basicPassword: 'pw', bearerToken: longToken }).status).toBe('OK');
		expect(checkCallbackSecrets({ metaSecret: 'legacy-secret' }).status).toBe('OK');
	});
});
