/** The chat client's pure parts: SSE reading, frames, history, the kept sessions, the capability check. */
import type { IDataObject } from 'n8n-workflow';

import { isConversationalFlow } from '../../nodes/chat/capability';
import { compareStreamIds, readFrame, TurnFrames } from '../../nodes/chat/frames';
import { lastReply, readHistory, turnIsOver, userMessageCount } from '../../nodes/chat/history';
import { findSession, keepSession, MAX_KEPT_SESSIONS } from '../../nodes/chat/sessions';
import { SseParser } from '../../nodes/chat/sse';
import type { SseEvent } from '../../nodes/chat/sse';

const frame = (id: string, data: object): SseEvent => ({ id, data: JSON.stringify(data) });
const token = (id: string, content: string) => frame(id, { type: 'token', data: { content }, stream_id: id });
const chunk = (id: string, text: string) => frame(id, { type: 'llm_stream_chunk', data: { chunk: text }, stream_id: id });

describe('SseParser', () => {
	it('reads events cut anywhere, with CRLF, comments and multi-line data', () => {
		const parser = new SseParser();
		const text = ': keepalive\r\n\r\nid: 1-1\r\ndata: {"type":\r\ndata: "token"}\r\n\r\nid: 1-2\nevent: x\ndata:{"a":1}\n\n';
		const events: SseEvent[] = [];
		for (let i = 0; i < text.length; i += 3) events.push(...parser.push(text.slice(i, i + 3)));
		expect(events).toEqual([
			{ id: '1-1', data: '{"type":\n"token"}' },
			{ id: '1-2', event: 'x', data: '{"a":1}' },
		]);
	});

	it('a lone CR at the end of a piece waits for the next piece', () => {
		const parser = new SseParser();
		expect(parser.push('data: a\r')).toEqual([]);
		expect(parser.push('\n\r\n')).toEqual([{ data: 'a' }]);
	});

	it('an event without data is dropped', () => {
		expect(new SseParser().push('id: 1-1\n\n')).toEqual([]);
	});
});

describe('readFrame', () => {
	it('reads text, turn ends and reasons', () => {
		expect(readFrame(token('1-1', 'Hi '))).toEqual({ id: '1-1', type: 'token', kind: 'text', source: 'token', text: 'Hi ' });
		expect(readFrame(chunk('1-2', 'there'))).toMatchObject({ kind: 'text', source: 'llm_stream_chunk', text: 'there' });
		expect(readFrame(frame('1-3', { type: 'turn_completed' })).kind).toBe('completed');
		expect(readFrame(frame('1-4', { type: 'turn_failed', data: { error: 'bad key' } }))).toMatchObject({ kind: 'failed', error: 'bad key' });
		expect(readFrame(frame('1-5', { type: 'error', detail: 'boom' }))).toMatchObject({ kind: 'failed', error: 'boom' });
		expect(readFrame(frame('1-6', { type: 'error', data: 'plain reason' }))).toMatchObject({ kind: 'failed', error: 'plain reason' });
		expect(readFrame(frame('1-7', { type: 'turn_failed' }))).toMatchObject({ kind: 'failed', error: 'the flow gave no reason' });
	});

	it('takes the id from stream_id, id or event_id, else the SSE id; only <n>-<n> ids', () => {
		expect(readFrame({ data: '{"type":"x","id":"3-4"}' }).id).toBe('3-4');
		expect(readFrame({ data: '{"type":"x","event_id":"5-6"}' }).id).toBe('5-6');
		expect(readFrame({ id: '7-8', data: '{"type":"x"}' }).id).toBe('7-8');
		expect(readFrame({ id: 'abc', data: '{"type":"x","id":"uuid-like"}' }).id).toBeUndefined();
	});

	it('data that is not JSON passes by as an unknown frame', () => {
		expect(readFrame({ data: 'hello' })).toEqual({ type: 'unknown', kind: 'other' });
	});

	it('orders ids part by part', () => {
		expect(compareStreamIds('2-10', '2-9')).toBeGreaterThan(0);
		expect(compareStreamIds('10-0', '9-99')).toBeGreaterThan(0);
		expect(compareStreamIds('1-1', '1-1')).toBe(0);
	});
});

