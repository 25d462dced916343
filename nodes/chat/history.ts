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

/** `GET /chat/{id}/history`: `{"messages": [{role, content}], "active_kickoff_id"}`; undefined when it is not that. */
export function readHistory(body: unknown): ChatHistory | undefined {
	if (!isPlainObject(body) || !Array.isArray(body.messages)) return undefined;
	const messages = body.messages
		.filter(isPlainObject)
		.map((message) => ({ role: String(message.role ?? ''), content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '') }));
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
 * Whether the turn of `message` is over, as the vendor's client decides after a
 * broken stream: no turn is active and the last user message is the one sent.
 */
export function turnIsOver(history: ChatHistory, message: string): boolean {
	if (history.activeKickoffId !== null) return false;
	const lastUser = [...history.messages].reverse().find((entry) => entry.role === 'user');
	return lastUser?.content === message;
}
