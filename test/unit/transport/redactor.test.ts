import { credentialSecretsOf, Redactor, requestRedactor } from '../../../nodes/transport/redactor';
import { buildKickoffBody } from '../../../nodes/records/kickoffBody';
import { buildCallbackFields, readCallbackOptions } from '../../../nodes/callbacksOut/callbackBody';

const KICKOFF_ID = '97eba64f-958c-40a0-b61c-625fe635a3c0';

describe('credentialSecretsOf', () => {
	it('takes every password field of the credential, trimmed, and nothing else', () => {
		const credentials = {
			baseUrl: 'https://crew.example.com',
			token: ' tok-1234 ',
			bearerToken: 'cb-5678',
			basicUser: 'reviewer',
			basicPassword: '',
			metaSecret: 'legacy-9abc',
			signingSecret: 'whsec_def0',
		};
		expect(credentialSecretsOf(credentials)).toEqual([
			'tok-1234',
			'cb-5678',
			'legacy-9abc',
			'whsec_def0',
		]);
	});
});

describe('requestRedactor: one per request, from every secret it carries', () => {
	it("the credential's, the body's (node version 1's Webhook Secret option in Meta, a callback token) and those named for a body it cannot read", () => {
		const body = {
			...buildKickoffBody(
				{ topic: 'AI' },
				{
					webhookSecret: 'option-secret-55aa',
					crewWebhookUrl: 'https://n8n.example.com/webhook/legacy',
				},
			),
			...buildCallbackFields(
				readCallbackOptions({ eventStreamUrl: 'https://n8n.example.com/webhook/crew' }),
				{ bearerToken: 'callback-bearer-1' },
			),
		};
		const redactor = requestRedactor(['tok-1234'], body, ['multipart-field-secret']);
		expect([...redactor.secrets].sort()).toEqual([
			'callback-bearer-1',
			'multipart-field-secret',
			'option-secret-55aa',
			'tok-1234',
		]);
	});

	it('orders them longest first, so a signed URL is hidden whole before its signature', () => {
		const signature = '0123456789abcdef0123';
		const url = `https://n8n.example.com/webhook-waiting/7?signature=${signature}`;
		const redactor = new Redactor([signature, url]);
		expect(redactor.secrets).toEqual([url, signature]);
		expect(redactor.text(`calls ${url} then ${signature}`)).toBe(
			'calls [token hidden] then [token hidden]',
		);
	});

	it('keeps the 4-character minimum: a shorter secret would hide ordinary words', () => {
		expect(new Redactor(['abc', undefined, 'abcd']).secrets).toEqual(['abcd']);
	});
});

describe('Redactor.answer: a success as well as a failure', () => {
	const redactor = new Redactor(['tok-1234', 'legacy-9abc']);

	it('hides the secrets in every text of a success, however deep', () => {
		const answer = {
			kind: 'http' as const,
			statusCode: 200,
			body: {
				kickoff_id: KICKOFF_ID,
				meta: { webhook_secret: 'legacy-9abc' },
				echoed: ['Bearer tok-1234'],
			},
		};
		expect(redactor.answer(answer)).toEqual({
			kind: 'http',
			statusCode: 200,
			body: {
				kickoff_id: KICKOFF_ID,
				meta: { webhook_secret: '[token hidden]' },
				echoed: ['Bearer [token hidden]'],
			},
		});
	});

	it("hides the fields that hold a secret by their name, also a secret this request did not carry (a status record that repeats the kickoff's Meta)", () => {
		const record = {
			state: 'SUCCESS',
			last_executed_task: {
				name: 'write',
				meta: { webhook_secret: 'version-1-option-secret', team: 'sales' },
			},
			webhooks: { authentication: { strategy: 'bearer', token: 'a-crew-token' } },
		};
		expect(new Redactor([]).answer({ kind: 'http', statusCode: 200, body: record })).toEqual({
			kind: 'http',
			statusCode: 200,
			body: {
				state: 'SUCCESS',
				last_executed_task: {
					name: 'write',
					meta: { webhook_secret: '[token hidden]', team: 'sales' },
				},
				webhooks: { authentication: { strategy: 'bearer', token: '[token hidden]' } },
			},
		});
	});

	it('never cuts a field the node reads as an identifier, even when a short secret matches part of it', () => {
		const short = new Redactor(['958c']);
		const body = {
			kickoff_id: KICKOFF_ID,
			id: KICKOFF_ID,
			task_id: `task-${KICKOFF_ID}`,
			executionId: KICKOFF_ID,
			session_id: KICKOFF_ID,
			note: 'mentions 958c',
		};
		expect(short.answer({ kind: 'http', statusCode: 200, body })).toEqual({
			kind: 'http',
			statusCode: 200,
			body: { ...body, note: 'mentions [token hidden]' },
		});
	});

	it("hides them in a failed answer, a text body and a network failure's message", () => {
		expect(
			redactor.answer({ kind: 'http', statusCode: 422, body: { detail: 'bad token tok-1234' } }),
		).toEqual({ kind: 'http', statusCode: 422, body: { detail: 'bad token [token hidden]' } });
		expect(
			redactor.answer({
				kind: 'http',
				statusCode: 502,
				body: '<title>Authorization: Bearer tok-1234</title>',
			}),
		).toEqual({
			kind: 'http',
			statusCode: 502,
			body: '<title>Authorization: Bearer [token hidden]</title>',
		});
		expect(
			redactor.answer({ kind: 'network', code: 'ECONNRESET', message: 'reset by tok-1234' }),
		).toEqual({ kind: 'network', code: 'ECONNRESET', message: 'reset by [token hidden]' });
	});

	it('hides them in an error: message, description and cause', () => {
		const cause = new Error('tok-1234');
		const error = Object.assign(new Error('failed with tok-1234'), {
			description: 'legacy-9abc',
			cause,
		});
		redactor.error(error);
		expect([error.message, error.description, cause.message].join(' ')).not.toMatch(
			/tok-1234|legacy-9abc/,
		);
	});
});
