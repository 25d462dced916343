/**
 * runTurn against a scripted fake of its ChatRequests (the history, the send, the
 * streams, each answer given in order) and a clock that moves only when the turn
 * sleeps: every branch of a turn without a server, and what it asked for, in order.
 */
import type { CrewAnswer } from '../../../nodes/transport/answers';
import {
	ATTACH_RETRY_WAIT_MS,
	HISTORY_SETTLE_READS,
	HISTORY_SETTLE_WAIT_MS,
	runTurn,
	STREAM_RETRY_WAIT_MS,
} from '../../../nodes/chat/turn';
import type { ChatRequests, OpenStream, SentMessage, TurnClock } from '../../../nodes/chat/turn';

const MESSAGE = 'What is the refund window?';
const REPLY = 'Thirty days from delivery.';

const ok = (body: unknown): CrewAnswer => ({ kind: 'http', statusCode: 200, body });
const http = (statusCode: number, body: unknown = { detail: 'x' }): CrewAnswer => ({
	kind: 'http',
	statusCode,
	body,
});
const reset: CrewAnswer = { kind: 'network', code: 'ECONNRESET', message: 'socket hang up' };
type Message = ['user' | 'assistant', string];
const history = (messages: Message[], active: string | null = null) =>
	ok({
		messages: messages.map(([role, content]) => ({ role, content })),
		active_kickoff_id: active,
	});

const sse = (id: string, data: object) =>
	`id: ${id}\ndata: ${JSON.stringify({ ...data, stream_id: id })}\n\n`;
const token = (id: string, content: string) => sse(id, { type: 'token', data: { content } });
const completed = (id: string) => sse(id, { type: 'turn_completed' });
const failed = (id: string, error: string) => sse(id, { type: 'turn_failed', data: { error } });

/** A stream the fake opens: its text in pieces, then the end, or a cut (the connection breaks) after them. */
interface ScriptedStream {
	pieces: string[];
	cut?: boolean;
}

interface Script {
	/** The history reads' answers in order; the last one answers every later read. */
	histories: CrewAnswer[];
	send?: CrewAnswer;
	/** The stream opens' answers in order: a stream, or an answer instead of one (409, 502...). */
	streams: Array<ScriptedStream | CrewAnswer>;
}

function fakeChat(script: Script) {
	const asked: string[] = [];
	let closed = 0;
	let historyReads = 0;
	let streamOpens = 0;
	const requests: ChatRequests = {
		readHistory: async () => {
			asked.push('history');
			return script.histories[Math.min(historyReads++, script.histories.length - 1)];
		},
		sendMessage: async () => {
			asked.push('message');
			return script.send ?? ok({ kickoff_id: 'k-1' });
		},
		openStream: async (lastEventId: string) => {
			asked.push(`stream after ${lastEventId}`);
			const next = script.streams[streamOpens++];
			if (next === undefined)
				throw new Error(`the script has no stream open number ${streamOpens}`);
			if ('kind' in next) return next;
			const scripted: ScriptedStream = next;
			async function* pieces() {
				for (const piece of scripted.pieces) yield piece;
				if (scripted.cut) throw new Error('socket hang up');
			}
			const stream: OpenStream = { kind: 'stream', pieces: pieces(), close: () => void closed++ };
			return stream;
		},
	};
	return { requests, asked, closedCount: () => closed };
}

/** Time moves only when the turn sleeps; the sleeps are recorded. */
function fakeClock(cancelAfterSleeps = Infinity) {
	let now = 0;
	const sleeps: number[] = [];
	const clock: TurnClock = {
		now: () => now,
		sleep: async (ms) => {
			sleeps.push(ms);
			now += ms;
		},
		isCancelled: () => sleeps.length >= cancelAfterSleeps,
	};
	return { clock, sleeps };
}

async function turn(
	script: Script,
	options: {
		deadline?: number;
		cancelAfterSleeps?: number;
		message?: string;
		sentEarlier?: SentMessage;
	} = {},
) {
	const chat = fakeChat(script);
	const { clock, sleeps } = fakeClock(options.cancelAfterSleeps);
	const told: string[] = [];
	const sending: SentMessage[] = [];
	const outcome = await runTurn(chat.requests, options.message ?? MESSAGE, {
		deadline: options.deadline ?? 60_000,
		clock,
		onText: async (text) => void told.push(text),
		sentEarlier: options.sentEarlier,
		onSending: (sent) => void sending.push(sent),
	});
	return { outcome, told, sleeps, asked: chat.asked, closed: chat.closedCount(), sending };
}

