// @ts-check
'use strict';

const { randomUUID } = require('node:crypto');

/**
 * A deployed conversational flow's chat API (docs/development/service-api.md#chat-with-a-conversational-flow):
 * `/inspect`, `/chat/start`, `/chat/{id}/message`, the turn's frames as
 * Server-Sent Events at `/chat/{id}/stream/events`, `/chat/{id}/history`.
 * Sessions remember their turns; the flow's reply names the message and how
 * many the session has had, so a test sees whether two messages met one session.
 *
 * Turns run on real timers (`paceMs` between frames). A test that must see text
 * before the turn ends sets `hold: true`: the turn then waits, text sent, until
 * `release()` (or `POST /_reference/chat/release`), so nothing depends on speed.
 */

/** @typedef {import('./index').ChatOptions} ChatOptions */
/** @typedef {{ status: number, headers?: Record<string, string>, body: string }} Answer */
/** @typedef {{ id: string, data: Record<string, unknown> }} Frame */
/**
 * @typedef {{
 *   kickoffId: string, number: number, message: string, frames: Frame[], over: boolean, held: boolean,
 *   release: (() => void) | null, releaseAsked: boolean, listeners: Set<(frame: Frame | null) => void>, connections: number, timers: Set<NodeJS.Timeout>
 * }} Turn
 */
/** @typedef {{ id: string, messages: Array<{ role: 'user' | 'assistant', content: string }>, turns: Turn[], active: Turn | null }} Session */

/** @type {Required<ChatOptions>} */
const DEFAULT_CHAT = {
	conversational: true,
	textFrames: 'token',
	paceMs: 5,
	textAtEnd: false,
	hold: false,
	failTurn: null,
	cutStreamAfterFrames: null,
	inclusiveResume: false,
};

const CHAT_KEYS = Object.keys(DEFAULT_CHAT);

/**
 * @param {unknown} value
 * @returns {Required<ChatOptions> | null}
 */
function resolveChatOptions(value) {
	if (value === null || value === undefined) return null;
	if (typeof value !== 'object' || Array.isArray(value))
		throw new TypeError('option chat must be an object or null');
	const v = /** @type {Record<string, unknown>} */ (value);
	for (const key of Object.keys(v))
		if (!CHAT_KEYS.includes(key)) throw new TypeError(`unknown chat option "${key}"`);
	if (
		v.textFrames !== undefined &&
		!['token', 'llm_stream_chunk', 'both'].includes(/** @type {string} */ (v.textFrames))
	) {
		throw new TypeError('option chat.textFrames must be token, llm_stream_chunk or both');
	}
	for (const key of ['conversational', 'textAtEnd', 'hold', 'inclusiveResume']) {
		if (v[key] !== undefined && typeof v[key] !== 'boolean')
			throw new TypeError(`option chat.${key} must be a boolean`);
	}
	if (
		v.paceMs !== undefined &&
		!(Number.isInteger(v.paceMs) && /** @type {number} */ (v.paceMs) >= 0)
	)
		throw new TypeError('option chat.paceMs must be a non-negative integer');
	if (v.failTurn !== undefined && v.failTurn !== null && typeof v.failTurn !== 'string')
		throw new TypeError('option chat.failTurn must be a string or null');
	if (
		v.cutStreamAfterFrames !== undefined &&
		v.cutStreamAfterFrames !== null &&
		!(
			Number.isInteger(v.cutStreamAfterFrames) &&
			/** @type {number} */ (v.cutStreamAfterFrames) >= 1
		)
	) {
		throw new TypeError('option chat.cutStreamAfterFrames must be a positive integer or null');
	}
	return /** @type {Required<ChatOptions>} */ ({
		...DEFAULT_CHAT,
		...Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)),
	});
}

/** @param {number} status @param {unknown} value @returns {Answer} */
const json = (status, value) => ({
	status,
	body: JSON.stringify(value),
	headers: { 'content-type': 'application/json' },
});

/** Redis stream ids `<n>-<n>`, compared part by part. @param {string} a @param {string} b */
function compareIds(a, b) {
	const [a1, a2] = a.split('-').map(Number);
	const [b1, b2] = b.split('-').map(Number);
	return a1 !== b1 ? a1 - b1 : a2 - b2;
}

/** The flow's deterministic reply: it names the message and how many the session has had. @param {Session} session @param {string} message */
function replyTo(session, message) {
	const count = session.messages.filter((m) => m.role === 'user').length;
	return `Reply ${count} to "${message}": this session has ${count} message${count === 1 ? '' : 's'} from you.`;
}

/** Text cut as a model streams it: word by word, spaces kept. @param {string} text */
const pieces = (text) => text.match(/\S+\s*/g) ?? [text];

