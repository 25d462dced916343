import { compareStreamIds, readFrame, TurnFrames } from '../../../nodes/chat/frames';
import type { SseEvent } from '../../../nodes/chat/sse';

const frame = (id: string, data: object): SseEvent => ({ id, data: JSON.stringify(data) });
const token = (id: string, content: string) =>
	frame(id, { type: 'token', data: { content }, stream_id: id });
const chunk = (id: string, text: string) =>
	frame(id, { type: 'llm_stream_chunk', data: { chunk: text }, stream_id: id });

describe('readFrame', () => {
	it('reads text, turn ends and reasons', () => {
		expect(readFrame(token('1-1', 'Hi '))).toEqual({
			id: '1-1',
			type: 'token',
			kind: 'text',
			source: 'token',
			text: 'Hi ',
		});
		expect(readFrame(chunk('1-2', 'there'))).toMatchObject({
			kind: 'text',
			source: 'llm_stream_chunk',
			text: 'there',
		});
		expect(readFrame(frame('1-3', { type: 'turn_completed' })).kind).toBe('completed');
		expect(
			readFrame(frame('1-4', { type: 'turn_failed', data: { error: 'bad key' } })),
		).toMatchObject({ kind: 'failed', error: 'bad key' });
		expect(readFrame(frame('1-5', { type: 'error', detail: 'boom' }))).toMatchObject({
			kind: 'failed',
			error: 'boom',
		});
		expect(readFrame(frame('1-6', { type: 'error', data: 'plain reason' }))).toMatchObject({
			kind: 'failed',
			error: 'plain reason',
		});
		expect(readFrame(frame('1-7', { type: 'turn_failed' }))).toMatchObject({
			kind: 'failed',
			error: 'the flow gave no reason',
		});
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
	const tell = (frames: TurnFrames, events: SseEvent[]) =>
		events.map((event) => frames.accept(event)?.newText ?? null);

	it('drops repeats by id and anything not after the last id; keeps the last id', () => {
		const frames = new TurnFrames();
		expect(
			tell(frames, [
				token('1-1', 'a'),
				token('1-2', 'b'),
				token('1-2', 'b'),
				token('1-1', 'a'),
				token('1-3', 'c'),
			]),
		).toEqual(['a', 'b', null, null, 'c']);
		expect(frames.lastId).toBe('1-3');
		expect(frames.count).toBe(3);
		expect(frames.told).toBe('abc');
	});

	it('token and llm_stream_chunk for the same text: told once, chunks before the first token included', () => {
		const frames = new TurnFrames();
		const said = tell(frames, [
			chunk('1-1', 'Hello '),
			token('1-2', 'Hello '),
			chunk('1-3', 'world'),
			token('1-4', 'world'),
		]);
		expect(said).toEqual(['Hello ', '', '', 'world']);
		expect(frames.told).toBe('Hello world');
	});

	it('chunks running ahead of tokens: the tokens catch up silently', () => {
		const frames = new TurnFrames();
		expect(
			tell(frames, [
				chunk('1-1', 'Hel'),
				chunk('1-2', 'lo there'),
				token('1-3', 'Hello'),
				token('1-4', ' there'),
				token('1-5', ' friend'),
			]),
		).toEqual(['Hel', 'lo there', '', '', ' friend']);
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
