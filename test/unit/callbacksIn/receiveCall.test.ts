import { createHmac } from 'crypto';

import {
	toFeedbackRequestItem,
	verifyFeedbackSignature,
} from '../../../nodes/callbacksIn/flowFeedback';
import { toHumanInputItem } from '../../../nodes/callbacksIn/humanInput';
import { channelOf, receiveCall } from '../../../nodes/callbacksIn/receiveCall';
import type { IncomingCall } from '../../../nodes/callbacksIn/receiveCall';

const TOKEN = 'cb-token-0123456789';
const SECRET = 'whsec_unit_secret';
const NOW = 1_800_000_000_000;
const bearer = { authorization: `Bearer ${TOKEN}` };
const event = (id: string, type: string, timestamp: string, data: object = {}) => ({
	id,
	execution_id: 'k-1',
	timestamp,
	type,
	data,
});
function call(overrides: Partial<IncomingCall>): IncomingCall {
	const body = overrides.body ?? {};
	return {
		headers: {},
		body,
		rawBody: JSON.stringify(body),
		picked: ['all'],
		secrets: { bearerToken: TOKEN, signingSecret: SECRET },
		legacySecretParameter: '',
		credentialSecrets: [TOKEN, SECRET],
		nowMs: NOW,
		...overrides,
	};
}
function signed(
	body: object,
	timestamp = Math.floor(NOW / 1000),
	family: 'current' | 'crewai' = 'current',
	secret = SECRET,
) {
	const rawBody = JSON.stringify(body);
	const signature = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
	const headers: Record<string, string> =
		family === 'current'
			? { 'x-signature': signature, 'x-timestamp': String(timestamp) }
			: { 'x-crewai-signature': signature, 'x-crewai-timestamp': String(timestamp) };
	return { headers, rawBody };
}

describe('receiveCall: event stream', () => {
	const completed = event('z', 'crew_kickoff_completed', '2026-08-01T10:00:02.000Z', {
		output: { raw: 'Final text', json_dict: { score: 3 } },
		total_tokens: 99,
	});
	const failed = event('f', 'crew_kickoff_failed', '2026-08-01T10:00:03.000Z', {
		error: 'quota exceeded',
	});
	const custom = event('u', 'report_draft_ready', '2026-08-01T10:00:01.000Z', { words: 3 });

	it('refuses a delivery without the bearer token, or with a wrong one', () => {
		expect(receiveCall(call({ body: { events: [completed] } }))).toMatchObject({
			kind: 'refused',
			channel: 'stream',
		});
		expect(
			receiveCall(
				call({ body: { events: [completed] }, headers: { authorization: 'Bearer wrong' } }),
			),
		).toMatchObject({ kind: 'refused' });
		expect(
			receiveCall(call({ body: { events: [completed] }, headers: bearer, secrets: {} })),
		).toMatchObject({ kind: 'refused' });
	});
	it('gives terminal events their outcome in plain fields', () => {
		const outcome = receiveCall(
			call({ body: { events: [failed, completed] }, headers: bearer, picked: ['runFinished'] }),
		);
		expect(outcome).toMatchObject({ kind: 'accepted', channel: 'stream' });
		const items = (outcome as { items: object[] }).items;
		expect(items[0]).toMatchObject({
			event: 'crew_kickoff_completed',
			kickoff_id: 'k-1',
			status: 'completed',
			result: 'Final text',
			result_json: { score: 3 },
			total_tokens: 99,
		});
		expect(items[1]).toMatchObject({
			event: 'crew_kickoff_failed',
			status: 'failed',
			error: 'quota exceeded',
		});
		const flow = receiveCall(
			call({
				body: {
					events: [
						event('g', 'flow_finished', '2026-08-01T10:00:00Z', {
							result: { ok: 1 },
							state: { id: 's' },
						}),
						event('h', 'method_execution_failed', '2026-08-01T10:00:01Z', {
							method_name: 'review',
							error: 'boom',
						}),
					],
				},
				headers: bearer,
				picked: ['runFinished'],
			}),
		);
		expect((flow as { items: object[] }).items).toEqual([
			expect.objectContaining({ status: 'completed', result: { ok: 1 }, state: { id: 's' } }),
			expect.objectContaining({ status: 'failed', error: 'boom', method_name: 'review' }),
		]);
	});
	it('filters by the picked groups; unknown types only with All Events', () => {
		const body = {
			events: [
				custom,
				completed,
				event('t', 'task_completed', '2026-08-01T10:00:00.500Z'),
				event('s', 'agent_execution_started', '2026-08-01T10:00:00.400Z'),
			],
		};
		const types = (picked: IncomingCall['picked']) => {
			const outcome = receiveCall(call({ body, headers: bearer, picked }));
			return outcome.kind === 'accepted' ? outcome.items.map((i) => i.event) : outcome.kind;
		};
		expect(types(['task'])).toEqual(['task_completed']);
		expect(types(['step'])).toEqual(['agent_execution_started']);
		expect(types(['crew'])).toEqual(['crew_kickoff_completed']);
		expect(types(['all'])).toEqual([
			'agent_execution_started',
			'task_completed',
			'report_draft_ready',
			'crew_kickoff_completed',
		]);
		expect(types(['llm'])).toBe('ignored');
	});
});

