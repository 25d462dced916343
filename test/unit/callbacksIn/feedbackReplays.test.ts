import type { IDataObject } from 'n8n-workflow';

import {
	feedbackRequestKey,
	MAX_REMEMBERED_FEEDBACK_REQUESTS,
	seenBefore,
} from '../../../nodes/callbacksIn/feedbackReplays';

const NOW = 1_800_000_000_000;
const WINDOW_MS = 300_000;

describe('seenBefore: a signed feedback request taken once within its replay window', () => {
	it('takes the first, answers the same key inside the window as seen, and takes it again once the signed time left the window', () => {
		const memory = {};
		expect(seenBefore(memory, 'new_request:r-1', NOW, NOW)).toBe(false);
		expect(seenBefore(memory, 'new_request:r-1', NOW, NOW + 1_000)).toBe(true);
		expect(seenBefore(memory, 'new_request:r-1', NOW, NOW + WINDOW_MS - 1)).toBe(true);
		// After that the signature check refuses the same call; the memory has forgotten it.
		expect(seenBefore(memory, 'new_request:r-1', NOW, NOW + WINDOW_MS)).toBe(false);
		expect(seenBefore(memory, 'escalation:r-1', NOW, NOW + 1_000)).toBe(false);
	});

	it('counts the window from the signed time, which may lie ahead of the clock', () => {
		const memory = {};
		expect(seenBefore(memory, 'k', NOW + 200_000, NOW)).toBe(false);
		expect(seenBefore(memory, 'k', NOW + 200_000, NOW + 450_000)).toBe(true);
	});

	it('keeps a bounded memory: expired entries dropped, then the oldest', () => {
		const memory: IDataObject = {};
		for (let index = 0; index < MAX_REMEMBERED_FEEDBACK_REQUESTS + 10; index++)
			seenBefore(memory, `k-${index}`, NOW + index, NOW);
		const kept = memory.feedbackRequestsSeen as Record<string, number>;
		expect(Object.keys(kept)).toHaveLength(MAX_REMEMBERED_FEEDBACK_REQUESTS);
		expect(kept['k-0']).toBeUndefined();
		// Once their windows have passed, the next request leaves only itself.
		seenBefore(memory, 'late', NOW + 2 * WINDOW_MS, NOW + 2 * WINDOW_MS);
		expect(Object.keys(memory.feedbackRequestsSeen as object)).toEqual(['late']);
	});

	it('assigns the memory anew, so that n8n sees the static data changed', () => {
		const memory: IDataObject = {};
		seenBefore(memory, 'a', NOW, NOW);
		const first = memory.feedbackRequestsSeen;
		seenBefore(memory, 'b', NOW, NOW);
		expect(memory.feedbackRequestsSeen).not.toBe(first);
	});
});

describe('feedbackRequestKey', () => {
	it('is the request type and id, or the signature for a request without an id', () => {
		expect(feedbackRequestKey({ request_type: 'new_request', request_id: 'r-1' }, 'abc')).toBe(
			'new_request:r-1',
		);
		expect(feedbackRequestKey({ request_type: 'escalation', request_id: 7 }, 'abc')).toBe(
			'escalation:7',
		);
		expect(feedbackRequestKey({ request_type: 'new_request', request_id: null }, 'abc')).toBe(
			'signature:abc',
		);
	});
});
