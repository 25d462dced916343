import { isPassingFailure, isSuccess } from '../transport/answers';
import type { CrewAnswer } from '../transport/answers';
import { TurnFrames } from './frames';
import { lastReply, readHistory, turnIsOver, userMessageCount } from './history';
import type { ChatHistory } from './history';
import { SseParser } from './sse';

/** An open SSE response: its text as it arrives, and a way to hang up. */
export interface OpenStream {
	kind: 'stream';
	pieces: AsyncIterable<string>;
	close: () => void;
}

/** The requests of one turn, made by the node with its credential; each is one attempt. */
export interface ChatRequests {
	/** `GET /chat/{id}/history`, safe to repeat (the caller's retries ride out a flaky network). */
	readHistory: () => Promise<CrewAnswer>;
	/** `POST /chat/{id}/message`: sent at most once per turn, never retried here. */
	sendMessage: () => Promise<CrewAnswer>;
	/** `GET /chat/{id}/stream/events` from after `lastEventId`; idle for `idleMs` means a dead stream. */
	openStream: (lastEventId: string, idleMs: number) => Promise<OpenStream | CrewAnswer>;
}

export interface TurnClock {
	now: () => number;
	sleep: (ms: number) => Promise<void>;
	isCancelled: () => boolean;
}

export type TurnOutcome =
	/** The turn ended: the reply is the last assistant message of the history. */
	| { kind: 'replied'; reply: string; frameCount: number; sent: boolean }
	/** The flow reported the turn failed (`turn_failed` or `error`), with its reason. */
	| { kind: 'failed'; reason: string; frameCount: number; sent: boolean }
	/** The deadline came first; the turn may still finish. */
	| { kind: 'timeout'; frameCount: number; sent: boolean }
	/** The send got no certain answer, and the history does not show the message: it was not sent again. */
	| { kind: 'uncertainSend'; answer: CrewAnswer }
	/** A request was refused (or failed past its retries). */
	| { kind: 'refused'; step: 'history' | 'message' | 'stream'; answer: CrewAnswer }
	/** The history was not in the shape the node knows. */
	| { kind: 'unreadableHistory'; body: unknown }
	| { kind: 'cancelled' };

/** How often the history is read again after the turn's end while it still shows the turn active. */
export const HISTORY_SETTLE_READS = 5;
export const HISTORY_SETTLE_WAIT_MS = 250;
/** After a 409 while the history still shows the turn: the stream is not open yet, or just closed. */
export const ATTACH_RETRY_WAIT_MS = 500;
/** Waits before reconnecting a stream that failed (not one that was cut: that resumes at once). */
export const STREAM_RETRY_WAIT_MS = 1_000;

type HistoryRead = { history: ChatHistory } | { outcome: TurnOutcome };

async function historyOf(requests: ChatRequests): Promise<HistoryRead> {
	const answer = await requests.readHistory();
	if (!isSuccess(answer)) return { outcome: { kind: 'refused', step: 'history', answer } };
	const history = readHistory(answer.body);
	return history ? { history } : { outcome: { kind: 'unreadableHistory', body: answer.body } };
}

/**
 * One turn as the vendor's client runs it (docs/development/service-api.md#chat-with-a-conversational-flow):
 * the history first; a turn still running is attached to rather than sent over;
 * the message is sent once and never again; the frames are read, a broken stream
 * resumed from the last frame id; a 409 on attach means the turn may be over, so
 * the history decides; the reply is the history's last assistant message.
 * `onText` gets each piece of the reply's text once, as it arrives.
 */
export async function runTurn(
	requests: ChatRequests,
	message: string,
	options: { deadline: number; clock: TurnClock; onText: (text: string) => Promise<void> },
): Promise<TurnOutcome> {
	const frames = new TurnFrames();
	const first = await historyOf(requests);
	if ('outcome' in first) return first.outcome;
	if (first.history.activeKickoffId !== null) {
		// A turn still runs: perhaps this very message, sent by an execution that did not see the answer;
		// its text reaches the person only then, and another message's turn is waited out in silence.
		const mine = lastUserMessage(first.history) === message;
		const earlier = await followTurn(requests, frames, { ...options, onText: mine ? options.onText : async () => {} }, message, false);
		if (earlier.kind !== 'replied') return earlier;
		const after = await historyOf(requests);
		if ('outcome' in after) return after.outcome;
		if (turnIsOver(after.history, message)) return earlier;
	}
	const before = userMessageCount(first.history);
	const answer = await requests.sendMessage();
	if (!isSuccess(answer)) {
		if (!isPassingFailure(answer)) return { kind: 'refused', step: 'message', answer };
		// The message may have arrived: only the history can tell, and it is never sent again.
		const check = await historyOf(requests);
		const queued = 'history' in check && userMessageCount(check.history) > before && lastUserMessage(check.history) === message;
		if (!queued) return { kind: 'uncertainSend', answer };
	}
	return await followTurn(requests, new TurnFrames(), options, message, true);
}