describe('receiveCall: human input', () => {
	it('checks an Authorization header against the credential; outputs stable names from several spellings, the payload kept', () => {
		const body = { execution_id: 'k-9', task_id: 'analysis_task', output: 'Draft' };
		expect(receiveCall(call({ body, headers: { authorization: 'Bearer wrong' } }))).toMatchObject({
			kind: 'refused',
			channel: 'humanInput',
		});
		const outcome = receiveCall(call({ body, headers: bearer, picked: ['humanInput'] }));
		expect(outcome).toEqual({
			kind: 'accepted',
			channel: 'humanInput',
			items: [
				{
					event: 'human_input_requested',
					kickoff_id: 'k-9',
					task_id: 'analysis_task',
					task_output: 'Draft',
					task_name: null,
					task_description: null,
					authenticated: true,
					payload: body,
				},
			],
		});
		expect(toHumanInputItem({ kickoff_id: 'k', taskId: 't', task_output: 'o' })).toMatchObject({
			kickoff_id: 'k',
			task_id: 't',
			task_output: 'o',
		});
		expect(toHumanInputItem({ executionId: 'k', task: { id: 't', output: 'o' } })).toMatchObject({
			kickoff_id: 'k',
			task_id: 't',
			task_output: 'o',
		});
		expect(receiveCall(call({ body, headers: bearer, picked: ['crew'] }))).toMatchObject({
			kind: 'ignored',
		});
	});
});

describe('receiveCall: the live human-input call, without Authorization', () => {
	const live = {
		kickoff_id: '97eba64f-958c-40a0-b61c-625fe635a3c0',
		execution_id: '97eba64f-958c-40a0-b61c-625fe635a3c0',
		task_id: '0b9e3c44-1f7a-4a55-9c1e-2d8f6a1b7c90',
		task_output: 'Draft',
		meta: { run: 1 },
	};

	it('is accepted, with or without a credential on the trigger, and marked unauthenticated', () => {
		for (const secrets of [{ bearerToken: TOKEN }, {}]) {
			expect(receiveCall(call({ body: live, secrets, picked: ['humanInput'] }))).toEqual({
				kind: 'accepted',
				channel: 'humanInput',
				items: [
					{
						event: 'human_input_requested',
						kickoff_id: live.kickoff_id,
						task_id: live.task_id,
						task_output: 'Draft',
						task_name: null,
						task_description: null,
						authenticated: false,
						payload: live,
					},
				],
			});
		}
		expect(receiveCall(call({ body: live, picked: ['crew'] }))).toMatchObject({
			kind: 'ignored',
			channel: 'humanInput',
		});
	});

	it('is refused without a kickoff id, with two different ones, an odd one, or no task', () => {
		const { kickoff_id: _kickoff, ...executionOnly } = live;
		expect(receiveCall(call({ body: executionOnly, picked: ['humanInput'] }))).toMatchObject({
			kind: 'accepted',
		});
		for (const [body, reason] of [
			[{ execution_id: null, task_id: 't', executionId: 'x' }, /names no kickoff_id/],
			[{ ...live, execution_id: 'another-id' }, /kickoff_id and execution_id differ/],
			[{ ...live, kickoff_id: 'not an id; <script>' }, /names no kickoff_id/],
			[{ ...live, kickoff_id: 42 }, /names no kickoff_id/],
			[{ ...live, task_id: ' ' }, /names no task_id/],
		] as const) {
			expect(receiveCall(call({ body, picked: ['all'] }))).toEqual({
				kind: 'refused',
				channel: 'humanInput',
				reason: expect.stringMatching(reason),
			});
		}
	});
});

