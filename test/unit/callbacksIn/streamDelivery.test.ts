import { readStreamEvents } from '../../../nodes/callbacksIn/streamDelivery';

const event = (id: string, type: string, timestamp: string, data: object = {}) => ({
	id,
	execution_id: 'k-1',
	timestamp,
	type,
	data,
});

describe('readStreamEvents', () => {
	it('sorts by timestamp, keeps arrival order on ties, drops a repeated id and non-objects, names a missing type unknown', () => {
		const events = readStreamEvents({
			events: [
				event('c', 'task_completed', '2026-08-01T10:00:00.300Z'),
				event('a', 'crew_kickoff_started', '2026-08-01T10:00:00.100Z'),
				'junk',
				event('b1', 'task_started', '2026-08-01T10:00:00.200Z'),
				event('b2', 'tool_usage_started', '2026-08-01T10:00:00.200Z'),
				event('c', 'task_completed', '2026-08-01T10:00:00.300Z'),
				{ id: 'd', timestamp: 'not a time' },
			],
		});
		expect(events.map((e) => e.id)).toEqual(['a', 'b1', 'b2', 'c', 'd']);
		expect(events[4]).toEqual({
			id: 'd',
			execution_id: null,
			timestamp: 'not a time',
			type: 'unknown',
			data: {},
		});
	});
});
