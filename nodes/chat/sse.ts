/** One Server-Sent Event: its `id:` line (when it had one) and its `data:` lines joined. */
export interface SseEvent {
	id?: string;
	event?: string;
	data: string;
}

/**
 * Reads a `text/event-stream` as it arrives, in pieces cut anywhere (inside a
 * line, between `\r` and `\n`). Comment lines (`: keepalive`) are dropped; an
 * event without data is dropped, as the EventSource standard does.
 */
export class SseParser {
	private buffer = '';

	private lines: string[] = [];

	/** The events completed by this piece of the stream. */
	push(text: string): SseEvent[] {
		this.buffer += text;
		const events: SseEvent[] = [];
		for (;;) {
			const match = /\r\n|\r|\n/.exec(this.buffer);
			// A lone \r at the end may be the first half of \r\n: wait for the next piece.
			if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
			const line = this.buffer.slice(0, match.index);
			this.buffer = this.buffer.slice(match.index + match[0].length);
			if (line === '') {
				const event = eventOf(this.lines);
				this.lines = [];
				if (event) events.push(event);
			} else {
				this.lines.push(line);
			}
		}
		return events;
	}
}

function eventOf(lines: string[]): SseEvent | undefined {
	const data: string[] = [];
	const event: Partial<SseEvent> = {};
	for (const line of lines) {
		if (line.startsWith(':')) continue;
		const colon = line.indexOf(':');
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		if (field === 'data') data.push(value);
		else if (field === 'id') event.id = value;
		else if (field === 'event') event.event = value;
	}
	if (data.length === 0) return undefined;
	return { ...event, data: data.join('\n') };
}
