import type { IExecuteFunctions } from 'n8n-workflow';

import { earlierKickoff, rememberKickoff, runMemoryOf } from '../../../waiting/earlierTries';
import type { NodeContext, RunMemory } from '../../../waiting/earlierTries';

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

/**
 * Starts the item's crew unless an earlier try started it for the same request
 * (`request`, requestDigest of what would be sent), and remembers what it started
 * as soon as the kickoff is answered, so that a try that throws later still knows it.
 */
export async function startOnce(
	memory: RunMemory,
	itemIndex: number,
	request: string,
	now: () => number,
	start: () => Promise<{ kickoffId: string; tokenHash?: string }>,
): Promise<TriedKickoff> {
	const earlier = earlierKickoff(memory, itemIndex, request);
	if (earlier) return { kickoffId: earlier.kickoffId, startedAt: earlier.startedAt, earlier: true, seen: earlier.seen, tokenHash: earlier.tokenHash };
	const started = await start();
	const kickoff = { kickoffId: started.kickoffId, startedAt: now(), request, ...(started.tokenHash ? { tokenHash: started.tokenHash } : {}) };
	rememberKickoff(memory, itemIndex, kickoff);
	return { ...kickoff, earlier: false };
}
