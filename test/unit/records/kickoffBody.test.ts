import { DateTime } from 'luxon';

import { buildKickoffBody, buildResumeBody, findMissingInputs, readResumedRunId, InvalidParameterError, parseJsonObject, toInputText, toWireInputs, toFlowFieldValue, toFlowFieldValues, toFlowInputs, readRestoreFromStateId } from '../../../nodes/records/kickoffBody';

const STATE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('parseJsonObject', () => {
	it('accepts a JSON string, an object, and empty values', () => {
		expect(parseJsonObject('{"topic":"AI"}', 'Inputs')).toEqual({ topic: 'AI' });
		expect(parseJsonObject({ topic: 'AI' }, 'Inputs')).toEqual({ topic: 'AI' });
		expect(parseJsonObject('', 'Inputs')).toEqual({});
		expect(parseJsonObject(undefined, 'Inputs')).toEqual({});
	});

	it.each([
		['invalid JSON', '{topic: AI}', /not valid JSON/],
		['an array', '[1, 2]', /must be a JSON object, not an array/],
		['a scalar', '42', /not a number/],
		['a JSON null', 'null', /not null/],
		['a number value', 7, /not a number/],
	])('rejects %s with a message naming the problem', (_, value, message) => {
		expect(() => parseJsonObject(value, 'Inputs (JSON)')).toThrow(InvalidParameterError);
		expect(() => parseJsonObject(value, 'Inputs (JSON)')).toThrow(message);
	});
});

describe('toInputText: the conversion rules', () => {
	it.each([
		['a string', 'text', 'text'],
		['a number', 3.5, '3.5'],
		['zero', 0, '0'],
		['a boolean', false, 'false'],
		['a Date', new Date('2026-01-02T03:04:05.000Z'), '2026-01-02T03:04:05.000Z'],
		['an object', { a: [1, 'x'] }, '{"a":[1,"x"]}'],
		['an array', ['a', 'b'], '["a","b"]'],
	])('turns %s into text', (_, value, expected) => {
		expect(toInputText(value)).toBe(expected);
	});

	it('turns a Luxon DateTime (what n8n expressions give) into ISO 8601', () => {
		expect(toInputText(DateTime.fromISO('2026-01-02T03:04:05.000Z', { zone: 'utc' }))).toBe('2026-01-02T03:04:05.000Z');
	});

	it.each([null, undefined, ''])('leaves %p out', (value) => {
		expect(toInputText(value)).toBeUndefined();
	});

	it('converts a whole object, leaving out the empty values', () => {
		expect(toWireInputs({ topic: 'AI', pages: 3, draft: true, note: null, empty: '' })).toEqual({ topic: 'AI', pages: '3', draft: 'true' });
	});
});

describe('findMissingInputs', () => {
	it('names the required inputs without a value, in order', () => {
		expect(findMissingInputs(['topic', 'audience', 'tone'], { audience: 'devs', tone: '  ' })).toEqual(['topic', 'tone']);
	});
});

describe('buildKickoffBody', () => {
	it('sends only the inputs when no option is set', () => {
		expect(buildKickoffBody({ topic: 'AI' }, {})).toEqual({ inputs: { topic: 'AI' } });
	});

	it('adds meta (string or object) and the webhook URLs, trimmed', () => {
		expect(
			buildKickoffBody(
				{ topic: 'AI' },
				{ meta: '{"run": 1}', taskWebhookUrl: ' https://h/task ', stepWebhookUrl: '', crewWebhookUrl: 'https://h/crew' },
			),
		).toEqual({ inputs: { topic: 'AI' }, meta: { run: 1 }, taskWebhookUrl: 'https://h/task', crewWebhookUrl: 'https://h/crew' });
		expect(buildKickoffBody({}, { meta: { run: 2 } })).toEqual({ inputs: {}, meta: { run: 2 } });
	});

	it('rejects a meta that is not an object', () => {
		expect(() => buildKickoffBody({}, { meta: '[1]' })).toThrow(/Meta must be a JSON object/);
	});
});