const answered: Message[] = [
	['user', MESSAGE],
	['assistant', REPLY],
];

describe('runTurn: a turn that goes as planned', () => {
	it("reads the history, sends once, tells the text as it comes, and replies with the history's last assistant message", async () => {
		const { outcome, told, asked, closed } = await turn({
			histories: [history([]), history(answered)],
			streams: [
				{
					pieces: [token('1-1', 'Thirty days '), token('1-2', 'from delivery.') + completed('1-3')],
				},
			],
		});
		expect(outcome).toEqual({ kind: 'replied', reply: REPLY, frameCount: 3, sent: true });
		expect(told).toEqual(['Thirty days ', 'from delivery.']);
		expect(asked).toEqual(['history', 'message', 'stream after 0-0', 'history']);
		expect(closed).toBe(1);
	});

	it("gives the flow's reason when the turn fails", async () => {
		const { outcome, asked } = await turn({
			histories: [history([])],
			streams: [{ pieces: [token('1-1', 'Let me'), failed('1-2', 'the model is overloaded')] }],
		});
		expect(outcome).toEqual({
			kind: 'failed',
			reason: 'the model is overloaded',
			frameCount: 2,
			sent: true,
		});
		expect(asked).toEqual(['history', 'message', 'stream after 0-0']);
	});

	it('reads the history again while it still shows the turn running after turn_completed, a bounded number of times', async () => {
		const running = history([['user', MESSAGE]], 'k-1');
		const settled = await turn({
			histories: [history([]), running, running, history(answered)],
			streams: [{ pieces: [completed('1-1')] }],
		});
		expect(settled.outcome).toMatchObject({ kind: 'replied', reply: REPLY });
		expect(settled.sleeps).toEqual([HISTORY_SETTLE_WAIT_MS, HISTORY_SETTLE_WAIT_MS]);

		// A history that never settles: the frames' text stands in for the reply it does not hold yet.
		const stuck = await turn({
			histories: [history([]), running],
			streams: [{ pieces: [token('1-1', REPLY), completed('1-2')] }],
		});
		expect(stuck.outcome).toEqual({ kind: 'replied', reply: REPLY, frameCount: 2, sent: true });
		expect(stuck.asked.filter((request) => request === 'history')).toHaveLength(
			1 + HISTORY_SETTLE_READS,
		);
	});

	it('fails a turn that ends with no reply in the history and no text', async () => {
		const { outcome } = await turn({
			histories: [history([]), history([['user', MESSAGE]])],
			streams: [{ pieces: [completed('1-1')] }],
		});
		expect(outcome).toEqual({
			kind: 'failed',
			reason: "the turn ended with no reply in the flow's history",
			frameCount: 1,
			sent: true,
		});
	});
});

describe('runTurn: a broken stream', () => {
	it('resumes a cut stream from the last frame id, without telling a repeated frame twice', async () => {
		const { outcome, told, asked, sleeps, closed } = await turn({
			histories: [history([]), history([['user', MESSAGE]], 'k-1'), history(answered)],
			streams: [
				{ pieces: [token('1-1', 'Thirty days ')], cut: true },
				// The service sends the last frame again: it is dropped by its id.
				{
					pieces: [token('1-1', 'Thirty days '), token('1-2', 'from delivery.'), completed('1-3')],
				},
			],
		});
		expect(outcome).toEqual({ kind: 'replied', reply: REPLY, frameCount: 3, sent: true });
		expect(told).toEqual(['Thirty days ', 'from delivery.']);
		expect(asked).toEqual([
			'history',
			'message',
			'stream after 0-0',
			'history',
			'stream after 1-1',
			'history',
		]);
		// A cut that brought frames is resumed at once; both connections were closed.
		expect(sleeps).toEqual([]);
		expect(closed).toBe(2);
	});

	it('waits before asking again for a stream that closes with nothing new', async () => {
		const running = history([['user', MESSAGE]], 'k-1');
		const { outcome, sleeps } = await turn({
			histories: [history([]), running, history(answered)],
			streams: [{ pieces: [] }, { pieces: [token('1-1', REPLY), completed('1-2')] }],
		});
		expect(outcome).toMatchObject({ kind: 'replied', reply: REPLY });
		expect(sleeps).toEqual([STREAM_RETRY_WAIT_MS]);
	});

	it('takes a 409 on attach as a turn that may be over: the history decides, or it attaches again after a wait', async () => {
		const fast = await turn({ histories: [history([]), history(answered)], streams: [http(409)] });
		expect(fast.outcome).toEqual({ kind: 'replied', reply: REPLY, frameCount: 0, sent: true });
		expect(fast.asked).toEqual(['history', 'message', 'stream after 0-0', 'history']);

		// Queued but not started yet: the history holds no turn and not the message yet.
		const slow = await turn({
			histories: [history([]), history([]), history(answered)],
			streams: [http(409), { pieces: [token('1-1', REPLY), completed('1-2')] }],
		});
		expect(slow.outcome).toMatchObject({ kind: 'replied', reply: REPLY, frameCount: 2 });
		expect(slow.sleeps).toEqual([ATTACH_RETRY_WAIT_MS]);
	});

	it('rides out a failing stream request, and gives up on a refused one', async () => {
		const flaky = await turn({
			histories: [history([]), history(answered)],
			streams: [http(502), reset, { pieces: [completed('1-1')] }],
		});
		expect(flaky.outcome).toMatchObject({ kind: 'replied', reply: REPLY });
		expect(flaky.sleeps).toEqual([STREAM_RETRY_WAIT_MS, STREAM_RETRY_WAIT_MS]);

		const refused = await turn({ histories: [history([])], streams: [http(403)] });
		expect(refused.outcome).toEqual({ kind: 'refused', step: 'stream', answer: http(403) });
	});
});