describe('receiveCall: flow feedback requests', () => {
	const nested = {
		event: 'new_request',
		request: {
			id: 'r-1',
			flow_id: 'f-1',
			method_name: 'review',
			message: 'Check',
			output: 'Draft',
			emit_options: ['approved', 'rejected'],
			state: {},
		},
		deployment: { id: 4, name: 'Dep' },
		callback_url: 'https://app.example/respond?token=t',
	};
	const flat = {
		event_type: 'new_request',
		id: 'r-2',
		flow_id: 'f-2',
		method_name: 'review',
		emit: ['ok'],
		callback_url: 'https://app.example/r2?token=t',
		deployment_id: 5,
		assigned_to_email: 'a@example.com',
	};

	it.each(['current', 'crewai'] as const)(
		'accepts a right signature in the %s header family, both shapes',
		(family) => {
			for (const [body, id, emit] of [
				[nested, 'r-1', ['approved', 'rejected']],
				[flat, 'r-2', ['ok']],
			] as const) {
				const outcome = receiveCall(
					call({ body, ...signed(body, undefined, family), picked: ['feedbackRequest'] }),
				);
				expect(outcome).toMatchObject({
					kind: 'accepted',
					channel: 'feedbackRequest',
					items: [
						{
							event: 'feedback_requested',
							request_id: id,
							emit_options: emit,
							callback_url: body.callback_url,
						},
					],
				});
			}
		},
	);
	it("accepts a bare hex signature (the current doc's own snippet compares one)", () => {
		const { headers, rawBody } = signed(nested);
		headers['x-signature'] = headers['x-signature'].slice('sha256='.length);
		expect(verifyFeedbackSignature({ headers, rawBody, secret: SECRET, nowMs: NOW })).toEqual({
			ok: true,
			signedAtMs: Math.floor(NOW / 1000) * 1000,
			signature: headers['x-signature'],
		});
	});
	it('refuses a wrong secret, a changed body, no signature, no secret configured', () => {
		expect(
			receiveCall(call({ body: nested, ...signed(nested, undefined, 'current', 'whsec_other') })),
		).toMatchObject({ kind: 'refused' });
		const { headers } = signed(nested);
		expect(
			receiveCall(
				call({
					body: nested,
					headers,
					rawBody: JSON.stringify({ ...nested, callback_url: 'https://evil.example/' }),
				}),
			),
		).toMatchObject({ kind: 'refused' });
		expect(receiveCall(call({ body: nested }))).toMatchObject({
			kind: 'refused',
			reason: 'no signature or timestamp header',
		});
		expect(
			receiveCall(call({ body: nested, ...signed(nested), secrets: { bearerToken: TOKEN } })),
		).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/no Flow Signing Secret/) });
	});
	it('refuses a replay: a timestamp more than 5 minutes away from the clock, either way', () => {
		const at = Math.floor(NOW / 1000);
		const check = (timestamp: number, nowMs: number) =>
			verifyFeedbackSignature({ ...signed(nested, timestamp), secret: SECRET, nowMs });
		expect(check(at, NOW + 300_000)).toEqual({
			ok: true,
			signedAtMs: at * 1000,
			signature: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
		expect(check(at, NOW + 301_000)).toMatchObject({
			ok: false,
			reason: expect.stringMatching(/5 minutes/),
		});
		expect(check(at + 301, NOW)).toMatchObject({ ok: false });
		expect(
			verifyFeedbackSignature({
				headers: { 'x-signature': 'sha256=00', 'x-timestamp': 'yesterday' },
				rawBody: '{}',
				secret: SECRET,
				nowMs: NOW,
			}),
		).toMatchObject({ ok: false, reason: expect.stringMatching(/Unix seconds/) });
	});
	it('reads both payload shapes into the same names', () => {
		expect(toFeedbackRequestItem(flat)).toMatchObject({
			request_type: 'new_request',
			request_id: 'r-2',
			deployment_id: 5,
			assigned_to_email: 'a@example.com',
			payload: flat,
		});
		expect(toFeedbackRequestItem(nested)).toMatchObject({
			request_type: 'new_request',
			request_id: 'r-1',
			deployment_id: 4,
			deployment_name: 'Dep',
			message: 'Check',
		});
	});
});

