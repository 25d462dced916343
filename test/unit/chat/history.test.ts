import {
	lastReply,
	readHistory,
	replyAt,
	turnIsOverAt,
	userMessageAt,
	userMessageCount,
} from '../../../nodes/chat/history';

describe('history', () => {
	const body = {
		messages: [
			{ role: 'user', content: 'Hi' },
			{ role: 'assistant', content: 'Hello' },
			{ role: 'user', content: 'More' },
		],
		active_kickoff_id: 'k-1',
	};

	it('reads messages and the active turn', () => {
		expect(readHistory(body)).toEqual({ messages: body.messages, activeKickoffId: 'k-1' });
		expect(readHistory({ messages: [] })).toEqual({ messages: [], activeKickoffId: null });
		expect(readHistory({ detail: 'x' })).toBeUndefined();
	});

	it("the reply is the last message when it is the assistant's", () => {
		expect(lastReply(readHistory(body)!)).toBeUndefined();
		expect(lastReply(readHistory({ messages: body.messages.slice(0, 2) })!)).toBe('Hello');
	});

	it("a turn is over when the history holds its message and none is active, or a later message's turn is", () => {
		// 'More' is user message 1: its turn runs.
		expect(turnIsOverAt(readHistory(body)!, 1)).toBe(false);
		expect(turnIsOverAt(readHistory({ ...body, active_kickoff_id: null })!, 1)).toBe(true);
		// A message sent after 'More' (place 2) is not in the history yet.
		expect(turnIsOverAt(readHistory({ ...body, active_kickoff_id: null })!, 2)).toBe(false);
		// The turn of 'Hi' (place 0) ended when 'More' came.
		expect(turnIsOverAt(readHistory(body)!, 0)).toBe(true);
		expect(userMessageCount(readHistory(body)!)).toBe(2);
	});

	it('knows a message and its reply by their place, so the same text twice is two turns', () => {
		const twice = readHistory({
			messages: [
				{ role: 'user', content: 'yes' },
				{ role: 'assistant', content: 'Booked.' },
				{ role: 'user', content: 'yes' },
				{ role: 'assistant', content: 'Paid.' },
			],
		})!;
		expect([userMessageAt(twice, 0), userMessageAt(twice, 1), userMessageAt(twice, 2)]).toEqual([
			'yes',
			'yes',
			undefined,
		]);
		expect([replyAt(twice, 0), replyAt(twice, 1), replyAt(twice, 2)]).toEqual([
			'Booked.',
			'Paid.',
			undefined,
		]);
		expect(replyAt(readHistory(body)!, 1)).toBeUndefined();
	});
});