describe('runTurn: the message is sent at most once', () => {
	it('follows a turn whose send got no answer when the history shows the message queued', async () => {
		const { outcome, asked } = await turn({
			histories: [history([]), history([['user', MESSAGE]], 'k-1'), history(answered)],
			send: reset,
			streams: [{ pieces: [completed('1-1')] }],
		});
		expect(outcome).toMatchObject({ kind: 'replied', reply: REPLY, sent: true });
		expect(asked.filter((request) => request === 'message')).toHaveLength(1);
	});

	it('stops without sending again when the history does not show the message', async () => {
		for (const send of [reset, http(502)]) {
			const { outcome, asked } = await turn({ histories: [history([])], send, streams: [] });
			expect(outcome).toEqual({ kind: 'uncertainSend', answer: send });
			expect(asked).toEqual(['history', 'message', 'history']);
		}
		// The history grew, but by another message: not this one.
		const other = await turn({
			histories: [history([]), history([['user', 'Something else']], 'k-2')],
			send: reset,
			streams: [],
		});
		expect(other.outcome).toMatchObject({ kind: 'uncertainSend' });
	});

	it('gives a refused send as refused, without reading the history again', async () => {
		const { outcome, asked } = await turn({
			histories: [history([])],
			send: http(422),
			streams: [],
		});
		expect(outcome).toEqual({ kind: 'refused', step: 'message', answer: http(422) });
		expect(asked).toEqual(['history', 'message']);
	});

	it("attaches to this message's turn still running (an earlier execution sent it) and tells its text, without sending it again", async () => {
		// The earlier try of this execution sent it as the session's first message.
		const { outcome, told, asked } = await turn(
			{
				histories: [history([['user', MESSAGE]], 'k-1'), history(answered)],
				streams: [{ pieces: [token('1-1', REPLY), completed('1-2')] }],
			},
			{ sentEarlier: { position: 0 } },
		);
		expect(outcome).toEqual({ kind: 'replied', reply: REPLY, frameCount: 2, sent: false });
		expect(told).toEqual([REPLY]);
		// The history is not read once more to tell by the text whether that turn was this message's: the execution knows.
		expect(asked).toEqual(['history', 'stream after 0-0', 'history']);
	});

	it("waits out another message's turn in silence, then sends its own", async () => {
		const earlier: Message[] = [
			['user', 'Hello'],
			['assistant', 'Hi!'],
		];
		const { outcome, told, asked } = await turn({
			histories: [
				history([['user', 'Hello']], 'k-0'),
				history(earlier),
				history(earlier),
				history([...earlier, ...answered]),
			],
			streams: [
				{ pieces: [token('1-1', 'Hi!'), completed('1-2')] },
				{ pieces: [token('2-1', REPLY), completed('2-2')] },
			],
		});
		expect(outcome).toEqual({ kind: 'replied', reply: REPLY, frameCount: 2, sent: true });
		expect(told).toEqual([REPLY]);
		expect(asked).toEqual([
			'history',
			'stream after 0-0',
			'history',
			'history',
			'message',
			'stream after 0-0',
			'history',
		]);
	});
});

