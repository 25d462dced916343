import { buildCallbackFields, readCallbackOptions } from '../../../nodes/callbacksOut/callbackBody';
import { callbackStreamField } from '../../../nodes/callbacksOut/resumeCallbacks';
import { buildKickoffBody } from '../../../nodes/records/kickoffBody';
import { secretsSentIn } from '../../../nodes/records/sentSecrets';

describe('secretsSentIn: what a kickoff or resume body carries that an answer quoting it must not show', () => {
	it('the tokens and passwords of the callback channels, from the bodies the node builds', () => {
		const secrets = {
			bearerToken: 'callback-bearer-1',
			basicUser: 'reviewer',
			basicPassword: 'basic-password-1',
		};
		const stream = buildCallbackFields(
			readCallbackOptions({ eventStreamUrl: 'https://n8n.example.com/webhook/crew' }),
			secrets,
		);
		const humanInput = buildCallbackFields(
			readCallbackOptions({
				humanInputWebhookUrl: 'https://n8n.example.com/webhook/human',
				humanInputWebhookAuth: 'basic',
			}),
			secrets,
		);
		expect(secretsSentIn({ inputs: { topic: 'AI' }, ...stream })).toEqual(['callback-bearer-1']);
		// The user name is no secret; the password is.
		expect(secretsSentIn({ inputs: { topic: 'AI' }, ...humanInput })).toEqual(['basic-password-1']);
	});

	it("Meta's webhook secret, which node version 1 takes from its Webhook Secret option", () => {
		const body = buildKickoffBody(
			{ topic: 'AI' },
			{
				webhookSecret: 'option-secret-55aa',
				meta: '{"team": "sales"}',
				crewWebhookUrl: 'https://n8n.example.com/webhook/legacy',
			},
		);
		expect(secretsSentIn(body)).toEqual(['option-secret-55aa']);
	});

	it("a Wait By: Callback crew's own token, and its signed resume URL whole and its signature", () => {
		const resumeUrl = 'https://n8n.example.com/webhook-waiting/42?signature=5f2b9c0d1e3a4b6c';
		expect(
			secretsSentIn({
				inputs: {},
				webhooks: callbackStreamField(resumeUrl, 'crew-token-0123'),
				humanInputWebhookUrl: resumeUrl,
			}),
		).toEqual([resumeUrl, '5f2b9c0d1e3a4b6c', 'crew-token-0123']);
	});

	it("nothing from a body without secrets: inputs named token or password are the user's data", () => {
		expect(
			secretsSentIn({
				inputs: { token: 'my-input-value', password: 'another-value' },
				crewWebhookUrl: 'https://n8n.example.com/webhook/legacy?x=1',
			}),
		).toEqual([]);
	});

	it('a signed URL only where the service is told to call back, and only with a signature long enough to be one', () => {
		const signed = 'https://files.example.com/a.pdf?signature=0123456789abcdef0123';
		expect(
			secretsSentIn({ inputs: { report: signed, authentication: { token: 'an-input-value' } } }),
		).toEqual([]);
		expect(secretsSentIn({ inputs: {}, meta: { source: signed } })).toEqual([]);
		expect(
			secretsSentIn({
				inputs: {},
				crewWebhookUrl: 'https://n8n.example.com/webhook/legacy?signature=none',
			}),
		).toEqual([]);
		expect(secretsSentIn({ inputs: {}, crewWebhookUrl: signed })).toEqual([
			signed,
			'0123456789abcdef0123',
		]);
	});
});
