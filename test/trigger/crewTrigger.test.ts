import { CrewCallbackTrigger } from '../../nodes/CrewCallbackTrigger/CrewCallbackTrigger.node';
import { callCrewTrigger } from '../helpers/webhookFunctions';

const crewPayload = { kickoff_id: 'k1', result: 'Final', result_json: null, token_usage: { total_tokens: 1 }, meta: { webhook_secret: 's3cret', run: 7 } };

describe('Crew Trigger', () => {
	it('starts the workflow with the crew\'s result, secret removed', async () => {
		const { result } = await callCrewTrigger(crewPayload, { events: ['crew'], secret: 's3cret' });
		expect(result.workflowData).toEqual([[{ json: { event: 'crew', kickoff_id: 'k1', result: 'Final', result_json: null, token_usage: { total_tokens: 1 }, meta: { run: 7 } } }]]);
	});

	it('refuses a call without the secret with 401, starting nothing', async () => {
		const { result, response } = await callCrewTrigger({ ...crewPayload, meta: { run: 7 } }, { events: ['crew'], secret: 's3cret' });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(response.status).toBe(401);
	});

	it('acknowledges but ignores events not chosen', async () => {
		const { result } = await callCrewTrigger({ thought: 't', kickoff_id: 'k1', meta: null }, { events: ['crew'] });
		expect(result.workflowData).toBeUndefined();
		expect(result.webhookResponse).toEqual({ received: true, ignored: 'step' });
	});

	it('ignores a body that is not a crew payload', async () => {
		const { result } = await callCrewTrigger('not json at all', { events: ['crew', 'task', 'step'] });
		expect(result.webhookResponse).toEqual({ received: true, ignored: 'unknown' });
	});
});

describe('Crew Trigger activation', () => {
	// Any use of n8n's hook context (a request, a stored registration) fails the test.
	const untouchable = new Proxy({}, {
		get: (_target, name) => {
			throw new Error(`activation used this.${String(name)}`);
		},
	});
	const activation = new CrewCallbackTrigger().webhookMethods.default;

	it('says the webhook exists, so n8n activates without calling create', async () => {
		await expect(activation.checkExists.call(untouchable)).resolves.toBe(true);
	});

	it('creates and deletes nothing on the service: it takes callback URLs per kickoff', async () => {
		await expect(activation.create.call(untouchable)).resolves.toBe(true);
		await expect(activation.delete.call(untouchable)).resolves.toBe(true);
	});
});
