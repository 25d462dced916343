import { createHmac } from 'crypto';

import type { StopResult } from '../stop/stopAnswer';
import type { FirstPhaseOutcome } from '../waiting/firstPhase';

/**
 * What a node's run remembers of its earlier tries, so that a retry never starts a crew
 * twice. n8n runs the node again with every input item when a try throws (the node's
 * Retry On Fail setting; n8n-core's WorkflowExecute calls the node up to Max Tries times
 * with the same run index and input), and a Retry of a failed execution from the
 * Executions list runs the failed node again, as a new execution, from the saved
 * execution data: the same input items and run index (the failed run is dropped), and
 * the node context. The node context (`getContext('node')`) is one object for the whole
 * execution: n8n-workflow's NodeHelpers.getContext keeps it in the execution's
 * `executionData.contextData` under `node:<node name>`, which every try reads and which
 * is saved with the execution. So a try writes here what it started, and the next try of
 * the same run index:
 * - gives an item whose crew completed (or paused for a person) its result again
 *   from a status read, with no new kickoff;
 * - waits again on a crew still going, without starting it again;
 * - starts again only the items whose kickoff or crew failed (never a resume: its run
 *   is one person's decision, whatever it came to);
 * - never sends again a kickoff that may have started a crew without saying which
 *   (a 5xx, a read timeout or a dropped connection after the request went out): no
 *   kickoff ID came back, so the item gets an error saying so rather than a second run.
 *
 * What is kept holds no secret: per item the kickoff ID, when it started, whether the
 * service has reported the run, the key of what the item asked for and (Wait By:
 * Callback) the hash of the crew's callback token; for a kickoff that may have started a
 * crew, the key and what the service answered (cleared of secrets by the caller). The
 * key is an HMAC under a random salt kept with the memory, so a token rotated between
 * tries changes nothing. The memory is dropped once a run returns and no retry follows.
 * Pure apart from the digest, so the decisions are tested without n8n or a service.
 */

/** One item's kickoff, as the next try needs it. */
export interface RememberedKickoff {
	/**
	 * requestDigest of what the item asked for: an item that asks for something else is started anew.
	 */
	request: string;
	kickoffId: string;
	/**
	 * Clock time the kickoff was answered: the wait's schedule and a stop's registration window count
	 * from it.
	 */
	startedAt: number;
	/**
	 * The service has reported the run (a record other than NOT FOUND): NOT FOUND from then on is a
	 * pause for a person.
	 */
	seen?: boolean;
	/** Wait By: Callback: the hash of the token the crew calls this execution back with. */
	tokenHash?: string;
}

/**
 * An item's kickoff that went out and got no kickoff ID back: the service may have
 * started a crew. Kept so that the next try does not send it again.
 */
export interface UncertainKickoff {
	/** requestDigest of what the item asked for, as for a started one. */
	request: string;
	/**
	 * What the service answered then: a status code and its own words, or the network failure.
	 * Secret-free.
	 */
	answered: string;
	/** Clock time the answer came. */
	sentAt: number;
}

/** The kickoffs of one run of the node. */
export interface RunMemory {
	/** Random, made by the run's first try: the key of every request digest. */
	salt: string;
	/** The execution whose tries wrote it: a retry from the Executions list is another one. */
	execution: string;
	/** By item index. */
	items: Record<string, RememberedKickoff | UncertainKickoff>;
}

function isStarted(kept: RememberedKickoff | UncertainKickoff): kept is RememberedKickoff {
	return typeof (kept as RememberedKickoff).kickoffId === 'string';
}

/** The node context as n8n hands it: a plain object kept with the execution. */
export type NodeContext = Record<string, unknown>;

/**
 * Runs of the node are kept apart: a node run again in a loop (another run index, other items)
 * starts its crews anew.
 */
export function memoryKey(runIndex: number): string {
	return `crewKickoffs:${runIndex}`;
}

