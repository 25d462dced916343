import { DateTime } from 'luxon';

import { InvalidParameterError } from '../../../nodes/records/invalidParameter';
import {
	toFlowFieldValue,
	toFlowFieldValues,
	toFlowInputs,
} from '../../../nodes/records/flowInputs';

describe("a flow's inputs as sent", () => {
	it('keeps JSON types in JSON mode, dates as ISO 8601, and leaves empty values out', () => {
		expect(
			toFlowInputs({
				topic: 't',
				count: 2,
				draft: false,
				history: ['one'],
				filters: { a: 1 },
				note: null,
				empty: '',
				gone: undefined,
			}),
		).toEqual({
			topic: 't',
			count: 2,
			draft: false,
			history: ['one'],
			filters: { a: 1 },
		});
		expect(
			toFlowInputs({
				when: DateTime.fromISO('2026-01-02T03:04:05.000Z', { zone: 'utc' }),
				at: new Date('2026-01-02T03:04:05.000Z'),
			}),
		).toEqual({
			when: '2026-01-02T03:04:05.000Z',
			at: '2026-01-02T03:04:05.000Z',
		});
		// An id the user gives in JSON mode goes out as it is (the deprecated resume; the service answers a non-UUID with 422).
		expect(toFlowInputs({ id: 'test 1' })).toEqual({ id: 'test 1' });
	});

	it("reads mapped text by its field's type: numbers, booleans, JSON lists and objects", () => {
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
		expect(() => toFlowFieldValue('history', 'array', '{"a": 1}')).toThrow(
			/The flow's field history takes a JSON list, not "\{"a": 1\}"/,
		);
		expect(() => toFlowFieldValue('filters', 'object', '[1]')).toThrow(/takes a JSON object/);
		expect(() => toFlowFieldValue('count', 'number', 'two')).toThrow(/takes a number, not "two"/);
	});

	it('sends only the mapped fields that have a value', () => {
		expect(
			toFlowFieldValues(
				{ topic: 't', count: '', history: null, note: '  ' },
				{ topic: 'string', count: 'number', history: 'array' },
			),
		).toEqual({ topic: 't' });
		expect(
			toFlowFieldValues({ count: '3', history: '["a"]' }, { count: 'number', history: 'array' }),
		).toEqual({ count: 3, history: ['a'] });
	});
});