describe('the webhook secret', () => {
	it('travels in meta, beside the user\'s own meta', () => {
		expect(buildKickoffBody({}, { meta: '{"run": 1}', webhookSecret: ' s3cret ' })).toEqual({ inputs: {}, meta: { run: 1, webhook_secret: 's3cret' } });
	});
});

describe('buildResumeBody', () => {
	it('sends every field in both spellings (the documents\' snake_case, the live service\'s camelCase), and the webhook URLs again', () => {
		expect(
			buildResumeBody({ kickoffId: 'k1', taskId: 'research_task', humanFeedback: 'Looks good', isApprove: false, crewWebhookUrl: 'https://h/crew', taskWebhookUrl: '', humanInputWebhookUrl: ' https://h/human ' }),
		).toEqual({
			executionId: 'k1',
			execution_id: 'k1',
			taskId: 'research_task',
			task_id: 'research_task',
			humanFeedback: 'Looks good',
			human_feedback: 'Looks good',
			isApprove: false,
			is_approve: false,
			crewWebhookUrl: 'https://h/crew',
			humanInputWebhookUrl: 'https://h/human',
		});
		expect(buildResumeBody({ kickoffId: 'k1', taskId: 't', humanFeedback: '', isApprove: true, humanInputWebhookUrl: '  ' })).not.toHaveProperty('humanInputWebhookUrl');
	});
});

describe('readResumedRunId', () => {
	it('reads the live answer\'s new kickoff id; the documented answer names none', () => {
		expect(readResumedRunId({ kickoff_id: 'new-1' })).toBe('new-1');
		expect(readResumedRunId({ kickoffId: ' new-2 ' })).toBe('new-2');
		for (const answer of [{ status: 'resumed', message: 'Execution resumed successfully' }, { kickoff_id: '' }, { kickoff_id: 7 }, 'text', null]) {
			expect(readResumedRunId(answer)).toBeUndefined();
		}
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

describe('readRestoreFromStateId', () => {
	it('gives the trimmed id, and undefined for empty, null or absent', () => {
		expect(readRestoreFromStateId(`  ${STATE_ID}\n`)).toBe(STATE_ID);
		expect([undefined, null, '', '   '].map(readRestoreFromStateId)).toEqual([undefined, undefined, undefined, undefined]);
	});

	it('refuses anything else naming the option, showing the value, and saying nothing was sent', () => {
		const refusal = (value: unknown) => {
			try {
				readRestoreFromStateId(value);
			} catch (error) {
				return error as InvalidParameterError;
			}
			throw new Error(`accepted ${String(value)}`);
		};
		const text = refusal('test 1');
		expect(text).toBeInstanceOf(InvalidParameterError);
		expect(text.message).toBe('Restore From State ID is not a UUID: "test 1"');
		expect(text.description).toMatch(/UUID such as .*No request was sent for this item\.$/);
		expect(refusal(42).message).toBe('Restore From State ID is not a UUID: a number');
		expect(refusal({ id: STATE_ID }).message).toBe('Restore From State ID is not a UUID: an object');
		expect(refusal('x'.repeat(500)).message.length).toBeLessThan(140);
	});
});

describe('buildKickoffBody with Restore From State ID', () => {
	it('sends the id at the top level beside inputs, never inside them', () => {
		expect(buildKickoffBody({ topic: 'AI' }, { restoreFromStateId: STATE_ID })).toEqual({ inputs: { topic: 'AI' }, restoreFromStateId: STATE_ID });
	});

	it('leaves it out when empty, and sends an input named id as given (the user\'s data)', () => {
		expect(buildKickoffBody({ id: 'test 1' }, { restoreFromStateId: '' })).toEqual({ inputs: { id: 'test 1' } });
	});

	it('throws for an invalid id before building anything', () => {
		expect(() => buildKickoffBody({}, { restoreFromStateId: 'last run' })).toThrow(InvalidParameterError);
	});
});