class ChatDeployment {
	/** @param {{ options: () => Required<ChatOptions> | null }} deps */
	constructor(deps) {
		this.deps = deps;
		/** @type {Map<string, Session>} */
		this.sessions = new Map();
	}

	/** @returns {Answer} */
	inspect() {
		const chat = this.deps.options();
		// No chat configured: a crew or a plain flow, which (as far as is known) has no /inspect.
		if (!chat) return json(404, { detail: 'Not Found' });
		return json(200, {
			flow: {
				name: 'SupportFlow',
				chat: { conversational: chat.conversational, handle_turn: chat.conversational },
			},
		});
	}

	/** @returns {Answer} */
	start() {
		const chat = this.deps.options();
		if (!chat || !chat.conversational) return json(404, { detail: 'Not Found' });
		const session = { id: randomUUID(), messages: [], turns: [], active: null };
		this.sessions.set(session.id, session);
		return json(200, { session_id: session.id });
	}

	/** @param {string} sessionId @param {unknown} body @returns {Answer} */
	message(sessionId, body) {
		const chat = this.deps.options();
		if (!chat || !chat.conversational) return json(404, { detail: 'Not Found' });
		const session = this.sessions.get(sessionId);
		if (!session) return json(404, { detail: `Session not found: ${sessionId}` });
		const message =
			body !== null && typeof body === 'object'
				? /** @type {Record<string, unknown>} */ (body).message
				: undefined;
		if (typeof message !== 'string' || message.trim() === '')
			return json(422, { detail: 'message: Field required' });
		if (session.active) return json(409, { detail: 'A turn is already running in this session' });
		session.messages.push({ role: 'user', content: message });
		/** @type {Turn} */
		const turn = {
			kickoffId: randomUUID(),
			number: session.turns.length + 1,
			message,
			frames: [],
			over: false,
			held: false,
			release: null,
			releaseAsked: false,
			listeners: new Set(),
			connections: 0,
			timers: new Set(),
		};
		session.turns.push(turn);
		session.active = turn;
		this.play(session, turn, chat);
		return json(202, { status: 'turn_queued', kickoff_id: turn.kickoffId });
	}

	/** @param {string} sessionId @returns {Answer} */
	history(sessionId) {
		const session = this.sessions.get(sessionId);
		if (!session) return json(404, { detail: `Session not found: ${sessionId}` });
		return json(200, {
			messages: session.messages,
			active_kickoff_id: session.active ? session.active.kickoffId : null,
		});
	}

	/**
	 * The frames of the active turn after `last_event_id`, then those still to come; the
	 * response ends after the turn's last frame. 409 when no turn is active.
	 * @param {string} sessionId
	 * @param {URLSearchParams} query
	 * @param {import('node:http').ServerResponse} res
	 * @returns {Answer | null} an answer, or null when the response is taken over
	 */
	attach(sessionId, query, res) {
		const chat = this.deps.options();
		const session = this.sessions.get(sessionId);
		if (!session) return json(404, { detail: `Session not found: ${sessionId}` });
		const turn = session.active;
		if (!turn) return json(409, { detail: 'No active turn for this session' });
		const lastId = query.get('last_event_id') || '0-0';
		const inclusive = chat !== null && chat.inclusiveResume;
		turn.connections += 1;
		const cutAfter =
			chat && chat.cutStreamAfterFrames !== null && turn.connections === 1
				? chat.cutStreamAfterFrames
				: null;
		res.writeHead(200, {
			'content-type': 'text/event-stream',
			'cache-control': 'no-cache',
			connection: 'keep-alive',
		});
		res.write(': connected\n\n');
		let sent = 0;
		let cut = false;
		/** @param {Frame | null} frame */
		const write = (frame) => {
			if (res.destroyed || cut) return;
			if (frame === null) {
				turn.listeners.delete(write);
				res.end();
				return;
			}
			const order = compareIds(frame.id, lastId);
			if (order < 0 || (order === 0 && !inclusive)) return;
			res.write(`id: ${frame.id}\ndata: ${JSON.stringify(frame.data)}\n\n`);
			sent += 1;
			if (cutAfter !== null && sent >= cutAfter) {
				// A proxy or the platform dropping the stream mid-turn: the client must resume from the last id.
				turn.listeners.delete(write);
				cut = true;
				res.write('', () => res.socket?.destroy());
			}
		};
		for (const frame of turn.frames) {
			write(frame);
			if (res.destroyed || cut) return null;
		}
		if (turn.over) write(null);
		else {
			turn.listeners.add(write);
			res.on('close', () => turn.listeners.delete(write));
		}
		return null;
	}

