import { extractFromAICalls } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { detectDeployment, flowInputs, offeredInputs, readCrewInputs, resolveDeployment } from '../../nodes/records/crewInputs';
import { readCrewStatus } from '../../nodes/records/crewStatus';
import { InvalidParameterError, toFlowFieldValue, toFlowFieldValues, toFlowInputs } from '../../nodes/records/kickoffBody';
import { callbackStreamField, hashCallbackToken, isFlowEndEvent, readCallback } from '../../nodes/waiting/callbackWait';
import { fromAiDefault, toolFieldDefault } from '../../nodes/Crew/methods/toolParameters';

const KICKOFF_ID = '97eba64f-958c-40a0-b61c-625fe635a3c0';

describe('telling a flow from a crew by its inputs listing', () => {
	it('reads a listing that names id and requires nothing as a flow: the live names-only answer, and objects with required false', () => {
		expect(detectDeployment({ inputs: ['topic', 'count', 'id', 'history'] })).toBe('flow');
		expect(detectDeployment({ inputs: [{ name: 'id', type: 'str', required: false }, { name: 'topic', required: false }] })).toBe('flow');
		expect(detectDeployment({ inputs: [{ name: 'id' }, 'topic'] })).toBe('flow');
	});

	it('reads every other listing as a crew: no id, or an input that is required', () => {
		expect(detectDeployment({ inputs: ['topic', 'audience'] })).toBe('crew');
		expect(detectDeployment({ inputs: [] })).toBe('crew');
		expect(detectDeployment({ inputs: [{ name: 'id', required: true }] })).toBe('crew');
		expect(detectDeployment({ inputs: ['id', { name: 'topic', required: true }] })).toBe('crew');
		expect(detectDeployment('<html></html>')).toBe('crew');
	});

	it('takes an explicit choice over what the listing shows', () => {
		expect(resolveDeployment('crew', { inputs: ['topic', 'id'] })).toBe('crew');
		expect(resolveDeployment('flow', { inputs: ['topic'] })).toBe('flow');
		expect(resolveDeployment('detect', { inputs: ['topic', 'id'] })).toBe('flow');
		expect(resolveDeployment(undefined, { inputs: ['topic'] })).toBe('crew');
	});

	it('offers a flow\'s fields optional and without id, keeping types and defaults; a crew\'s as listed', () => {
		const listing = { inputs: [{ name: 'topic', type: 'str', required: false, default: 'AI' }, { name: 'id', type: 'str', required: false }, { name: 'history', type: 'list', required: false, default: [] }] };
		expect(offeredInputs('flow', listing)).toEqual([
			{ name: 'topic', type: 'str', required: false, default: 'AI' },
			{ name: 'history', type: 'list', required: false, default: [] },
		]);
		expect(flowInputs(readCrewInputs({ inputs: ['topic', 'id'] }))).toEqual([{ name: 'topic', type: 'string', required: false }]);
		expect(offeredInputs('crew', { inputs: ['topic', 'id'] })).toEqual([
			{ name: 'topic', type: 'string', required: true },
			{ name: 'id', type: 'string', required: true },
		]);
	});
});

