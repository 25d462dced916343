import {
	callbackHumanInputField,
	callbackStreamField,
	newCallbackToken,
} from '../../../nodes/callbacksOut/resumeCallbacks';

const RESUME_URL_2X = 'http://localhost:5678/webhook-waiting/42?signature=0a1b2c3d4e5f';
const TOKEN = newCallbackToken();

describe('callbackStreamField', () => {
	it('hands the resume URL over exactly as given, query string included, with both terminal events and the bearer token', () => {
		expect(callbackStreamField(RESUME_URL_2X, TOKEN)).toEqual({
			events: ['crew_kickoff_completed', 'crew_kickoff_failed'],
			url: RESUME_URL_2X,
			realtime: true,
			authentication: { strategy: 'bearer', token: TOKEN },
		});
	});

	it('makes a new 256-bit token for every kickoff', () => {
		const tokens = new Set(Array.from({ length: 50 }, newCallbackToken));
		expect(tokens.size).toBe(50);
		for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{64}$/);
	});
});

describe('Wait By: Callback for a flow', () => {
	const TOKEN = 'a'.repeat(64);

	it("asks a flow's stream for the events that end a flow, and a crew's for a crew's, as before", () => {
		expect(callbackStreamField('http://n8n/resume', TOKEN, 'flow').events).toEqual([
			'flow_finished',
			'flow_failed',
			'method_execution_failed',
		]);
		expect(callbackStreamField('http://n8n/resume', TOKEN, 'crew').events).toEqual([
			'crew_kickoff_completed',
			'crew_kickoff_failed',
		]);
		expect(callbackStreamField('http://n8n/resume', TOKEN).events).toEqual([
			'crew_kickoff_completed',
			'crew_kickoff_failed',
		]);
	});
});

describe('callbackHumanInputField', () => {
	const resumeUrl = 'https://n8n.example.com/webhook-waiting/42?signature=abc';

	it('hands a crew the resume URL as humanInputWebhookUrl, without auth', () => {
		expect(callbackHumanInputField({ inputs: {} }, resumeUrl)).toEqual({
			humanInputWebhookUrl: resumeUrl,
		});
	});

	it("leaves the user's own Human Input Webhook URL in place, and adds nothing for a flow", () => {
		expect(
			callbackHumanInputField(
				{ humanInputWebhookUrl: 'https://n8n.example.com/webhook/trigger' },
				resumeUrl,
			),
		).toEqual({});
		expect(callbackHumanInputField({ inputs: {} }, resumeUrl, 'flow')).toEqual({});
	});
});
