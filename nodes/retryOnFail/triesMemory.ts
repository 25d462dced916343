import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { earlierTry, forgetRunMemory, maybeStartedText, rememberKickoff, requestDigest, runMemoryOf } from './earlierTries';
import type { NodeContext, RunMemory, SentRequest, UnansweredSend } from './earlierTries';
import { scrubSecret, scrubSecrets, scrubSecretsDeep, withSecretsHidden } from '../transport/hiddenSecrets';
import { CREDENTIAL_SECRET_FIELDS, CREDENTIAL_TYPE } from '../transport';

/**
 * The run index of this call of the node: n8n-core's execute context holds it as
 * `runIndex` (1.x and 2.x); `$runIndex` says the same where it does not.
 */
function runIndexOf(context: IExecuteFunctions): number {
	const own = (context as unknown as { runIndex?: unknown }).runIndex;
	if (typeof own === 'number' && Number.isInteger(own) && own >= 0) return own;
	try {
		const read = Number(context.evaluateExpression('{{ $runIndex }}', 0));
		return Number.isInteger(read) && read >= 0 ? read : 0;
	} catch {
		return 0;
	}
}

/**
 * What the earlier tries of this run of the node started (earlierTries.ts), kept in
 * n8n's node context. A context without getContext (none is known) remembers nothing:
 * each try then starts its crews, as before.
 */
export function triesMemory(context: IExecuteFunctions): RunMemory {
	if (typeof context.getContext !== 'function') return {};
	return runMemoryOf(context.getContext('node') as NodeContext, runIndexOf(context));
}

/**
 * Forgets this run's kickoffs once the node returned without an error: n8n retries a
 * try only when it throws or its first item is an error, so none follows.
 */
export function forgetTries(context: IExecuteFunctions, output: INodeExecutionData[][]): void {
	if (typeof context.getContext !== 'function') return;
	const first = output[0]?.[0]?.json?.error;
	if (first !== undefined && first !== null && first !== false) return;
	forgetRunMemory(context.getContext('node') as NodeContext, runIndexOf(context));
}

/**
 * The digest of what an item asks for (requestDigest), keyed by the credential's token:
 * the input item as it came in and the node's parameters as written, so that it is the
 * same on every try. `more` adds what else makes a request another (Wait By: Callback's
 * resume URL, which names the execution).
 */
export function itemRequest(context: IExecuteFunctions, itemIndex: number, key: string, more?: unknown): string {
	const item = context.getInputData()[itemIndex];
	const files = Object.entries(item?.binary ?? {}).map(([name, file]) => [name, file.fileName, file.mimeType, file.fileSize, file.bytes]);
	return requestDigest(key, { json: item?.json ?? null, files, parameters: context.getNode().parameters, more: more ?? null });
}

/**
 * The Crew API credential's secrets: its token, the callback bearer token, the
 * human-input basic password, the legacy webhook secret and the flow signing secret.
 */
export async function credentialSecrets(context: IExecuteFunctions, itemIndex: number): Promise<string[]> {
	const credentials = (await context.getCredentials(CREDENTIAL_TYPE, itemIndex).catch(() => ({}))) as IDataObject;
	return CREDENTIAL_SECRET_FIELDS.flatMap((name) => {
		const value = credentials[name];
		return typeof value === 'string' && value.trim().length >= 4 ? [value.trim()] : [];
	});
}

/** An item's crew for this try: started now, or the one an earlier try started for the same request. */
export interface TriedKickoff {
	kickoffId: string;
	startedAt: number;
	/** The crew was started by an earlier try: no kickoff was sent now. */
	earlier: boolean;
	seen?: boolean;
	tokenHash?: string;
	/** The service's answer to the kickoff, now or as the earlier try kept it. */
	answer?: IDataObject;
}

// Rides on the error a failed kickoff throws, so that startOnce learns whether it may have started a crew.
const UNANSWERED = Symbol('unansweredSend');

/**
 * Marks the error of a kickoff (or resume) that got no kickoff ID with whether it may
 * have taken effect (unansweredSend). The service's words kept for the next try are
 * cleared of the token, as every error is: they are saved with the execution.
 */
export function withUnansweredSend<E extends Error>(error: E, send: UnansweredSend, secret?: string): E {
	const kept: UnansweredSend = send.sent === 'maybe' ? { sent: 'maybe', answered: scrubSecret(send.answered, secret) } : send;
	Object.defineProperty(error, UNANSWERED, { value: kept, enumerable: false });
	return error;
}

function unansweredSendOf(error: unknown): UnansweredSend | undefined {
	return typeof error === 'object' && error !== null ? ((error as Record<symbol, unknown>)[UNANSWERED] as UnansweredSend | undefined) : undefined;
}

/** Where the item's error is raised, and what it sends. */
export interface StartOnceItem {
	node: INode;
	itemIndex: number;
	/** itemRequest of what would be sent. */
	request: string;
	sends?: SentRequest;
	/**
	 * Secrets to clear from what is kept for the next try: the credential's, and those the
	 * start adds for its crew (a callback token, a signed resume URL) before sending.
	 */
	secrets: (string | undefined)[];
}

/**
 * Starts the item's crew unless an earlier try started it for the same request, and
 * remembers what it started as soon as the kickoff is answered, so that a try that
 * throws later still knows it. A kickoff an earlier try sent that may have started a
 * crew without a kickoff ID is not sent again: the item's error says so. One that
 * certainly started nothing (connection refused, a refusal by the service) is sent again.
 */
export async function startOnce(
	memory: RunMemory,
	item: StartOnceItem,
	now: () => number,
	start: () => Promise<{ kickoffId: string; tokenHash?: string; answer?: IDataObject }>,
): Promise<TriedKickoff> {
	const { itemIndex, request } = item;
	const earlier = earlierTry(memory, itemIndex, request);
	if (earlier.kind === 'reuse') {
		const kept = earlier.kickoff;
		return { kickoffId: kept.kickoffId, startedAt: kept.startedAt, earlier: true, seen: kept.seen, tokenHash: kept.tokenHash, answer: kept.answer as IDataObject | undefined };
	}
	if (earlier.kind === 'maybeStarted') {
		const { message, description } = maybeStartedText(earlier.kickoff, item.sends ?? 'kickoff');
		const error = new NodeOperationError(item.node, message, { itemIndex, description });
		// Set again: n8n's errors swap a message that names a network code (ECONNRESET, …) for a generic sentence.
		error.message = message;
		throw error;
	}
	const started = await start().catch(async (error: unknown) => {
		const send = unansweredSendOf(error);
		if (send?.sent === 'maybe') rememberKickoff(memory, itemIndex, { request, answered: scrubSecrets(send.answered, item.secrets), sentAt: now() });
		// The kickoff's own error, with every secret the request carried hidden: the answer may quote the request.
		return await Promise.reject(error instanceof Error ? withSecretsHidden(error, item.secrets) : error);
	});
	const answer = started.answer ? (scrubSecretsDeep(started.answer, item.secrets) as IDataObject) : undefined;
	const kickoff = { kickoffId: started.kickoffId, startedAt: now(), request, ...(started.tokenHash ? { tokenHash: started.tokenHash } : {}), ...(answer ? { answer } : {}) };
	rememberKickoff(memory, itemIndex, kickoff);
	return { ...kickoff, earlier: false };
}
