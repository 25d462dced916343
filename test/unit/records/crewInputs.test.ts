import {
	isInputsListing,
	readCrewInputs,
	detectDeployment,
	flowInputs,
	offeredInputs,
	resolveDeployment,
} from '../../../nodes/records/crewInputs';

describe('readCrewInputs', () => {
	it('reads the documented list of names as required strings', () => {
		expect(readCrewInputs({ inputs: ['budget', 'interests'] })).toEqual([
			{ name: 'budget', type: 'string', required: true },
			{ name: 'interests', type: 'string', required: true },
		]);
	});

	it('reads the list of objects seen in the wild, keeping type and required', () => {
		expect(
			readCrewInputs({
				inputs: [
					{ name: 'topic', type: 'string', required: true },
					{ name: 'age', type: 'number', required: false },
				],
			}),
		).toEqual([
			{ name: 'topic', type: 'string', required: true },
			{ name: 'age', type: 'number', required: false },
		]);
	});

	it('keeps odd names as they are and skips entries without a name', () => {
		expect(
			readCrewInputs({ inputs: ['a b.c "d"', '', { type: 'string' }, 42, { name: 'ünï' }] }).map(
				(input) => input.name,
			),
		).toEqual(['a b.c "d"', 'ünï']);
	});

	it('reads nothing from bodies that are not a listing', () => {
		expect(readCrewInputs('<html></html>')).toEqual([]);
		expect(readCrewInputs({ inputs: null })).toEqual([]);
		expect(isInputsListing('<html></html>')).toBe(false);
		expect(isInputsListing({ inputs: [] })).toBe(true);
	});
});

describe('telling a flow from a crew by its inputs listing', () => {
	it('reads a listing that names id and requires nothing as a flow: the live names-only answer, and objects with required false', () => {
		expect(detectDeployment({ inputs: ['topic', 'count', 'id', 'history'] })).toBe('flow');
		expect(
			detectDeployment({
				inputs: [
					{ name: 'id', type: 'str', required: false },
					{ name: 'topic', required: false },
				],
			}),
		).toBe('flow');
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

	it("offers a flow's fields optional and without id, keeping types and defaults; a crew's as listed", () => {
		const listing = {
			inputs: [
				{ name: 'topic', type: 'str', required: false, default: 'AI' },
				{ name: 'id', type: 'str', required: false },
				{ name: 'history', type: 'list', required: false, default: [] },
			],
		};
		expect(offeredInputs('flow', listing)).toEqual([
			{ name: 'topic', type: 'str', required: false, default: 'AI' },
			{ name: 'history', type: 'list', required: false, default: [] },
		]);
		expect(flowInputs(readCrewInputs({ inputs: ['topic', 'id'] }))).toEqual([
			{ name: 'topic', type: 'string', required: false },
		]);
		expect(offeredInputs('crew', { inputs: ['topic', 'id'] })).toEqual([
			{ name: 'topic', type: 'string', required: true },
			{ name: 'id', type: 'string', required: true },
		]);
	});
});
