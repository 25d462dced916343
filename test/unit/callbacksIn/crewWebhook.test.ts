import {
	carriesSecret,
	classifyCrewEvent,
	toTriggerItem,
} from '../../../nodes/callbacksIn/crewWebhook';

// The three legacy payloads (docs/development/service-api.md#legacy-webhooks).
const step = {
	prompt: 'p',
	thought: 't',
	tool: 'search',
	tool_input: 'q',
	result: 'r',
	kickoff_id: 'k1',
	meta: { run: 1 },
};
const task = {
	description: 'd',
	name: 'research_task',
	expected_output: 'e',
	summary: 's',
	agent: 'Researcher',
	output: 'o',
	output_json: null,
	kickoff_id: 'k1',
	meta: null,
};
const crew = {
	kickoff_id: 'k1',
	result: 'Final',
	result_json: { a: 1 },
	token_usage: { total_tokens: 3, prompt_tokens: 2, completion_tokens: 1 },
	meta: { run: 1 },
};

describe('classifyCrewEvent', () => {
	it('tells the step, task and crew payloads apart', () => {
		expect([step, task, crew].map(classifyCrewEvent)).toEqual(['step', 'task', 'crew']);
	});

	it("reads a failed crew's payload as a crew event, and an unrelated body as nothing", () => {
		expect(classifyCrewEvent({ kickoff_id: 'k', result: null, error: 'boom' })).toBe('crew');
		expect(classifyCrewEvent({ hello: 'world' })).toBeUndefined();
	});
});

describe('carriesSecret', () => {
	it('accepts anything when no secret is set', () => {
		expect(carriesSecret(crew, '')).toBe(true);
	});

	it('accepts only the same secret in meta', () => {
		expect(carriesSecret({ ...crew, meta: { webhook_secret: 's3cret' } }, 's3cret')).toBe(true);
		expect(carriesSecret({ ...crew, meta: { webhook_secret: 's3creT' } }, 's3cret')).toBe(false);
		expect(carriesSecret({ ...crew, meta: { webhook_secret: 's3cret-and-more' } }, 's3cret')).toBe(
			false,
		);
		expect(carriesSecret({ ...crew, meta: null }, 's3cret')).toBe(false);
		expect(carriesSecret({ ...crew, meta: { webhook_secret: 42 } }, 's3cret')).toBe(false);
	});
});

describe('toTriggerItem', () => {
	it('passes the payload through with event, kickoff_id and meta on top, without the secret', () => {
		expect(toTriggerItem('crew', { ...crew, meta: { run: 1, webhook_secret: 's3cret' } })).toEqual({
			event: 'crew',
			...crew,
			meta: { run: 1 },
		});
	});

	it('gives null for a missing kickoff_id or meta', () => {
		expect(toTriggerItem('step', { thought: 't' })).toEqual({
			event: 'step',
			thought: 't',
			kickoff_id: null,
			meta: null,
		});
	});
});
