import { DateTime } from 'luxon';

import { findMissingInputs, toInputText, toWireInputs } from '../../../nodes/records/inputText';

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
		expect(toInputText(DateTime.fromISO('2026-01-02T03:04:05.000Z', { zone: 'utc' }))).toBe(
			'2026-01-02T03:04:05.000Z',
		);
	});

	it.each([null, undefined, ''])('leaves %p out', (value) => {
		expect(toInputText(value)).toBeUndefined();
	});

	it('converts a whole object, leaving out the empty values', () => {
		expect(toWireInputs({ topic: 'AI', pages: 3, draft: true, note: null, empty: '' })).toEqual({
			topic: 'AI',
			pages: '3',
			draft: 'true',
		});
	});
});

describe('findMissingInputs', () => {
	it('names the required inputs without a value, in order', () => {
		expect(
			findMissingInputs(['topic', 'audience', 'tone'], { audience: 'devs', tone: '  ' }),
		).toEqual(['topic', 'tone']);
	});
});
