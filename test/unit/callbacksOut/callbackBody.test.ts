import {
	buildCallbackFields,
	expandEventTypes,
	legacyWebhookSecret,
	readCallbackOptions,
} from '../../../nodes/callbacksOut/callbackBody';
import { errorOf } from '../../helpers/invalidParameter';
import {
	NONEXISTENT_EVENT_TYPES,
	STREAM_EVENT_GROUPS,
	groupsOfEventType,
} from '../../../nodes/callbacksOut/streamEvents';

const secrets = { bearerToken: 'cb-token', basicUser: 'crewai', basicPassword: 'pw' };

describe('expandEventTypes', () => {
	it('expands groups to the published names, each once, then the additional names', () => {
		const types = expandEventTypes(
			['runFinished', 'crew'],
			' flow_failed ,my_event,, crew_kickoff_failed',
		);
		expect(types.slice(0, 4)).toEqual([
			'crew_kickoff_completed',
			'crew_kickoff_failed',
			'flow_finished',
			'method_execution_failed',
		]);
		expect(types).toContain('crew_test_result');
		expect(types.slice(-2)).toEqual(['flow_failed', 'my_event']);
		expect(new Set(types).size).toBe(types.length);
	});
	it('never requests the names only outdated pages list, and says what to use', () => {
		const all = expandEventTypes(Object.keys(STREAM_EVENT_GROUPS));
		for (const old of Object.keys(NONEXISTENT_EVENT_TYPES)) expect(all).not.toContain(old);
		expect(errorOf(() => expandEventTypes([], 'crew_execution_completed')).description).toMatch(
			/Use crew_kickoff_completed/,
		);
	});
	it('refuses unknown groups and malformed names', () => {
		expect(errorOf(() => expandEventTypes(['everything'])).message).toMatch(
			/Unknown event group "everything"/,
		);
		expect(errorOf(() => expandEventTypes([], 'bad name')).message).toMatch(
			/invalid name: "bad name"/,
		);
	});
	it('knows which groups a type is in', () => {
		expect(groupsOfEventType('crew_kickoff_completed')).toEqual(['runFinished', 'crew']);
		expect(groupsOfEventType('tool_usage_finished')).toEqual(['tool']);
		expect(groupsOfEventType('report_draft_ready')).toEqual([]);
	});
});

