import { checkAuthorization, sameSecret } from '../../../nodes/callbacksIn/callbackAuth';

const TOKEN = 'cb-token-0123456789';

describe('sameSecret and checkAuthorization', () => {
	it('compares secrets exactly, and never accepts an empty expected secret', () => {
		expect(sameSecret('abc', 'abc')).toBe(true);
		expect(sameSecret('abd', 'abc')).toBe(false);
		expect(sameSecret('abc ', 'abc')).toBe(false);
		expect(sameSecret('', '')).toBe(false);
	});
	it('accepts the bearer token (scheme in any case) and basic credentials, nothing else', () => {
		const secrets = { bearerToken: TOKEN, basicUser: 'crewai', basicPassword: 'p:w' };
		expect(checkAuthorization(`Bearer ${TOKEN}`, secrets)).toEqual({ ok: true, scheme: 'bearer' });
		expect(checkAuthorization(`bearer ${TOKEN}`, secrets)).toEqual({ ok: true, scheme: 'bearer' });
		expect(
			checkAuthorization(`Basic ${Buffer.from('crewai:p:w').toString('base64')}`, secrets),
		).toEqual({ ok: true, scheme: 'basic' });
		for (const wrong of [
			undefined,
			'',
			TOKEN,
			`Bearer ${TOKEN}x`,
			`Bearer ${TOKEN.slice(1)}`,
			`Basic ${Buffer.from('crewai:wrong').toString('base64')}`,
			`Basic ${Buffer.from('crewai').toString('base64')}`,
			`Token ${TOKEN}`,
		]) {
			expect(checkAuthorization(wrong, secrets).ok).toBe(false);
		}
	});
	it('refuses everything when the credential has no token', () => {
		expect(checkAuthorization('Bearer anything', {})).toEqual({
			ok: false,
			reason: expect.stringMatching(/no Crew API credential with a Callback Bearer Token/),
		});
		expect(checkAuthorization('Bearer ', { bearerToken: '' }).ok).toBe(false);
	});
});
