import { isStateId } from '../../../nodes/records/stateId';

const STATE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('isStateId', () => {
	it('takes a UUID in canonical text form, any case and version, and nothing else', () => {
		expect(
			[STATE_ID, STATE_ID.toUpperCase(), '97eba64f-958c-40a0-b61c-625fe635a3c0'].map(isStateId),
		).toEqual([true, true, true]);
		const others = [
			'test 1',
			`{${STATE_ID}}`,
			` ${STATE_ID}`,
			STATE_ID.replace(/-/g, ''),
			'abcd1234-5678-90ef-ghij-klmnopqrstuv',
			'',
			42,
			null,
			{ id: STATE_ID },
		];
		expect(others.map(isStateId)).toEqual(others.map(() => false));
	});
});
