import type { SseEvent } from './sse';
import { isPlainObject } from '../records/plainObject';

/** What a frame of a turn means to the node. */
export type FrameKind = 'text' | 'started' | 'completed' | 'failed' | 'other';

export interface TurnFrame {
	/** The frame's stream id `<n>-<n>` (a Redis stream cursor), when it had one. */
	id?: string;
	type: string;
	kind: FrameKind;
	/** For text: which frame type carried it. */
	source?: 'token' | 'llm_stream_chunk';
	text?: string;
	/** For a failed turn: the service's reason. */
	error?: string;
}

const STREAM_ID = /^\d+-\d+$/;

/** The frames that carry text, and the field of their data that holds it. */
const TEXT_FIELDS: ReadonlyMap<string, string> = new Map([
	['token', 'content'],
	['llm_stream_chunk', 'chunk'],
]);

const firstString = (...values: unknown[]) =>
	values.find((value): value is string => typeof value === 'string' && value.trim() !== '');

/** `<n>-<n>` ids in stream order. */
export function compareStreamIds(a: string, b: string): number {
	const [a1, a2] = a.split('-').map(Number);
	const [b1, b2] = b.split('-').map(Number);
	return a1 !== b1 ? a1 - b1 : a2 - b2;
}

/**
 * One SSE event as a frame. The id is the frame's `stream_id`, `id` or `event_id`
 * (the vendor's client reads these), else the SSE `id:` line; only `<n>-<n>` ids
 * count, since only those can be resumed from. Data that is not a JSON object is
 * a frame of type 'unknown' that passes by.
 */
export function readFrame(event: SseEvent): TurnFrame {
	let data: unknown;
	try {
		data = JSON.parse(event.data);
	} catch {
		data = undefined;
	}
	const body = isPlainObject(data) ? data : {};
	const id = [body.stream_id, body.id, body.event_id, event.id].find(
		(value): value is string => typeof value === 'string' && STREAM_ID.test(value),
	);
	const type = firstString(body.type, event.event) ?? 'unknown';
	const inner = body.data;
	const innerObject = isPlainObject(inner) ? inner : {};
	const frame: TurnFrame = { type, kind: 'other', ...(id !== undefined ? { id } : {}) };
	// A text frame's words: in its data's own field (`content` of a token, `chunk` of an LLM
	// chunk), or the data itself when it is text.
	const textField = TEXT_FIELDS.get(type);
	if (textField !== undefined) {
		const own = innerObject[textField];
		const text = typeof own === 'string' ? own : typeof inner === 'string' ? inner : undefined;
		const source = type as 'token' | 'llm_stream_chunk';
		return text === undefined ? frame : { ...frame, kind: 'text', source, text };
	}
	if (type === 'turn_started') return { ...frame, kind: 'started' };
	if (type === 'turn_completed') return { ...frame, kind: 'completed' };
	if (type === 'turn_failed' || type === 'error') {
		const error =
			firstString(
				inner,
				innerObject.error,
				innerObject.detail,
				innerObject.message,
				body.error,
				body.detail,
				body.message,
			) ?? 'the flow gave no reason';
		return { ...frame, kind: 'failed', error };
	}
	return frame;
}

/**
 * The frames of one turn as they come, over one or more connections: repeated
 * frames are dropped (by id, and any id not after the last one seen), the last
 * id is kept to resume from, and the text is told once. `token` is the text the
 * vendor's client prefers; `llm_stream_chunk` repeats it, so chunk text counts
 * only until the first token, and a token that repeats text already told (from
 * chunks) is not told again.
 */
export class TurnFrames {
	/** Where a resumed stream starts: the last frame id seen. */
	lastId = '0-0';

	/** Frames counted once each. */
	count = 0;

	/** All text told so far. */
	told = '';

	/** The reason of a `turn_failed` or `error` frame, once one came. */
	failure?: string;

	private readonly seen = new Set<string>();

	private tokenText = '';

	private sawToken = false;

	/** The frame and the text it newly tells (maybe ''), or undefined for a repeat. */
	accept(event: SseEvent): { frame: TurnFrame; newText: string } | undefined {
		const frame = readFrame(event);
		if (frame.id !== undefined) {
			if (this.seen.has(frame.id) || compareStreamIds(frame.id, this.lastId) <= 0) return undefined;
			this.seen.add(frame.id);
			this.lastId = frame.id;
		}
		this.count++;
		if (frame.kind === 'failed') this.failure = frame.error;
		return { frame, newText: frame.kind === 'text' ? this.textOf(frame) : '' };
	}

	private textOf(frame: TurnFrame): string {
		const text = frame.text ?? '';
		if (frame.source === 'llm_stream_chunk') {
			if (this.sawToken) return '';
			this.told += text;
			return text;
		}
		this.sawToken = true;
		this.tokenText += text;
		if (this.told.length >= this.tokenText.length && this.told.startsWith(this.tokenText))
			return '';
		if (this.tokenText.startsWith(this.told)) {
			const fresh = this.tokenText.slice(this.told.length);
			this.told = this.tokenText;
			return fresh;
		}
		// The tokens tell another text than the chunks did: tell the tokens as they come.
		this.told += text;
		return text;
	}
}
