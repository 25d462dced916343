import { isPassingFailure, isSuccess } from '../transport/answers';
import type { CrewAnswer } from '../transport/answers';
import { TurnFrames } from './frames';
import { readHistory, replyAt, turnIsOverAt, userMessageAt, userMessageCount } from './history';
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
	/**
	 * `GET /chat/{id}/stream/events` from after `lastEventId`; idle for `idleMs` means a dead stream.
	 */
	openStream: (lastEventId: string, idleMs: number) => Promise<OpenStream | CrewAnswer>;
}

/**
 * A message this execution sent to a flow session, known by its place among the session's
 * user messages (`position`: how many came before it), not by its text. Kept by the caller
 * with the execution (turnMemory.ts), so that a try of the same execution (n8n's Retry On Fail,
 * a retry from the Executions list) follows the turn it started instead of sending it again.
 */
export interface SentMessage {
	position: number;
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
	/**
	 * The send got no certain answer, and the history does not show the message: it was not sent
	 * again.
	 */
	| { kind: 'uncertainSend'; answer: CrewAnswer }
	/** A request was refused (or failed past its retries). */
	| { kind: 'refused'; step: 'history' | 'message' | 'stream'; answer: CrewAnswer }
	/** The history was not in the shape the node knows. */
	| { kind: 'unreadableHistory'; body: unknown }
	| { kind: 'cancelled' };

/**
 * How often the history is read again after the turn's end while it still shows the turn active.
 */
export const HISTORY_SETTLE_READS = 5;
export const HISTORY_SETTLE_WAIT_MS = 250;
/**
 * After a 409 while the history still shows the turn: the stream is not open yet, or just closed.
 */
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

/** What a turn needs besides its requests and message. */
export interface TurnOptions {
	deadline: number;
	clock: TurnClock;
	onText: (text: string) => Promise<void>;
	/**
	 * This message, as an earlier try of this execution sent it to this session; none for a first
	 * try.
	 */
	sentEarlier?: SentMessage;
	/**
	 * Called before the message goes out, with where it goes: the caller keeps it with the execution.
	 */
	onSending?: (sent: SentMessage) => void;
}

/**
 * One turn as the vendor's client runs it
 * (docs/development/service-api.md#chat-with-a-conversational-flow): the history first; a turn
 * still running is waited out rather than sent over; the message is sent once and never again; the
 * frames are read, a broken stream resumed from the last frame id; a 409 on attach means the turn
 * may be over, so the history decides; the reply is the history's answer to this message. A message
 * is known by the execution that sent it and its place in the session, never by its text: a person
 * who sends "yes" twice has two turns. `onText` gets each piece of the reply's text once, as it
 * arrives.
 */
export async function runTurn(
	requests: ChatRequests,
	message: string,
	options: TurnOptions,
): Promise<TurnOutcome> {
	const first = await historyOf(requests);
	if ('outcome' in first) return first.outcome;
	const { sentEarlier } = options;
	if (sentEarlier !== undefined && userMessageAt(first.history, sentEarlier.position) === message) {
		// An earlier try of this execution sent it and the flow has it: its turn is followed to its end
		// (its text told), or its reply read.
		if (turnIsOverAt(first.history, sentEarlier.position))
			return replied(first.history, new TurnFrames(), false, sentEarlier.position);
		return await followTurn(requests, new TurnFrames(), options, sentEarlier.position, false);
	}
	let history = first.history;
	if (history.activeKickoffId !== null) {
		// Another message's turn (another execution's, whatever its text): waited out in silence, then
		// this message is sent.
		const other = await followTurn(
			requests,
			new TurnFrames(),
			{ ...options, onText: async () => {} },
			userMessageCount(history) - 1,
			false,
		);
		if (other.kind !== 'replied' && other.kind !== 'failed') return other;
		const after = await historyOf(requests);
		if ('outcome' in after) return after.outcome;
		history = after.history;
	}
	const position = userMessageCount(history);
	options.onSending?.({ position });
	const answer = await requests.sendMessage();
	if (!isSuccess(answer)) {
		if (!isPassingFailure(answer)) return { kind: 'refused', step: 'message', answer };
		// The message may have arrived: only the history can tell, and it is never sent again.
		const check = await historyOf(requests);
		const queued = 'history' in check && userMessageAt(check.history, position) === message;
		if (!queued) return { kind: 'uncertainSend', answer };
	}
	return await followTurn(requests, new TurnFrames(), options, position, true);
}

/** Reads the running turn's frames to its end, over as many connections as it takes. */
async function followTurn(
	requests: ChatRequests,
	frames: TurnFrames,
	options: { deadline: number; clock: TurnClock; onText: (text: string) => Promise<void> },
	/** The place of the turn's message among the session's user messages. */
	position: number,
	sent: boolean,
): Promise<TurnOutcome> {
	const { clock, deadline } = options;
	const timeout = (): TurnOutcome => ({ kind: 'timeout', frameCount: frames.count, sent });
	// Over: the history holds the message (it was not merely not queued yet), and no turn runs, or a
	// later one does.
	const isOver = (history: ChatHistory) => turnIsOverAt(history, position);
	for (;;) {
		if (clock.isCancelled()) return { kind: 'cancelled' };
		const remaining = deadline - clock.now();
		if (remaining <= 0) return timeout();
		const opened = await requests.openStream(frames.lastId, remaining);
		if (opened.kind === 'stream') {
			const before = frames.count;
			const end = await readStream(opened, frames, options);
			if (end === 'failed')
				return {
					kind: 'failed',
					reason: frames.failure ?? 'the flow gave no reason',
					frameCount: frames.count,
					sent,
				};
			if (end === 'timeout') return timeout();
			if (end === 'completed') return await settle(requests, frames, options, sent, position);
			// Cut or ended early: the history says whether the turn is over; if not, resume from the last
			// id.
			const read = await historyOf(requests);
			if ('outcome' in read) return read.outcome;
			if (isOver(read.history)) return replied(read.history, frames, sent, position);
			// A stream that closes with nothing new (a proxy that cuts every stream) is not asked again
			// at once.
			if (frames.count === before)
				await clock.sleep(Math.min(STREAM_RETRY_WAIT_MS, Math.max(0, deadline - clock.now())));
			continue;
		}
		if (opened.kind === 'http' && opened.statusCode === 409) {
			// No active turn: it may be over already (a fast turn), or not started yet.
			const read = await historyOf(requests);
			if ('outcome' in read) return read.outcome;
			if (isOver(read.history)) return replied(read.history, frames, sent, position);
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
	position: number,
): Promise<TurnOutcome> {
	let read = await historyOf(requests);
	for (
		let attempt = 1;
		attempt < HISTORY_SETTLE_READS && 'history' in read && !turnIsOverAt(read.history, position);
		attempt++
	) {
		await options.clock.sleep(HISTORY_SETTLE_WAIT_MS);
		read = await historyOf(requests);
	}
	if ('outcome' in read) return read.outcome;
	return replied(read.history, frames, sent, position);
}

function replied(
	history: ChatHistory,
	frames: TurnFrames,
	sent: boolean,
	position: number,
): TurnOutcome {
	// The history is authoritative; the frames' text stands in only when it holds no reply.
	const reply = replyAt(history, position) ?? frames.told;
	if (reply === '')
		return {
			kind: 'failed',
			reason: "the turn ended with no reply in the flow's history",
			frameCount: frames.count,
			sent,
		};
	return { kind: 'replied', reply, frameCount: frames.count, sent };
}