	/**
	 * Schedules the turn's frames: started, the text, then completed (or failed).
	 * @param {Session} session @param {Turn} turn @param {Required<ChatOptions>} chat
	 */
	play(session, turn, chat) {
		const reply = replyTo(session, turn.message);
		/** @type {Array<Record<string, unknown>>} */
		const text = [];
		for (const piece of pieces(reply)) {
			if (chat.textFrames !== 'token')
				text.push({ type: 'llm_stream_chunk', data: { chunk: piece } });
			if (chat.textFrames !== 'llm_stream_chunk')
				text.push({ type: 'token', data: { content: piece } });
		}
		let seq = 0;
		/** @param {Record<string, unknown>} data */
		const emit = (data) => {
			seq += 1;
			const id = `${turn.number}-${seq}`;
			const frame = { id, data: { ...data, stream_id: id } };
			turn.frames.push(frame);
			for (const listener of [...turn.listeners]) listener(frame);
		};
		const end = () => {
			if (chat.failTurn !== null) {
				emit({ type: 'turn_failed', data: { error: chat.failTurn } });
			} else {
				session.messages.push({ role: 'assistant', content: reply });
				emit({ type: 'turn_completed', data: { kickoff_id: turn.kickoffId } });
			}
			turn.over = true;
			session.active = null;
			for (const listener of [...turn.listeners]) listener(null);
		};
		/** @type {Array<() => void>} */
		const steps = [() => emit({ type: 'turn_started', data: { kickoff_id: turn.kickoffId } })];
		steps.push(() => emit({ type: 'flow_method_started', data: { method_name: 'handle_turn' } }));
		const textSteps = text.map((data) => () => emit(data));
		// Text at the end: as the vendor saw live, generation buffered upstream and sent in one go.
		if (chat.textAtEnd) steps.push(() => textSteps.forEach((step) => step()));
		else steps.push(...textSteps);
		/** @param {number} index */
		const run = (index) => {
			if (index < steps.length) {
				steps[index]();
				const timer = setTimeout(() => {
					turn.timers.delete(timer);
					run(index + 1);
				}, chat.paceMs);
				turn.timers.add(timer);
				return;
			}
			if (chat.hold && !turn.releaseAsked) {
				turn.held = true;
				turn.release = () => {
					turn.held = false;
					turn.release = null;
					end();
				};
				return;
			}
			end();
		};
		run(0);
	}

	/** Ends every held turn (or those of one session). @param {string} [sessionId] */
	release(sessionId) {
		let released = 0;
		for (const session of this.sessions.values()) {
			if (sessionId !== undefined && session.id !== sessionId) continue;
			if (!session.active) continue;
			// A turn not at its hold yet ends as soon as its text is out.
			if (session.active.release) session.active.release();
			else session.active.releaseAsked = true;
			released += 1;
		}
		return released;
	}

	/** Sessions as a test reads them: id, history, turns (without live parts). */
	describe() {
		return [...this.sessions.values()].map((s) => ({
			id: s.id,
			messages: s.messages.map((m) => ({ ...m })),
			activeKickoffId: s.active ? s.active.kickoffId : null,
			turns: s.turns.map((t) => ({
				kickoffId: t.kickoffId,
				message: t.message,
				over: t.over,
				held: t.held,
				frames: t.frames.length,
				connections: t.connections,
			})),
		}));
	}

	reset() {
		for (const session of this.sessions.values()) {
			for (const turn of session.turns) {
				for (const timer of turn.timers) clearTimeout(timer);
				for (const listener of [...turn.listeners]) listener(null);
			}
		}
		this.sessions.clear();
	}
}

/**
 * The chat routes: `inspect`, `chatStart`, `chatMessage`, `chatStream`, `chatHistory`, or null.
 * @param {string} path
 * @returns {{ route: 'inspect' | 'chatStart' } | { route: 'chatMessage' | 'chatStream' | 'chatHistory', sessionId: string } | null}
 */
function matchChatRoute(path) {
	if (path === '/inspect') return { route: 'inspect' };
	if (path === '/chat/start') return { route: 'chatStart' };
	const match = /^\/chat\/([^/]+)\/(message|stream\/events|history)$/.exec(path);
	if (!match) return null;
	let sessionId = match[1];
	try {
		sessionId = decodeURIComponent(sessionId);
	} catch {
		// kept raw: it matches no session
	}
	const route =
		match[2] === 'message' ? 'chatMessage' : match[2] === 'history' ? 'chatHistory' : 'chatStream';
	return { route, sessionId };
}

/** @type {Record<string, string>} */
const CHAT_METHODS = {
	inspect: 'GET',
	chatStart: 'POST',
	chatMessage: 'POST',
	chatStream: 'GET',
	chatHistory: 'GET',
};

module.exports = { ChatDeployment, resolveChatOptions, matchChatRoute, CHAT_METHODS, compareIds };
