import { CrewCallbackTrigger } from '../../nodes/CrewCallbackTrigger/CrewCallbackTrigger.node';
import { callCrewTrigger } from '../helpers/webhookFunctions';

const crewPayload = {
	kickoff_id: 'k1',
	result: 'Final',
	result_json: null,
	token_usage: { total_tokens: 1 },
	meta: { webhook_secret: 's3cret', run: 7 },
};
// The Webhook Secret parameter is shown, and so kept by n8n, at node version 1 only.
const version1 = { typeVersion: 1 };

describe('Crew Trigger', () => {
	it("starts the workflow with the crew's result, secret removed", async () => {
		const { result } = await callCrewTrigger(
			crewPayload,
			{ events: ['crew'], secret: 's3cret' },
			version1,
		);
		expect(result.workflowData).toEqual([
			[
				{
					json: {
						event: 'crew',
						kickoff_id: 'k1',
						result: 'Final',
						result_json: null,
						token_usage: { total_tokens: 1 },
						meta: { run: 7 },
					},
				},
			],
		]);
	});

	it('refuses a call without the secret with 401, starting nothing', async () => {
		const { result, response } = await callCrewTrigger(
			{ ...crewPayload, meta: { run: 7 } },
			{ events: ['crew'], secret: 's3cret' },
			version1,
		);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(response.status).toBe(401);
	});

	it("answers a refused call with a bare 401, whatever the reason; the reason goes to n8n's log only", async () => {
		const refusals = [
			// A legacy call without the secret.
			await callCrewTrigger(
				{ ...crewPayload, meta: { run: 7 } },
				{ events: ['crew'], secret: 's3cret' },
				version1,
			),
			// An event-stream call to a trigger whose credential has no Callback Bearer Token.
			await callCrewTrigger(
				{ events: [] },
				{ events: ['all'] },
				{ credentials: { signingSecret: 'whsec_only' } },
			),
			// A signed feedback request to a trigger without a Flow Signing Secret.
			await callCrewTrigger(
				{ event: 'new_request' },
				{ events: ['all'] },
				{ headers: { 'x-signature': 'sha256=00', 'x-timestamp': '1' } },
			),
		];
		for (const { result, response, record } of refusals) {
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response).toEqual({ status: 401, ended: '' });
			expect(
				record.logs.filter((line) => line.includes('Crew Trigger "Crew Trigger" refused a call')),
			).toHaveLength(1);
		}
		expect(
			refusals.map(({ record }) =>
				record.logs.find((line) => line.includes('refused a call'))?.replace(/ \{.*$/, ''),
			),
		).toEqual([
			'warn Crew Trigger "Crew Trigger" refused a call (legacy): the webhook secret is missing or wrong',
			'warn Crew Trigger "Crew Trigger" refused a call (stream): the Crew Trigger has no Crew API credential with a Callback Bearer Token',
			'warn Crew Trigger "Crew Trigger" refused a call (feedbackRequest): the Crew Trigger has no Flow Signing Secret in its Crew API credential',
		]);
	});

	it('acknowledges but ignores events not chosen', async () => {
		const { result } = await callCrewTrigger(
			{ thought: 't', kickoff_id: 'k1', meta: null },
			{ events: ['crew'] },
		);
		expect(result.workflowData).toBeUndefined();
		expect(result.webhookResponse).toEqual({ received: true, ignored: 'step' });
	});

	it('ignores a body that is not a crew payload', async () => {
		const { result } = await callCrewTrigger('not json at all', {
			events: ['crew', 'task', 'step'],
		});
		expect(result.webhookResponse).toEqual({ received: true, ignored: 'unknown' });
	});
});

describe('Crew Trigger activation', () => {
	// Any use of n8n's hook context (a request, a stored registration) fails the test.
	const untouchable = new Proxy(
		{},
		{
			get: (_target, name) => {
				throw new Error(`activation used this.${String(name)}`);
			},
		},
	);
	const activation = new CrewCallbackTrigger().webhookMethods.default;

	it('says the webhook exists, so n8n activates without calling create', async () => {
		await expect(activation.checkExists.call(untouchable)).resolves.toBe(true);
	});

	it('creates and deletes nothing on the service: it takes callback URLs per kickoff', async () => {
		await expect(activation.create.call(untouchable)).resolves.toBe(true);
		await expect(activation.delete.call(untouchable)).resolves.toBe(true);
	});
});