function lastUserMessage(history: ChatHistory): string | undefined {
	return [...history.messages].reverse().find((entry) => entry.role === 'user')?.content;
}

/** Reads the running turn's frames to its end, over as many connections as it takes. */
async function followTurn(
	requests: ChatRequests,
	frames: TurnFrames,
	options: { deadline: number; clock: TurnClock; onText: (text: string) => Promise<void> },
	message: string,
	sent: boolean,
): Promise<TurnOutcome> {
	const { clock, deadline } = options;
	const timeout = (): TurnOutcome => ({ kind: 'timeout', frameCount: frames.count, sent });
	// Over: no turn runs, and (for a message this run sent) the history holds it, so it was not merely not queued yet.
	const isOver = (history: ChatHistory) => history.activeKickoffId === null && (!sent || turnIsOver(history, message));
	for (;;) {
		if (clock.isCancelled()) return { kind: 'cancelled' };
		const remaining = deadline - clock.now();
		if (remaining <= 0) return timeout();
		const opened = await requests.openStream(frames.lastId, remaining);
		if (opened.kind === 'stream') {
			const before = frames.count;
			const end = await readStream(opened, frames, options);
			if (end === 'failed') return { kind: 'failed', reason: frames.failure ?? 'the flow gave no reason', frameCount: frames.count, sent };
			if (end === 'timeout') return timeout();
			if (end === 'completed') return await settle(requests, frames, options, sent);
			// Cut or ended early: the history says whether the turn is over; if not, resume from the last id.
			const read = await historyOf(requests);
			if ('outcome' in read) return read.outcome;
			if (isOver(read.history)) return replied(read.history, frames, sent);
			// A stream that closes with nothing new (a proxy that cuts every stream) is not asked again at once.
			if (frames.count === before) await clock.sleep(Math.min(STREAM_RETRY_WAIT_MS, Math.max(0, deadline - clock.now())));
			continue;
		}
		if (opened.kind === 'http' && opened.statusCode === 409) {
			// No active turn: it may be over already (a fast turn), or not started yet.
			const read = await historyOf(requests);
			if ('outcome' in read) return read.outcome;
			if (isOver(read.history)) return replied(read.history, frames, sent);
			await clock.sleep(Math.min(ATTACH_RETRY_WAIT_MS, Math.max(0, deadline - clock.now())));
			continue;
		}
		if (!isPassingFailure(opened)) return { kind: 'refused', step: 'stream', answer: opened };
		await clock.sleep(Math.min(STREAM_RETRY_WAIT_MS, Math.max(0, deadline - clock.now())));
	}
}

type StreamEnd = 'completed' | 'failed' | 'timeout' | 'broken';

async function readStream(
	stream: OpenStream,
	frames: TurnFrames,
	options: { deadline: number; clock: TurnClock; onText: (text: string) => Promise<void> },
): Promise<StreamEnd> {
	const parser = new SseParser();
	try {
		for await (const piece of stream.pieces) {
			for (const event of parser.push(piece)) {
				const accepted = frames.accept(event);
				if (!accepted) continue;
				if (accepted.newText !== '') await options.onText(accepted.newText);
				if (accepted.frame.kind === 'completed') return 'completed';
				if (accepted.frame.kind === 'failed') return 'failed';
			}
			if (options.clock.now() >= options.deadline || options.clock.isCancelled()) return 'timeout';
		}
		return 'broken';
	} catch {
		// The connection broke (cut, reset, idle timeout): the caller resumes from the last id.
		return options.clock.now() >= options.deadline ? 'timeout' : 'broken';
	} finally {
		stream.close();
	}
}

/** After `turn_completed`: the history, read again while it still shows the turn running. */
async function settle(
	requests: ChatRequests,
	frames: TurnFrames,
	options: { deadline: number; clock: TurnClock },
	sent: boolean,
): Promise<TurnOutcome> {
	let read = await historyOf(requests);
	for (let attempt = 1; attempt < HISTORY_SETTLE_READS && 'history' in read && read.history.activeKickoffId !== null; attempt++) {
		await options.clock.sleep(HISTORY_SETTLE_WAIT_MS);
		read = await historyOf(requests);
	}
	if ('outcome' in read) return read.outcome;
	return replied(read.history, frames, sent);
}

function replied(history: ChatHistory, frames: TurnFrames, sent: boolean): TurnOutcome {
	// The history is authoritative; the frames' text stands in only when it holds no reply.
	const reply = lastReply(history) ?? frames.told;
	if (reply === '') return { kind: 'failed', reason: 'the turn ended with no reply in the flow\'s history', frameCount: frames.count, sent };
	return { kind: 'replied', reply, frameCount: frames.count, sent };
}
