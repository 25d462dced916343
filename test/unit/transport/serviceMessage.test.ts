import { readMissingInputs, readServiceMessage } from '../../../nodes/transport/serviceMessage';

describe('readServiceMessage', () => {
	it('reads the documented error body', () => {
		expect(
			readServiceMessage({
				error: 'Validation Error',
				message: 'Missing required inputs',
				details: {},
			}),
		).toBe('Validation Error: Missing required inputs');
	});

	it('reads FastAPI detail as text and as a validation list', () => {
		expect(readServiceMessage({ detail: 'Kickoff not found' })).toBe('Kickoff not found');
		expect(
			readServiceMessage({
				detail: [
					{ loc: ['body', 'inputs', 'topic'], msg: 'Field required', type: 'missing' },
					{ loc: ['body'], msg: 'bad' },
				],
			}),
		).toBe('inputs.topic: Field required; bad');
	});

	it('reads a nested error object', () => {
		expect(readServiceMessage({ error: { message: 'quota exceeded' } })).toBe('quota exceeded');
	});

	it('reads plain text and the title of an HTML page', () => {
		expect(readServiceMessage('upstream timed out')).toBe('upstream timed out');
		expect(
			readServiceMessage(
				'<html><head><title>502 Bad Gateway</title></head><body><h1>Bad</h1></body></html>',
			),
		).toBe('502 Bad Gateway');
		expect(
			readServiceMessage('<html><body><h1>Service <b>Unavailable</b></h1></body></html>'),
		).toBe('Service Unavailable');
	});

	it('shortens a huge body', () => {
		expect(readServiceMessage('x'.repeat(10_000))?.length).toBeLessThanOrEqual(300);
	});

	it.each([undefined, null, '', '   ', {}, [], { unrelated: 1 }])(
		'reads nothing from %p',
		(body) => {
			expect(readServiceMessage(body)).toBeUndefined();
		},
	);
});

describe('readMissingInputs', () => {
	it('reads the documented details.missing_inputs', () => {
		expect(readMissingInputs({ details: { missing_inputs: ['budget', 'interests'] } })).toEqual([
			'budget',
			'interests',
		]);
	});

	it('reads the names from FastAPI validation entries', () => {
		expect(
			readMissingInputs({
				detail: [
					{ loc: ['body', 'inputs', 'topic'], msg: 'Field required', type: 'missing' },
					{ loc: ['body', 'inputs', 'age'], msg: 'not an int', type: 'int_parsing' },
				],
			}),
		).toEqual(['topic']);
	});

	it('reads nothing from other bodies', () => {
		expect(readMissingInputs('text')).toEqual([]);
		expect(readMissingInputs({ detail: 'x' })).toEqual([]);
	});
});

describe('readMissingInputs: the live plain-string detail', () => {
	it('reads "Missing inputs: a, b"', () => {
		expect(readMissingInputs({ detail: 'Missing inputs: audience, topic' })).toEqual([
			'audience',
			'topic',
		]);
		expect(readMissingInputs({ detail: 'Something else: a, b' })).toEqual([]);
	});
});
