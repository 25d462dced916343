import { SseParser } from '../../../nodes/chat/sse';
import type { SseEvent } from '../../../nodes/chat/sse';

describe('SseParser', () => {
	it('reads events cut anywhere, with CRLF, comments and multi-line data', () => {
		const parser = new SseParser();
		const text =
			': keepalive\r\n\r\nid: 1-1\r\ndata: {"type":\r\ndata: "token"}\r\n\r\nid: 1-2\nevent: x\ndata:{"a":1}\n\n';
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