describe('runTurn: a message is known by the execution that sent it, not by its text', () => {
	const YES = 'yes';
	const first: Message[] = [
		['user', YES],
		['assistant', 'Booked.'],
	];
	const both: Message[] = [...first, ['user', YES], ['assistant', 'Paid.']];

	it('a second "yes" while the first one\'s turn still runs (another execution sent it) is sent as a second message, after that turn', async () => {
		const { outcome, told, asked, sending } = await turn(
			{
				histories: [history([['user', YES]], 'k-1'), history(first), history(first), history(both)],
				streams: [
					{ pieces: [token('1-1', 'Booked.'), completed('1-2')] },
					{ pieces: [token('2-1', 'Paid.'), completed('2-2')] },
				],
			},
			{ message: YES },
		);
		expect(outcome).toEqual({ kind: 'replied', reply: 'Paid.', frameCount: 2, sent: true });
		// The first turn's text was not this person's answer: only the second's is told.
		expect(told).toEqual(['Paid.']);
		expect(asked.filter((request) => request === 'message')).toHaveLength(1);
		expect(sending).toEqual([{ position: 1 }]);
	});

	it('a second "yes" whose turn has not started yet is not taken for the first one\'s, which the history already answers', async () => {
		const { outcome, asked } = await turn(
			{
				histories: [history(first), history(first), history(both)],
				streams: [http(409), { pieces: [token('2-1', 'Paid.'), completed('2-2')] }],
			},
			{ message: YES },
		);
		expect(outcome).toMatchObject({ kind: 'replied', reply: 'Paid.' });
		expect(asked).toEqual([
			'history',
			'message',
			'stream after 0-0',
			'history',
			'stream after 0-0',
			'history',
		]);
	});

	it("a try of the same execution whose message's turn is over reads its reply, sends nothing and tells it whole", async () => {
		const { outcome, asked, sending } = await turn(
			{ histories: [history(both)], streams: [] },
			{ message: YES, sentEarlier: { position: 0 } },
		);
		expect(outcome).toEqual({ kind: 'replied', reply: 'Booked.', frameCount: 0, sent: false });
		expect(asked).toEqual(['history']);
		expect(sending).toEqual([]);
	});

	it('a try of the same execution whose message never reached the flow sends it', async () => {
		const { outcome, asked, sending } = await turn(
			{ histories: [history(first), history(both)], streams: [{ pieces: [completed('2-1')] }] },
			{ message: YES, sentEarlier: { position: 1 } },
		);
		expect(outcome).toMatchObject({ kind: 'replied', reply: 'Paid.', sent: true });
		expect(asked.filter((request) => request === 'message')).toHaveLength(1);
		expect(sending).toEqual([{ position: 1 }]);
	});
});

describe('runTurn: what stops a turn', () => {
	it('gives a refused or unreadable history as such, before sending anything', async () => {
		const refused = await turn({ histories: [http(401)], streams: [] });
		expect(refused.outcome).toEqual({ kind: 'refused', step: 'history', answer: http(401) });
		const unreadable = await turn({ histories: [ok('<html>')], streams: [] });
		expect(unreadable.outcome).toEqual({ kind: 'unreadableHistory', body: '<html>' });
		expect([...refused.asked, ...unreadable.asked]).toEqual(['history', 'history']);
	});

	it('times out at the deadline, with the frames counted so far', async () => {
		const running = history([['user', MESSAGE]], 'k-1');
		// Every attach is refused with 409 while the turn shows running: the waits reach the deadline.
		const { outcome, sleeps } = await turn(
			{ histories: [history([]), running], streams: [http(409), http(409), http(409)] },
			{ deadline: 2 * ATTACH_RETRY_WAIT_MS },
		);
		expect(outcome).toEqual({ kind: 'timeout', frameCount: 0, sent: true });
		expect(sleeps).toEqual([ATTACH_RETRY_WAIT_MS, ATTACH_RETRY_WAIT_MS]);
	});

	it('stops when the execution is cancelled', async () => {
		const running = history([['user', MESSAGE]], 'k-1');
		const { outcome, asked } = await turn(
			{ histories: [history([]), running], streams: [http(409), http(409)] },
			{ cancelAfterSleeps: 1 },
		);
		expect(outcome).toEqual({ kind: 'cancelled' });
		expect(asked.filter((request) => request.startsWith('stream'))).toHaveLength(1);
	});
});
