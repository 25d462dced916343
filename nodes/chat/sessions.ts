import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../records/plainObject';

/** A conversation's flow session, as kept in the node's static data. */
export interface KeptSession {
	sessionId: string;
	/** The deployment the session belongs to: another Base URL knows nothing of it. */
	baseUrl: string;
	/** Milliseconds since the epoch; the oldest are dropped first. */
	usedAt: number;
}

/**
 * How many conversations one node keeps. n8n writes the whole static data
 * into the workflow's row after each execution, so it must stay small.
 */
export const MAX_KEPT_SESSIONS = 1000;

const FIELD = 'conversationSessions';

function keptSessions(staticData: IDataObject): Record<string, KeptSession> {
	const kept = staticData[FIELD];
	return isPlainObject(kept) ? (kept as unknown as Record<string, KeptSession>) : {};
}

/** The session kept for this conversation on this deployment, if any. */
export function findSession(
	staticData: IDataObject,
	conversationKey: string,
	baseUrl: string,
): string | undefined {
	const kept = keptSessions(staticData)[conversationKey];
	return isPlainObject(kept) && typeof kept.sessionId === 'string' && kept.baseUrl === baseUrl
		? kept.sessionId
		: undefined;
}

/**
 * Keeps the conversation's session, dropping the least recently used beyond
 * MAX_KEPT_SESSIONS. The field is assigned anew, so n8n's observable static
 * data marks itself changed and is saved after the execution.
 */
export function keepSession(
	staticData: IDataObject,
	conversationKey: string,
	session: KeptSession,
): void {
	const kept = { ...keptSessions(staticData), [conversationKey]: session };
	const keys = Object.keys(kept);
	if (keys.length > MAX_KEPT_SESSIONS) {
		const oldestFirst = keys.sort((a, b) => kept[a].usedAt - kept[b].usedAt);
		for (const key of oldestFirst.slice(0, keys.length - MAX_KEPT_SESSIONS)) delete kept[key];
	}
	staticData[FIELD] = kept as unknown as IDataObject;
}