describe('receiveCall: legacy URLs', () => {
	const crewPayload = {
		kickoff_id: 'k',
		result: 'done',
		token_usage: {},
		meta: { webhook_secret: 'm-secret', run: 1 },
	};
	it('checks the meta secret from the credential, or the 0.1.0 parameter, and strips it', () => {
		expect(channelOf({}, crewPayload)).toBe('legacy');
		expect(
			receiveCall(
				call({ body: crewPayload, picked: ['crew'], secrets: { metaSecret: 'm-secret' } }),
			),
		).toMatchObject({ kind: 'accepted', items: [{ event: 'crew', meta: { run: 1 } }] });
		expect(
			receiveCall(call({ body: crewPayload, picked: ['crew'], secrets: { metaSecret: 'other' } })),
		).toMatchObject({ kind: 'refused' });
		expect(
			receiveCall(
				call({ body: crewPayload, picked: ['crew'], secrets: {}, legacySecretParameter: 'other' }),
			),
		).toMatchObject({ kind: 'refused' });
		expect(
			receiveCall(
				call({ body: { ...crewPayload, meta: {} }, picked: ['runFinished'], secrets: {} }),
			),
		).toMatchObject({ kind: 'accepted' });
	});
});

describe('receiveCall: no secret of the credential in any item, on every channel', () => {
	const LEGACY = 'legacy-secret-7c2e';
	const API_TOKEN = 'api-token-5d1f9a';
	const secrets = [API_TOKEN, TOKEN, SECRET, LEGACY];

	it("the live human-input call echoes the kickoff's meta whole: its webhook_secret is left out, even with no credential selected", () => {
		const body = {
			kickoff_id: 'k-7',
			execution_id: 'k-7',
			task_id: 't-1',
			task_output: 'Draft',
			meta: { run: 1, webhook_secret: LEGACY },
		};
		const withCredential = receiveCall(
			call({
				body,
				picked: ['humanInput'],
				secrets: { metaSecret: LEGACY },
				credentialSecrets: secrets,
			}),
		);
		const withNone = receiveCall(
			call({ body, picked: ['humanInput'], secrets: {}, credentialSecrets: [] }),
		);
		for (const outcome of [withCredential, withNone]) {
			expect(outcome).toMatchObject({
				kind: 'accepted',
				items: [{ kickoff_id: 'k-7', payload: { meta: { run: 1 } } }],
			});
			expect(JSON.stringify(outcome)).not.toContain(LEGACY);
		}
	});

	it('a secret of the credential quoted anywhere in a stream event, an authenticated human-input call or a feedback request is hidden; ids stay whole', () => {
		const stream = receiveCall(
			call({
				body: {
					events: [
						event('e-1', 'task_completed', '2026-08-01T10:00:00Z', {
							output: `used ${API_TOKEN} and ${LEGACY}`,
						}),
					],
				},
				headers: bearer,
				credentialSecrets: secrets,
			}),
		);
		const human = receiveCall(
			call({
				body: { execution_id: 'k-9', task_id: 't', output: `Bearer ${TOKEN}` },
				headers: bearer,
				credentialSecrets: secrets,
			}),
		);
		const body = {
			event: 'new_request',
			request: { id: 'r-9', message: `signed with ${SECRET}` },
			callback_url: 'https://app.example/respond?token=t',
		};
		const feedback = receiveCall(call({ body, ...signed(body), credentialSecrets: secrets }));
		for (const outcome of [stream, human, feedback]) {
			expect(outcome.kind).toBe('accepted');
			const text = JSON.stringify(outcome);
			for (const secret of secrets) expect(text).not.toContain(secret);
			expect(text).toContain('[token hidden]');
		}
		expect(stream).toMatchObject({ items: [{ kickoff_id: 'k-1', id: 'e-1' }] });
		expect(feedback).toMatchObject({ items: [{ request_id: 'r-9' }] });
	});

	it("a legacy call: the 0.1.0 parameter's secret too", () => {
		const payload = {
			kickoff_id: 'k',
			result: `done (${LEGACY})`,
			token_usage: {},
			meta: { webhook_secret: LEGACY },
		};
		const outcome = receiveCall(
			call({
				body: payload,
				picked: ['crew'],
				secrets: {},
				credentialSecrets: [],
				legacySecretParameter: LEGACY,
			}),
		);
		expect(outcome).toMatchObject({
			kind: 'accepted',
			items: [{ result: 'done ([token hidden])', meta: {} }],
		});
	});
});

describe('receiveCall: a signed feedback request says what tells a replay of it', () => {
	it('its type and request id, and when it was signed', () => {
		const body = {
			event_type: 'new_request',
			id: 'r-5',
			callback_url: 'https://app.example/r5?token=t',
		};
		const at = Math.floor(NOW / 1000) - 30;
		expect(receiveCall(call({ body, ...signed(body, at) }))).toMatchObject({
			kind: 'accepted',
			once: { key: 'new_request:r-5', signedAtMs: at * 1000 },
		});
	});
});
