import { InvalidParameterError } from '../../../nodes/records/invalidParameter';
import { parseJsonObject } from '../../../nodes/records/jsonInput';

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
