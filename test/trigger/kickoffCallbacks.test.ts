/**
 * The Crew node asks the reference service for its callback channels: the
 * event stream and the human-input webhook, secrets from the Crew API
 * credential's Callbacks section.
 */
import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewNodeExpectingError } from '../helpers/executeFunctions';

const crew = useCrewService();
const CALLBACK_TOKEN = 'cb-tok-DISTINCTIVE-71c0d2';
const withCallbackCredential = () => ({
	...crew.credentials,
	bearerToken: CALLBACK_TOKEN,
	basicUser: 'crewai',
	basicPassword: 'pw-DISTINCTIVE-93a1',
});

const kickoff = (options: object, credentials: object = withCallbackCredential()) => ({
	parameters: {
		operation: 'kickoff',
		inputsMode: 'json',
		inputsJson: '{"topic": "streams"}',
		options,
	},
	credentials: credentials as typeof crew.credentials,
});

describe("Kickoff with the service's callback channels", () => {
	it("requests the event stream with the credential's token, and keeps the token out of the output", async () => {
		const { output } = await runCrewNode(
			kickoff({
				eventStreamUrl: 'http://127.0.0.1:9/webhook/crew',
				eventStreamEvents: ['runFinished', 'task'],
				eventStreamAdditionalTypes: 'report_draft_ready',
				eventStreamRealtime: true,
			}),
		);
		const [run] = crew.service.runs;
		expect(output[0].json.kickoff_id).toBe(run.kickoffId);
		expect(run.callbacks.stream).toEqual({
			url: 'http://127.0.0.1:9/webhook/crew',
			events: [
				'crew_kickoff_completed',
				'crew_kickoff_failed',
				'flow_finished',
				'method_execution_failed',
				'task_started',
				'task_completed',
				'task_failed',
				'task_evaluation',
				'report_draft_ready',
			],
			realtime: true,
			auth: 'bearer',
		});
		expect(JSON.stringify(output)).not.toContain(CALLBACK_TOKEN);
	});

	it('requests the human-input webhook with basic auth', async () => {
		await runCrewNode(
			kickoff({
				humanInputWebhookUrl: 'http://127.0.0.1:9/webhook/crew',
				humanInputWebhookAuth: 'basic',
			}),
		);
		expect(crew.service.runs[0].callbacks.humanInput).toEqual({
			url: 'http://127.0.0.1:9/webhook/crew',
			auth: 'basic',
		});
	});

	it('gives an item error naming the option for a URL that is not absolute, and sends nothing', async () => {
		const error = await runCrewNodeExpectingError(
			kickoff({ eventStreamUrl: 'n8n.example.com/webhook/crew' }),
		);
		expect(error.message).toMatch(/^Event Stream URL is not an absolute http\(s\) URL/);
		expect(crew.service.count('kickoff')).toBe(0);
	});

	it('gives an item error when the credential has no callback bearer token, or no callback secret at all, and sends nothing', async () => {
		const basicOnly = {
			...crew.credentials,
			basicUser: 'crewai',
			basicPassword: 'pw-DISTINCTIVE-17',
		};
		const error = await runCrewNodeExpectingError(
			kickoff({ eventStreamUrl: 'http://127.0.0.1:9/x' }, basicOnly),
		);
		expect(error.message).toBe('The Crew API credential has no Callback Bearer Token');
		expect(error.description).toMatch(/Callbacks section/);
		const none = await runCrewNodeExpectingError(
			kickoff({ eventStreamUrl: 'http://127.0.0.1:9/x' }, crew.credentials),
		);
		expect(none.message).toBe('The Crew API credential has no Callback Bearer Token');
		expect(crew.service.count('kickoff')).toBe(0);
	});

	it('Kickoff and Wait sends the same webhooks object', async () => {
		const { output } = await runCrewNode({
			parameters: {
				operation: 'kickoffAndWait',
				inputsMode: 'json',
				inputsJson: '{"topic": "w"}',
				options: { eventStreamUrl: 'http://127.0.0.1:9/x' },
			},
			credentials: withCallbackCredential(),
		});
		expect(output[0].json).toMatchObject({ kickoff_id: crew.service.runs[0].kickoffId });
		expect(crew.service.runs[0].callbacks.stream).toMatchObject({
			events: [
				'crew_kickoff_completed',
				'crew_kickoff_failed',
				'flow_finished',
				'method_execution_failed',
			],
		});
	});
});