describe('TurnFrames', () => {
	const tell = (frames: TurnFrames, events: SseEvent[]) => events.map((event) => frames.accept(event)?.newText ?? null);

	it('drops repeats by id and anything not after the last id; keeps the last id', () => {
		const frames = new TurnFrames();
		expect(tell(frames, [token('1-1', 'a'), token('1-2', 'b'), token('1-2', 'b'), token('1-1', 'a'), token('1-3', 'c')])).toEqual(['a', 'b', null, null, 'c']);
		expect(frames.lastId).toBe('1-3');
		expect(frames.count).toBe(3);
		expect(frames.told).toBe('abc');
	});

	it('token and llm_stream_chunk for the same text: told once, chunks before the first token included', () => {
		const frames = new TurnFrames();
		const said = tell(frames, [chunk('1-1', 'Hello '), token('1-2', 'Hello '), chunk('1-3', 'world'), token('1-4', 'world')]);
		expect(said).toEqual(['Hello ', '', '', 'world']);
		expect(frames.told).toBe('Hello world');
	});

	it('chunks running ahead of tokens: the tokens catch up silently', () => {
		const frames = new TurnFrames();
		expect(tell(frames, [chunk('1-1', 'Hel'), chunk('1-2', 'lo there'), token('1-3', 'Hello'), token('1-4', ' there'), token('1-5', ' friend')])).toEqual(['Hel', 'lo there', '', '', ' friend']);
		expect(frames.told).toBe('Hello there friend');
	});

	it('only chunks: every chunk is told', () => {
		const frames = new TurnFrames();
		expect(tell(frames, [chunk('1-1', 'a'), chunk('1-2', 'b')])).toEqual(['a', 'b']);
	});

	it('keeps the reason of a failed turn', () => {
		const frames = new TurnFrames();
		frames.accept(frame('1-1', { type: 'turn_failed', data: { error: 'quota' } }));
		expect(frames.failure).toBe('quota');
	});
});

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

describe('kept sessions', () => {
	it('one session per conversation key and Base URL', () => {
		const staticData: IDataObject = {};
		keepSession(staticData, 'chat-A', { sessionId: 's-1', baseUrl: 'https://a', usedAt: 1 });
		expect(findSession(staticData, 'chat-A', 'https://a')).toBe('s-1');
		expect(findSession(staticData, 'chat-A', 'https://b')).toBeUndefined();
		expect(findSession(staticData, 'chat-B', 'https://a')).toBeUndefined();
	});

	it('drops the least recently used beyond the limit', () => {
		const staticData: IDataObject = {};
		for (let i = 0; i <= MAX_KEPT_SESSIONS; i++) keepSession(staticData, `chat-${i}`, { sessionId: `s-${i}`, baseUrl: 'u', usedAt: i === 0 ? 5000 : i });
		expect(findSession(staticData, 'chat-0', 'u')).toBe('s-0');
		expect(findSession(staticData, 'chat-1', 'u')).toBeUndefined();
		expect(Object.keys(staticData.conversationSessions as IDataObject)).toHaveLength(MAX_KEPT_SESSIONS);
	});

	it('ignores what it did not write', () => {
		expect(findSession({ conversationSessions: 'x' }, 'a', 'u')).toBeUndefined();
		expect(findSession({ conversationSessions: { a: 'x' } }, 'a', 'u')).toBeUndefined();
	});
});

describe('isConversationalFlow', () => {
	it('needs flow.chat.conversational and handle_turn both true', () => {
		expect(isConversationalFlow({ flow: { chat: { conversational: true, handle_turn: true } } })).toBe(true);
		expect(isConversationalFlow({ flow: { chat: { conversational: true, handle_turn: false } } })).toBe(false);
		expect(isConversationalFlow({ flow: { chat: { conversational: 'true', handle_turn: true } } })).toBe(false);
		expect(isConversationalFlow({ flow: {} })).toBe(false);
		expect(isConversationalFlow('Not Found')).toBe(false);
	});
});