describe('a flow\'s inputs as sent', () => {
	it('keeps JSON types in JSON mode, dates as ISO 8601, and leaves empty values out', () => {
		expect(toFlowInputs({ topic: 't', count: 2, draft: false, history: ['one'], filters: { a: 1 }, note: null, empty: '', gone: undefined })).toEqual({
			topic: 't',
			count: 2,
			draft: false,
			history: ['one'],
			filters: { a: 1 },
		});
		expect(toFlowInputs({ when: DateTime.fromISO('2026-01-02T03:04:05.000Z', { zone: 'utc' }), at: new Date('2026-01-02T03:04:05.000Z') })).toEqual({
			when: '2026-01-02T03:04:05.000Z',
			at: '2026-01-02T03:04:05.000Z',
		});
		// An id the user gives in JSON mode goes out as it is (the deprecated resume; the service answers a non-UUID with 422).
		expect(toFlowInputs({ id: 'test 1' })).toEqual({ id: 'test 1' });
	});

	it('reads mapped text by its field\'s type: numbers, booleans, JSON lists and objects', () => {
		expect(toFlowFieldValue('count', 'number', '2')).toBe(2);
		expect(toFlowFieldValue('count', 'number', 2)).toBe(2);
		expect(toFlowFieldValue('draft', 'boolean', 'true')).toBe(true);
		expect(toFlowFieldValue('history', 'array', '["one", "two"]')).toEqual(['one', 'two']);
		expect(toFlowFieldValue('history', 'array', ['one'])).toEqual(['one']);
		expect(toFlowFieldValue('filters', 'object', '{"a": 1}')).toEqual({ a: 1 });
		expect(toFlowFieldValue('topic', 'string', 'tides')).toBe('tides');
	});

	it('parses JSON list or object text in a text field (the type of every field of a names-only listing); other text stays', () => {
		expect(toFlowFieldValue('history', 'string', ' ["one"] ')).toEqual(['one']);
		expect(toFlowFieldValue('history', undefined, '{"a": 1}')).toEqual({ a: 1 });
		expect(toFlowFieldValue('topic', 'string', '[draft] tides')).toBe('[draft] tides');
		expect(toFlowFieldValue('topic', 'string', '42')).toBe('42');
	});

	it('refuses text a list, object or number field cannot take, naming the field, before any request', () => {
		expect(() => toFlowFieldValue('history', 'array', 'one, two')).toThrow(InvalidParameterError);
		expect(() => toFlowFieldValue('history', 'array', '{"a": 1}')).toThrow(/The flow's field history takes a JSON list, not "\{"a": 1\}"/);
		expect(() => toFlowFieldValue('filters', 'object', '[1]')).toThrow(/takes a JSON object/);
		expect(() => toFlowFieldValue('count', 'number', 'two')).toThrow(/takes a number, not "two"/);
	});

	it('sends only the mapped fields that have a value', () => {
		expect(toFlowFieldValues({ topic: 't', count: '', history: null, note: '  ' }, { topic: 'string', count: 'number', history: 'array' })).toEqual({ topic: 't' });
		expect(toFlowFieldValues({ count: '3', history: '["a"]' }, { count: 'number', history: 'array' })).toEqual({ count: 3, history: ['a'] });
	});
});

describe('a flow\'s final state id', () => {
	it('falls back to the kickoff id for a completed flow whose record carries no state (live: the final method\'s text)', () => {
		const live = { state: 'SUCCESS', status: null, result: 'Flow finished', result_json: null };
		expect(readCrewStatus(KICKOFF_ID, live, 'flow')).toMatchObject({ state: 'completed', result: 'Flow finished', flow_state: { id: KICKOFF_ID } });
	});

	it('keeps a state the record carries, and gives none for a crew, a running flow or a failed one', () => {
		const state = { id: '123e4567-e89b-42d3-a456-426614174000', topic: 't' };
		expect(readCrewStatus(KICKOFF_ID, { state: 'SUCCESS', result: state, result_json: state }, 'flow').flow_state).toEqual(state);
		expect(readCrewStatus(KICKOFF_ID, { state: 'SUCCESS', result: 'text' })).not.toHaveProperty('flow_state');
		expect(readCrewStatus(KICKOFF_ID, { state: 'SUCCESS', result: 'text' }, 'crew')).not.toHaveProperty('flow_state');
		expect(readCrewStatus(KICKOFF_ID, { state: 'RUNNING' }, 'flow')).not.toHaveProperty('flow_state');
		expect(readCrewStatus(KICKOFF_ID, { state: 'FAILED', status: 'boom' }, 'flow')).not.toHaveProperty('flow_state');
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

describe('a flow field as an AI agent\'s tool parameter', () => {
	it('is optional text with an empty default (the one default n8n\'s schema takes as it is), its type told in the description', () => {
		expect(extractFromAICalls(fromAiDefault('topic', 'string', true))).toEqual([
			{ key: 'topic', description: 'The flow\'s state field "topic" (optional: leave it out to keep the flow\'s default)', type: 'string', defaultValue: '' },
		]);
		expect(extractFromAICalls(fromAiDefault('count', 'number', true))[0]).toMatchObject({ type: 'string', defaultValue: '', description: expect.stringContaining('"count", a number (optional') });
		expect(extractFromAICalls(fromAiDefault('history', 'array', true))[0]).toMatchObject({ type: 'string', defaultValue: '', description: expect.stringContaining('a JSON list such as ["a", "b"]') });
		expect(toolFieldDefault('history', 'array', undefined, true)).toBe(fromAiDefault('history', 'array', true));
		// A crew's stays required, as before.
		expect(extractFromAICalls(fromAiDefault('topic', 'string'))[0].defaultValue).toBeUndefined();
	});
});