function isRunMemory(held: unknown): held is RunMemory {
	const memory = held as RunMemory | undefined;
	return (
		typeof memory?.salt === 'string' && typeof memory.items === 'object' && memory.items !== null
	);
}

/**
 * The memory of one run in `execution`, created in the context on first use (the context
 * object is what n8n saves). Found in a context another execution saved (a retry from
 * the Executions list), its crews call that execution back, never this one: their token
 * hashes are dropped, so they are awaited by polling.
 */
export function runMemoryOf(
	context: NodeContext,
	runIndex: number,
	execution: string,
	newSalt: () => string,
): RunMemory {
	const key = memoryKey(runIndex);
	const held = context[key];
	if (!isRunMemory(held)) {
		const created: RunMemory = { salt: newSalt(), execution, items: {} };
		context[key] = created;
		return created;
	}
	if (held.execution !== execution) {
		for (const kept of Object.values(held.items)) if (isStarted(kept)) delete kept.tokenHash;
		held.execution = execution;
	}
	return held;
}

/**
 * Drops a run's memory: the run returned and no retry of it follows (a loop's next run, a parked
 * execution carry none).
 */
export function forgetRunMemory(context: NodeContext, runIndex: number): void {
	delete context[memoryKey(runIndex)];
}

/**
 * Whether n8n runs the node again after it returned these items (with Retry On Fail, or
 * from the Executions list once the execution failed): without Continue On Fail any
 * item's error fails the node; with it, n8n retries when the first item is an error.
 */
export function retryFollows(failed: readonly boolean[], continueOnFail: boolean): boolean {
	return failed[0] === true || (!continueOnFail && failed.includes(true));
}

/**
 * A digest of what an item asks for, the same on every try of a run: n8n runs
 * the tries with the same input items, so the item as it came in (its json and its
 * files' names, sizes and types) and the node's parameters as written, before any
 * expression is evaluated. Not the kickoff body: an input built from {{ $now }} or a
 * random value would differ on each try and its crew be started again. The
 * parameters as written make an edited workflow retried from the Executions list
 * ask for something else. An HMAC-SHA256 keyed by the memory's salt, cut to 16 hex
 * digits: enough to tell two requests apart, and the same for another credential.
 */
export function requestDigest(salt: string, asked: unknown): string {
	return createHmac('sha256', salt)
		.update(JSON.stringify(asked ?? null))
		.digest('hex')
		.slice(0, 16);
}

/**
 * What this try does with an item's kickoff, by what an earlier try of the same run did with the
 * same request.
 */
export type EarlierTry =
	/** No earlier kickoff for this request, or one that certainly started nothing: send it. */
	| { kind: 'send' }
	/** An earlier try started the crew: follow that one. */
	| { kind: 'reuse'; kickoff: RememberedKickoff }
	/**
	 * An earlier try's kickoff may have started a crew, with no kickoff ID to follow: do not send it
	 * again.
	 */
	| { kind: 'maybeStarted'; kickoff: UncertainKickoff };

/**
 * The decision for one item: an item that asks for something else (another digest) is always sent.
 */
export function earlierTry(memory: RunMemory, itemIndex: number, request: string): EarlierTry {
	const kept = memory.items[String(itemIndex)];
	if (kept === undefined || kept.request !== request) return { kind: 'send' };
	return isStarted(kept)
		? { kind: 'reuse', kickoff: kept }
		: { kind: 'maybeStarted', kickoff: kept };
}

export function rememberKickoff(
	memory: RunMemory,
	itemIndex: number,
	kickoff: RememberedKickoff | UncertainKickoff,
): void {
	memory.items[String(itemIndex)] = kickoff;
}

/**
 * What the request was: a kickoff starts a crew, a resume moves a paused one on (live, as a new
 * run).
 */
export type SentRequest = 'kickoff' | 'resume';

/**
 * How to send it anyway. A retry from n8n's Executions list runs the execution again
 * with its saved data, the node context included, so it remembers this too; only a
 * new execution starts with an empty memory.
 */