describe('readCallbackOptions and buildCallbackFields', () => {
	it('asks for nothing without URLs, and sends nothing', () => {
		expect(readCallbackOptions({})).toEqual({});
		expect(readCallbackOptions({ eventStreamUrl: '  ', humanInputWebhookUrl: '' })).toEqual({});
		expect(buildCallbackFields({}, {})).toEqual({});
	});
	it("builds the webhooks object with the credential's bearer token; run-finished events by default", () => {
		const fields = buildCallbackFields(
			readCallbackOptions({ eventStreamUrl: 'https://n8n.example.com/webhook/a/crew' }),
			secrets,
		);
		expect(fields).toEqual({
			webhooks: {
				events: [
					'crew_kickoff_completed',
					'crew_kickoff_failed',
					'flow_finished',
					'method_execution_failed',
				],
				url: 'https://n8n.example.com/webhook/a/crew',
				realtime: false,
				authentication: { strategy: 'bearer', token: 'cb-token' },
			},
		});
		const realtime = buildCallbackFields(
			readCallbackOptions({
				eventStreamUrl: 'http://localhost/x',
				eventStreamEvents: ['task'],
				eventStreamRealtime: true,
			}),
			secrets,
		);
		expect(realtime.webhooks).toMatchObject({ events: STREAM_EVENT_GROUPS.task, realtime: true });
	});
	it('builds humanInputWebhookUrl, and humanInputWebhook with bearer or basic auth when the credential has them', () => {
		expect(
			buildCallbackFields(
				readCallbackOptions({ humanInputWebhookUrl: 'https://h.example/x' }),
				secrets,
			),
		).toEqual({
			humanInputWebhookUrl: 'https://h.example/x',
			humanInputWebhook: {
				url: 'https://h.example/x',
				authentication: { strategy: 'bearer', token: 'cb-token' },
			},
		});
		expect(
			buildCallbackFields(
				readCallbackOptions({
					humanInputWebhookUrl: 'https://h.example/x',
					humanInputWebhookAuth: 'basic',
				}),
				secrets,
			),
		).toEqual({
			humanInputWebhookUrl: 'https://h.example/x',
			humanInputWebhook: {
				url: 'https://h.example/x',
				authentication: { strategy: 'basic', username: 'crewai', password: 'pw' },
			},
		});
	});
	it('without callback secrets (or only a signing secret), only the top-level string: the live service calls it without auth', () => {
		const options = readCallbackOptions({ humanInputWebhookUrl: ' https://h.example/x ' });
		expect(buildCallbackFields(options, {})).toEqual({
			humanInputWebhookUrl: 'https://h.example/x',
		});
		expect(buildCallbackFields(options, { signingSecret: 'whsec_x', bearerToken: ' ' })).toEqual({
			humanInputWebhookUrl: 'https://h.example/x',
		});
		// Auth asked for explicitly still needs the credential's secret.
		const withAuth = readCallbackOptions({
			humanInputWebhookUrl: 'https://h.example/x',
			humanInputWebhookAuth: 'bearer',
		});
		expect(errorOf(() => buildCallbackFields(withAuth, {})).message).toBe(
			'The Crew API credential has no Callback Bearer Token',
		);
	});
	it('with Human Input Webhook Auth unset, uses the secret the credential holds, and a partial basic pair sends no auth', () => {
		const options = readCallbackOptions({ humanInputWebhookUrl: 'https://h.example/x' });
		expect(buildCallbackFields(options, { basicUser: 'crewai', basicPassword: 'pw' })).toEqual({
			humanInputWebhookUrl: 'https://h.example/x',
			humanInputWebhook: {
				url: 'https://h.example/x',
				authentication: { strategy: 'basic', username: 'crewai', password: 'pw' },
			},
		});
		expect(buildCallbackFields(options, { basicUser: 'crewai' })).toEqual({
			humanInputWebhookUrl: 'https://h.example/x',
		});
		expect(buildCallbackFields(options, { basicPassword: 'pw', metaSecret: 'm' })).toEqual({
			humanInputWebhookUrl: 'https://h.example/x',
		});
	});
	it('refuses a channel without its secret, options without a URL, a bad URL and an empty event list', () => {
		expect(
			errorOf(() =>
				buildCallbackFields(readCallbackOptions({ eventStreamUrl: 'https://x.example/' }), {}),
			).message,
		).toBe('The Crew API credential has no Callback Bearer Token');
		expect(
			errorOf(() =>
				buildCallbackFields(
					readCallbackOptions({
						humanInputWebhookUrl: 'https://x.example/',
						humanInputWebhookAuth: 'basic',
					}),
					{ bearerToken: 't' },
				),
			).message,
		).toMatch(/no Human Input Basic Auth User/);
		expect(errorOf(() => readCallbackOptions({ eventStreamEvents: ['task'] })).message).toBe(
			'Event Stream URL is empty',
		);
		expect(errorOf(() => readCallbackOptions({ humanInputWebhookAuth: 'basic' })).message).toBe(
			'Human Input Webhook URL is empty',
		);
		expect(
			errorOf(() =>
				buildCallbackFields(readCallbackOptions({ eventStreamUrl: 'webhook/x' }), secrets),
			).message,
		).toMatch(/^Event Stream URL is not/);
		expect(
			errorOf(() =>
				buildCallbackFields(
					readCallbackOptions({ eventStreamUrl: 'https://x.example/', eventStreamEvents: [] }),
					secrets,
				),
			).message,
		).toBe('Event Stream has no events');
	});
});

describe('legacyWebhookSecret', () => {
	const credential = { metaSecret: ' from-credential ' };
	it("takes the 0.1.0 option first (version-1 nodes), then the credential's, only with a legacy URL", () => {
		expect(
			legacyWebhookSecret(
				{ webhookSecret: 'from-option', crewWebhookUrl: 'https://x.example/' },
				credential,
			),
		).toBe('from-option');
		expect(legacyWebhookSecret({ webhookSecret: 'from-option' }, credential)).toBe('from-option');
		expect(legacyWebhookSecret({ taskWebhookUrl: 'https://x.example/' }, credential)).toBe(
			'from-credential',
		);
		expect(legacyWebhookSecret({}, credential)).toBeUndefined();
		expect(legacyWebhookSecret({ crewWebhookUrl: ' ' }, credential)).toBeUndefined();
		expect(legacyWebhookSecret({ crewWebhookUrl: 'https://x.example/' }, {})).toBeUndefined();
	});
});
