import {
	bearerMatches,
	isFlowEndEvent,
	readCallback,
} from '../../../nodes/callbacksIn/callbackVerdict';
import { hashCallbackToken, newCallbackToken } from '../../../nodes/callbacksOut/resumeCallbacks';

const TOKEN = newCallbackToken();
const AWAITED = { kickoffId: 'kick-1', tokenHash: hashCallbackToken(TOKEN) };
const BEARER = `Bearer ${TOKEN}`;

const KICKOFF_ID = '97eba64f-958c-40a0-b61c-625fe635a3c0';

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
	const completed = {
		id: 'e1',
		execution_id: 'kick-1',
		timestamp: '2026-01-01T00:00:00Z',
		type: 'crew_kickoff_completed',
		data: {},
	};
	const failed = { ...completed, type: 'crew_kickoff_failed', data: { error: 'boom' } };
	const task = { ...completed, type: 'task_completed' };

	it('reads the stream wrapper and a single event alike as the final call', () => {
		expect(readCallback({ body: { events: [completed] }, authorization: BEARER }, AWAITED)).toEqual(
			{ kind: 'final', eventType: 'crew_kickoff_completed' },
		);
		expect(readCallback({ body: failed, authorization: BEARER }, AWAITED)).toEqual({
			kind: 'final',
			eventType: 'crew_kickoff_failed',
		});
	});

	it('finds the terminal event anywhere in a batch', () => {
		expect(
			readCallback({ body: { events: [task, failed] }, authorization: BEARER }, AWAITED),
		).toMatchObject({ kind: 'final' });
	});

	it('keeps waiting on a task or unknown event', () => {
		expect(
			readCallback(
				{
					body: { events: [task, { ...task, type: 'report_draft_ready' }] },
					authorization: BEARER,
				},
				AWAITED,
			),
		).toEqual({ kind: 'notFinal' });
	});

	it('refuses a wrong token before looking at the body', () => {
		expect(
			readCallback({ body: { events: [completed] }, authorization: 'Bearer nope' }, AWAITED),
		).toMatchObject({ kind: 'rejected', statusCode: 401 });
		expect(readCallback({ body: 'junk', authorization: undefined }, AWAITED)).toMatchObject({
			kind: 'rejected',
			statusCode: 401,
		});
	});

	it.each([
		['execution_id', { ...completed, execution_id: 'kick-2' }],
		['kickoff_id', { ...completed, execution_id: undefined, kickoff_id: 'kick-2' }],
		['data.kickoff_id', { ...completed, execution_id: undefined, data: { kickoff_id: 'kick-2' } }],
	])('refuses a call whose %s names another kickoff', (_, event) => {
		expect(
			readCallback({ body: { events: [event] }, authorization: BEARER }, AWAITED),
		).toMatchObject({ kind: 'rejected', statusCode: 409 });
	});

	it("refuses a batch that mixes in another kickoff, even with this one's end", () => {
		const other = { ...task, execution_id: 'kick-2' };
		expect(
			readCallback({ body: { events: [completed, other] }, authorization: BEARER }, AWAITED),
		).toMatchObject({ kind: 'rejected', statusCode: 409 });
	});

	it('accepts an authentic final event that names no kickoff (the status read confirms it)', () => {
		const { execution_id: _omitted, ...anonymous } = completed;
		expect(
			readCallback({ body: { events: [anonymous] }, authorization: BEARER }, AWAITED),
		).toMatchObject({ kind: 'final' });
	});

	it.each([
		['text', 'hello'],
		['an array', [completed]],
		['an object with no events', { hello: 1 }],
	])('answers 400 to a body that is %s', (_, body) => {
		expect(readCallback({ body, authorization: BEARER }, AWAITED)).toMatchObject({
			kind: 'rejected',
			statusCode: 400,
		});
	});
});

describe('Wait By: Callback for a flow', () => {
	const TOKEN = 'a'.repeat(64);
	const awaited = { kickoffId: KICKOFF_ID, tokenHash: hashCallbackToken(TOKEN) };
	const call = (type: string) => ({
		body: {
			events: [
				{
					id: 'e1',
					execution_id: KICKOFF_ID,
					timestamp: '2026-10-01T00:00:00.000Z',
					type,
					data: {},
				},
			],
		},
		authorization: `Bearer ${TOKEN}`,
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
