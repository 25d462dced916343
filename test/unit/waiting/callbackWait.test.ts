import {
	bearerMatches,
	callbackRefusal,
	callbackStreamField,
	firstPhaseDeadline,
	hashCallbackToken,
	newCallbackToken,
	readCallback,
	readFirstPhaseMs,
	shouldPark,
	timeoutMarker,
	waitingRecord,
	isFlowEndEvent,
	callbackHumanInputField,
} from '../../../nodes/waiting/callbackWait';
import type { CrewStatus } from '../../../nodes/status/crewStatus';

const RESUME_URL_2X = 'http://localhost:5678/webhook-waiting/42?signature=0a1b2c3d4e5f';
const TOKEN = newCallbackToken();
const AWAITED = { kickoffId: 'kick-1', tokenHash: hashCallbackToken(TOKEN) };
const BEARER = `Bearer ${TOKEN}`;

function running(): CrewStatus {
	return { kickoff_id: 'kick-1', state: 'running', result: null, result_json: null, error: null, task_id: null, response: {} };
}

const KICKOFF_ID = '97eba64f-958c-40a0-b61c-625fe635a3c0';

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

describe('bearerMatches', () => {
	it('accepts the token the kickoff sent, whatever the scheme case', () => {
		expect(bearerMatches(BEARER, AWAITED.tokenHash)).toBe(true);
		expect(bearerMatches(`bearer ${TOKEN}`, AWAITED.tokenHash)).toBe(true);
	});

	it.each([
		['no header', undefined],
		['empty', ''],
		['another token', `Bearer ${newCallbackToken()}`],
		['the token cut short', `Bearer ${TOKEN.slice(0, 63)}`],
		['the hash itself', `Bearer ${AWAITED.tokenHash}`],
		['basic auth', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`],
		['the token without a scheme', TOKEN],
	])('refuses %s', (_, header) => {
		expect(bearerMatches(header, AWAITED.tokenHash)).toBe(false);
	});
});

describe('readCallback', () => {
	const completed = { id: 'e1', execution_id: 'kick-1', timestamp: '2026-01-01T00:00:00Z', type: 'crew_kickoff_completed', data: {} };
	const failed = { ...completed, type: 'crew_kickoff_failed', data: { error: 'boom' } };
	const task = { ...completed, type: 'task_completed' };

	it('reads the stream wrapper and a single event alike as the final call', () => {
		expect(readCallback({ body: { events: [completed] }, authorization: BEARER }, AWAITED)).toEqual({ kind: 'final', eventType: 'crew_kickoff_completed' });
		expect(readCallback({ body: failed, authorization: BEARER }, AWAITED)).toEqual({ kind: 'final', eventType: 'crew_kickoff_failed' });
	});

	it('finds the terminal event anywhere in a batch', () => {
		expect(readCallback({ body: { events: [task, failed] }, authorization: BEARER }, AWAITED)).toMatchObject({ kind: 'final' });
	});

	it('keeps waiting on a task or unknown event', () => {
		expect(readCallback({ body: { events: [task, { ...task, type: 'report_draft_ready' }] }, authorization: BEARER }, AWAITED)).toEqual({ kind: 'notFinal' });
	});

	it('refuses a wrong token before looking at the body', () => {
		expect(readCallback({ body: { events: [completed] }, authorization: 'Bearer nope' }, AWAITED)).toMatchObject({ kind: 'rejected', statusCode: 401 });
		expect(readCallback({ body: 'junk', authorization: undefined }, AWAITED)).toMatchObject({ kind: 'rejected', statusCode: 401 });
	});

	it.each([
		['execution_id', { ...completed, execution_id: 'kick-2' }],
		['kickoff_id', { ...completed, execution_id: undefined, kickoff_id: 'kick-2' }],
		['data.kickoff_id', { ...completed, execution_id: undefined, data: { kickoff_id: 'kick-2' } }],
	])('refuses a call whose %s names another kickoff', (_, event) => {
		expect(readCallback({ body: { events: [event] }, authorization: BEARER }, AWAITED)).toMatchObject({ kind: 'rejected', statusCode: 409 });
	});

	it('refuses a batch that mixes in another kickoff, even with this one\'s end', () => {
		const other = { ...task, execution_id: 'kick-2' };
		expect(readCallback({ body: { events: [completed, other] }, authorization: BEARER }, AWAITED)).toMatchObject({ kind: 'rejected', statusCode: 409 });
	});

	it('accepts an authentic final event that names no kickoff (the status read confirms it)', () => {
		const { execution_id: _omitted, ...anonymous } = completed;
		expect(readCallback({ body: { events: [anonymous] }, authorization: BEARER }, AWAITED)).toMatchObject({ kind: 'final' });
	});

	it.each([['text', 'hello'], ['an array', [completed]], ['an object with no events', { hello: 1 }]])('answers 400 to a body that is %s', (_, body) => {
		expect(readCallback({ body, authorization: BEARER }, AWAITED)).toMatchObject({ kind: 'rejected', statusCode: 400 });
	});
});

describe('first phase', () => {
	it('polls for the first phase, never past the timeout', () => {
		expect(firstPhaseDeadline(1_000, 600_000, 10_000)).toBe(11_000);
		expect(firstPhaseDeadline(1_000, 5_000, 10_000)).toBe(6_000);
		expect(firstPhaseDeadline(1_000, 600_000, 0)).toBe(1_000);
	});

	it('parks only a batch with a crew still running, before the timeout', () => {
		const waitTill = 100_000;
		const completed = { kind: 'completed' as const, status: { ...running(), state: 'completed' as const } };
		expect(shouldPark([{ kind: 'running', lastStatus: running() }], 11_000, waitTill)).toBe(true);
		expect(shouldPark([completed, { kind: 'running' }], 11_000, waitTill)).toBe(true);
		expect(shouldPark([{ kind: 'running' }], waitTill, waitTill)).toBe(false);
		expect(shouldPark([completed, { kind: 'failed', status: { ...running(), state: 'failed' } }], 11_000, waitTill)).toBe(false);
		expect(shouldPark([{ kind: 'paused', status: { ...running(), state: 'paused' } }], 11_000, waitTill)).toBe(false);
		expect(shouldPark([{ kind: 'error', error: new Error('401') }, { kind: 'timedOut' }], 11_000, waitTill)).toBe(false);
		expect(shouldPark([], 11_000, waitTill)).toBe(false);
	});

	it.each([
		[undefined, 10_000],
		['', 10_000],
		[0, 0],
		[2.5, 2_500],
		[-3, 0],
		[10_000, 300_000],
	])('reads First Phase %p as %p ms', (value, expected) => {
		expect(readFirstPhaseMs(value)).toBe(expected);
	});
});

describe('timeout marker', () => {
	it('says what happened, what to do and which kickoff, and holds no token', () => {
		const marker = timeoutMarker(AWAITED, 3_600_000);
		expect(marker.message).toBe('The crew did not call back within 3600 seconds (kickoff ID kick-1)');
		expect(marker.description).toContain('Get Status operation and kickoff ID kick-1');
		expect(marker.json).toEqual({ error: marker.message, description: marker.description, kickoff_id: 'kick-1', callback_token_sha256: AWAITED.tokenHash });
		expect(JSON.stringify(marker)).not.toContain(TOKEN);
	});

	it('shows the wait while parked', () => {
		expect(waitingRecord('kick-1', Date.UTC(2026, 0, 1))).toEqual({
			kickoff_id: 'kick-1',
			state: 'running',
			waiting_for: 'callback',
			wait_till: '2026-01-01T00:00:00.000Z',
			message: expect.stringContaining('kickoff ID kick-1.'),
		});
	});
});

describe('callbackRefusal', () => {
	it('allows any number of items in a workflow: the batch parks once', () => {
		expect(callbackRefusal('n8n-nodes-crewai.crew')).toBeUndefined();
	});

	it('refuses the AI tool variant', () => {
		expect(callbackRefusal('n8n-nodes-crewai.crewTool')?.message).toContain('AI tool');
	});
});

describe('Wait By: Callback for a flow', () => {
	const TOKEN = 'a'.repeat(64);
	const awaited = { kickoffId: KICKOFF_ID, tokenHash: hashCallbackToken(TOKEN) };
	const call = (type: string) => ({ body: { events: [{ id: 'e1', execution_id: KICKOFF_ID, timestamp: '2026-10-01T00:00:00.000Z', type, data: {} }] }, authorization: `Bearer ${TOKEN}` });

	it('asks a flow\'s stream for the events that end a flow, and a crew\'s for a crew\'s, as before', () => {
		expect(callbackStreamField('http://n8n/resume', TOKEN, 'flow').events).toEqual(['flow_finished', 'flow_failed', 'method_execution_failed']);
		expect(callbackStreamField('http://n8n/resume', TOKEN, 'crew').events).toEqual(['crew_kickoff_completed', 'crew_kickoff_failed']);
		expect(callbackStreamField('http://n8n/resume', TOKEN).events).toEqual(['crew_kickoff_completed', 'crew_kickoff_failed']);
	});

	it('takes flow_finished, flow_failed and method_execution_failed as the end; other flow events are not', () => {
		for (const type of ['flow_finished', 'flow_failed', 'method_execution_failed']) {
			expect(readCallback(call(type), awaited)).toEqual({ kind: 'final', eventType: type });
			expect(isFlowEndEvent(type)).toBe(true);
		}
		expect(readCallback(call('method_execution_finished'), awaited)).toEqual({ kind: 'notFinal' });
		expect(isFlowEndEvent('crew_kickoff_completed')).toBe(false);
	});
});

describe('callbackHumanInputField', () => {
	const resumeUrl = 'https://n8n.example.com/webhook-waiting/42?signature=abc';

	it('hands a crew the resume URL as humanInputWebhookUrl, without auth', () => {
		expect(callbackHumanInputField({ inputs: {} }, resumeUrl)).toEqual({ humanInputWebhookUrl: resumeUrl });
	});

	it('leaves the user\'s own Human Input Webhook URL in place, and adds nothing for a flow', () => {
		expect(callbackHumanInputField({ humanInputWebhookUrl: 'https://n8n.example.com/webhook/trigger' }, resumeUrl)).toEqual({});
		expect(callbackHumanInputField({ inputs: {} }, resumeUrl, 'flow')).toEqual({});
	});
});