const SEND_ANYWAY = (act: string, what: string) =>
	`To ${act} anyway, run the workflow again (a new execution starts anew; a retry from the Executions list remembers this too) or change ${what}.`;

/**
 * The error of an item whose earlier try's request may have taken effect: what happened, and what
 * to do.
 */
export function maybeStartedText(
	kept: UncertainKickoff,
	request: SentRequest,
): { message: string; description: string } {
	if (request === 'resume') {
		return {
			message: `Not sent again: an earlier try of this node sent this item's resume, which may have resumed the crew (the service answered ${kept.answered})`,
			description: `n8n's Retry On Fail ran the node again, but the earlier try got no answer that says whether the crew was resumed, so the resume was not sent a second time. Get Status with the Kickoff ID shows whether the crew is still paused. ${SEND_ANYWAY('send the resume', 'the item')}`,
		};
	}
	return {
		message: `Not sent again: an earlier try of this node sent this item's kickoff, which may have started a crew (the service answered ${kept.answered})`,
		description: `n8n's Retry On Fail ran the node again, but the earlier try got no kickoff ID back, so the kickoff was not sent a second time: a second kickoff would start a second crew. Look for the run in the crew's executions in the deployment's dashboard. ${SEND_ANYWAY('start the crew', "the item's inputs")}`,
	};
}

/** How a try ended for one item's crew, as far as the next try is concerned. */
export type TryEnding =
	/**
	 * The crew completed, paused for a person, or may still be running: the next try reads it again,
	 * never starts it.
	 */
	| { next: 'reuse'; seen: boolean }
	/** The crew failed or was stopped: the next try starts the item again. */
	| { next: 'startAgain' };

function afterStop(stop: StopResult | undefined, seen: boolean): TryEnding {
	if (stop === undefined || stop.kind === 'notStopped') return { next: 'reuse', seen };
	if (stop.kind === 'ended' && stop.state === 'completed') return { next: 'reuse', seen: true };
	return { next: 'startAgain' };
}

function kickoffEnding(outcome: FirstPhaseOutcome): TryEnding {
	switch (outcome.kind) {
		case 'completed':
		case 'paused':
			return { next: 'reuse', seen: true };
		case 'running':
			return { next: 'reuse', seen: outcome.lastStatus !== undefined };
		case 'timedOut':
		case 'cancelled':
			return afterStop(outcome.stop, outcome.lastStatus !== undefined);
		// A run with a kickoff ID is started again only once it has ended failed or stopped. A status
		// read refused (400/401/403) says nothing of the run, and NOT FOUND may be a crew paused for
		// a person before it was first seen: the next try waits on it again and reports what it reads.
		case 'notFound':
		case 'error':
			return { next: 'reuse', seen: false };
		case 'failed':
		case 'stopped':
			return { next: 'startAgain' };
	}
}

/**
 * What the next try does with an item whose crew ended the wait this way (polling, or a
 * first phase). A resumed run is never started again: a second resume is a second
 * decision (live, a second run), so the next try reads the run the first one started.
 */
export function tryEndingOf(
	outcome: FirstPhaseOutcome,
	request: SentRequest = 'kickoff',
): TryEnding {
	const ending = kickoffEnding(outcome);
	return request === 'resume' && ending.next === 'startAgain'
		? { next: 'reuse', seen: true }
		: ending;
}

/**
 * Writes what the next try does with the item: keeps its kickoff (marked seen when it was), or
 * forgets it.
 */
export function rememberEnding(memory: RunMemory, itemIndex: number, ending: TryEnding): void {
	const key = String(itemIndex);
	const kept = memory.items[key];
	if (kept === undefined || !isStarted(kept)) return;
	if (ending.next === 'startAgain') delete memory.items[key];
	else if (ending.seen && !kept.seen) memory.items[key] = { ...kept, seen: true };
}
