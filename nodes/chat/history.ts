import { isPlainObject } from '../records/plainObject';

export interface ChatMessage {
	role: string;
	content: string;
}

export interface ChatHistory {
	messages: ChatMessage[];
	/** The turn still running, or null. */
	activeKickoffId: string | null;
}

/**
 * `GET /chat/{id}/history`: `{"messages": [{role, content}], "active_kickoff_id"}`; undefined when
 * it is not that.
 */
export function readHistory(body: unknown): ChatHistory | undefined {
	if (!isPlainObject(body) || !Array.isArray(body.messages)) return undefined;
	const messages = body.messages.filter(isPlainObject).map((message) => ({
		role: String(message.role ?? ''),
		content:
			typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''),
	}));
	const active = body.active_kickoff_id;
	return { messages, activeKickoffId: typeof active === 'string' && active !== '' ? active : null };
}

/** The reply: the last assistant message, when it comes after the last user message. */
export function lastReply(history: ChatHistory): string | undefined {
	const last = history.messages.at(-1);
	return last?.role === 'assistant' ? last.content : undefined;
}

/** How many user messages the session holds: a turn was queued when this grew. */
export function userMessageCount(history: ChatHistory): number {
	return history.messages.filter((message) => message.role === 'user').length;
}

/**
 * A message is known by its place among the session's user messages (0 the first),
 * not by its text: a person may send the same text twice ("yes"), each its own turn.
 */
export function userMessageAt(history: ChatHistory, position: number): string | undefined {
	return history.messages.filter((message) => message.role === 'user')[position]?.content;
}

/**
 * The reply to the user message at `position`: the last assistant message before the next user
 * message.
 */
export function replyAt(history: ChatHistory, position: number): string | undefined {
	let seen = -1;
	let reply: string | undefined;
	for (const message of history.messages) {
		if (message.role === 'user') seen++;
		if (seen > position) break;
		if (seen === position && message.role === 'assistant') reply = message.content;
	}
	return reply;
}

/**
 * Whether the turn of the user message at `position` is over, as the vendor's client decides
 * after a broken stream: the history holds the message, and no turn is active, or a later
 * message's turn is.
 */
export function turnIsOverAt(history: ChatHistory, position: number): boolean {
	const count = userMessageCount(history);
	return count > position + 1 || (count > position && history.activeKickoffId === null);
}
