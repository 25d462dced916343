import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { earlierTry, maybeStartedText, rememberKickoff, runMemoryOf } from '../../../waiting/earlierTries';
import type { NodeContext, RunMemory, SentRequest, UnansweredSend } from '../../../waiting/earlierTries';
import { scrubSecret } from '../../transport/crewErrors';

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

/** An item's crew for this try: started now, or the one an earlier try started for the same request. */
export interface TriedKickoff {
	kickoffId: string;
	startedAt: number;
	/** The crew was started by an earlier try: no kickoff was sent now. */
	earlier: boolean;
	seen?: boolean;
	tokenHash?: string;
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
	/** requestDigest of what would be sent. */
	request: string;
	sends?: SentRequest;
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
	start: () => Promise<{ kickoffId: string; tokenHash?: string }>,
): Promise<TriedKickoff> {
	const { itemIndex, request } = item;
	const earlier = earlierTry(memory, itemIndex, request);
	if (earlier.kind === 'reuse') {
		const kept = earlier.kickoff;
		return { kickoffId: kept.kickoffId, startedAt: kept.startedAt, earlier: true, seen: kept.seen, tokenHash: kept.tokenHash };
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
		if (send?.sent === 'maybe') rememberKickoff(memory, itemIndex, { request, answered: send.answered, sentAt: now() });
		// The kickoff's own error, unchanged: the item's error is what it says.
		return await Promise.reject(error);
	});
	const kickoff = { kickoffId: started.kickoffId, startedAt: now(), request, ...(started.tokenHash ? { tokenHash: started.tokenHash } : {}) };
	rememberKickoff(memory, itemIndex, kickoff);
	return { ...kickoff, earlier: false };
}
