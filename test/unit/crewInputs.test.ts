import { isInputsListing, readCrewInputs } from '../../nodes/records/crewInputs';

describe('readCrewInputs', () => {
	it('reads the documented list of names as required strings', () => {
		expect(readCrewInputs({ inputs: ['budget', 'interests'] })).toEqual([
			{ name: 'budget', type: 'string', required: true },
			{ name: 'interests', type: 'string', required: true },
		]);
	});

	it('reads the list of objects seen in the wild, keeping type and required', () => {
		expect(readCrewInputs({ inputs: [{ name: 'topic', type: 'string', required: true }, { name: 'age', type: 'number', required: false }] })).toEqual([
			{ name: 'topic', type: 'string', required: true },
			{ name: 'age', type: 'number', required: false },
		]);
	});

	it('keeps odd names as they are and skips entries without a name', () => {
		expect(readCrewInputs({ inputs: ['a b.c "d"', '', { type: 'string' }, 42, { name: 'ünï' }] }).map((input) => input.name)).toEqual([
			'a b.c "d"',
			'ünï',
		]);
	});

	it('reads nothing from bodies that are not a listing', () => {
		expect(readCrewInputs('<html></html>')).toEqual([]);
		expect(readCrewInputs({ inputs: null })).toEqual([]);
		expect(isInputsListing('<html></html>')).toBe(false);
		expect(isInputsListing({ inputs: [] })).toBe(true);
	});
});
