import { createHash } from 'crypto';

import type { StopResult } from '../records/stopAnswer';
import type { FirstPhaseOutcome } from './firstPhase';

/**
 * What a node's run remembers of its earlier tries, so that n8n's Retry On Fail
 * never starts a crew twice. n8n runs the node again with every input item when a
 * try throws (the node's Retry On Fail setting; n8n-core's WorkflowExecute calls
 * the node up to Max Tries times with the same run index and input). The node
 * context (`getContext('node')`) is one object for the whole execution: n8n-workflow's
 * NodeHelpers.getContext keeps it in the execution's `executionData.contextData`
 * under `node:<node name>`, which every try reads and which is saved with the
 * execution, a waiting one included. So a try writes here what it started, and the
 * next try of the same run index:
 * - gives an item whose crew completed (or paused for a person) its result again
 *   from a status read, with no new kickoff;
 * - waits again on a crew still going, without starting it again;
 * - starts again only the items whose kickoff or crew failed.
 *
 * What is kept is small and holds no secret: per item the kickoff ID, when it was
 * answered, a digest of the kickoff request, whether the service has reported the
 * run, and (Wait By: Callback) the hash of the crew's callback token, never the token.
 * Pure apart from the digest, so the decisions are tested without n8n or a service.
 */

/** One item's kickoff, as the next try needs it. */
export interface RememberedKickoff {
	kickoffId: string;
	/** Clock time the kickoff was answered: the wait's schedule and a stop's registration window count from it. */
	startedAt: number;
	/** Digest of the kickoff request: an item that asks for something else is started anew. */
	request: string;
	/** The service has reported the run (a record other than NOT FOUND): NOT FOUND from then on is a pause for a person. */
	seen?: boolean;
	/** Wait By: Callback: the hash of the token the crew calls back with. */
	tokenHash?: string;
}

/** The kickoffs of one run of the node, by item index. */
export type RunMemory = Record<string, RememberedKickoff>;

/** The node context as n8n hands it: a plain object kept with the execution. */
export type NodeContext = Record<string, unknown>;

/** Runs of the node are kept apart: a node run again in a loop (another run index, other items) starts its crews anew. */
export function memoryKey(runIndex: number): string {
	return `crewKickoffs:${runIndex}`;
}

/** The memory of one run, created empty in the context on first use (the context object is what n8n saves). */
export function runMemoryOf(context: NodeContext, runIndex: number): RunMemory {
	const key = memoryKey(runIndex);
	const held = context[key];
	if (typeof held === 'object' && held !== null && !Array.isArray(held)) return held as RunMemory;
	const created: RunMemory = {};
	context[key] = created;
	return created;
}

/**
 * A digest of what an item asks the service for: the kickoff body as sent (the
 * callback token added per try left out by the caller) and its files' names and
 * sizes. 16 hex digits of SHA-256: enough to tell two requests apart, and the
 * body cannot be read back from it.
 */
export function requestDigest(body: unknown, files?: unknown): string {
	return createHash('sha256')
		.update(JSON.stringify([body ?? null, files ?? null]))
		.digest('hex')
		.slice(0, 16);
}

/** The item's kickoff of an earlier try, when the item asks for the same thing; undefined: start it. */
export function earlierKickoff(memory: RunMemory, itemIndex: number, request: string): RememberedKickoff | undefined {
	const kept = memory[String(itemIndex)];
	return kept !== undefined && kept.request === request && typeof kept.kickoffId === 'string' ? kept : undefined;
}

export function rememberKickoff(memory: RunMemory, itemIndex: number, kickoff: RememberedKickoff): void {
	memory[String(itemIndex)] = kickoff;
}

/** How a try ended for one item's crew, as far as the next try is concerned. */
export type TryEnding =
	/** The crew completed, paused for a person, or may still be running: the next try reads it again, never starts it. */
	| { next: 'reuse'; seen: boolean }
	/** The crew failed, was stopped, or is unknown to the service: the next try starts the item again. */
	| { next: 'startAgain' };

function afterStop(stop: StopResult | undefined, seen: boolean): TryEnding {
	if (stop === undefined || stop.kind === 'notStopped') return { next: 'reuse', seen };
	if (stop.kind === 'ended' && stop.state === 'completed') return { next: 'reuse', seen: true };
	return { next: 'startAgain' };
}

/** What the next try does with an item whose crew ended the wait this way (polling, or a first phase). */
export function tryEndingOf(outcome: FirstPhaseOutcome): TryEnding {
	switch (outcome.kind) {
		case 'completed':
		case 'paused':
			return { next: 'reuse', seen: true };
		case 'running':
			return { next: 'reuse', seen: outcome.lastStatus !== undefined };
		case 'timedOut':
		case 'cancelled':
			return afterStop(outcome.stop, outcome.lastStatus !== undefined);
		case 'failed':
		case 'stopped':
		case 'notFound':
		case 'error':
			return { next: 'startAgain' };
	}
}

/** Writes what the next try does with the item: keeps its kickoff (marked seen when it was), or forgets it. */
export function rememberEnding(memory: RunMemory, itemIndex: number, ending: TryEnding): void {
	const key = String(itemIndex);
	const kept = memory[key];
	if (kept === undefined) return;
	if (ending.next === 'startAgain') delete memory[key];
	else if (ending.seen && !kept.seen) memory[key] = { ...kept, seen: true };
}
