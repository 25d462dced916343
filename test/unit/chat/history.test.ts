import { lastReply, readHistory, turnIsOver, userMessageCount } from '../../../nodes/chat/history';

describe('history', () => {
	const body = { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }, { role: 'user', content: 'More' }], active_kickoff_id: 'k-1' };

	it('reads messages and the active turn', () => {
		expect(readHistory(body)).toEqual({ messages: body.messages, activeKickoffId: 'k-1' });
		expect(readHistory({ messages: [] })).toEqual({ messages: [], activeKickoffId: null });
		expect(readHistory({ detail: 'x' })).toBeUndefined();
	});

	it('the reply is the last message when it is the assistant\'s', () => {
		expect(lastReply(readHistory(body)!)).toBeUndefined();
		expect(lastReply(readHistory({ messages: body.messages.slice(0, 2) })!)).toBe('Hello');
	});

	it('a turn is over when none is active and the last user message is the one sent', () => {
		expect(turnIsOver(readHistory(body)!, 'More')).toBe(false);
		expect(turnIsOver(readHistory({ ...body, active_kickoff_id: null })!, 'More')).toBe(true);
		expect(turnIsOver(readHistory({ ...body, active_kickoff_id: null })!, 'Other')).toBe(false);
		expect(userMessageCount(readHistory(body)!)).toBe(2);
	});
});
