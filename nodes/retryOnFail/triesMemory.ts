import { randomBytes } from 'crypto';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	earlierTry,
	forgetRunMemory,
	maybeStartedText,
	rememberEnding,
	rememberKickoff,
	requestDigest,
	retryFollows,
	runMemoryOf,
	tryEndingOf,
} from './earlierTries';
import type { NodeContext, RunMemory, SentRequest } from './earlierTries';
import type { SendOutcome } from '../kickoff/sendOutcome';
import type { WaitEndings } from '../waiting/startedCrews';
import type { ItemOutcome } from '../itemResults/outputItems';

/**
 * The n8n side of what a node's tries remember (earlierTries.ts): one recorder per run
 * of the node, which sends each item's kickoff (or resume) at most once across tries,
 * and keeps how each crew's wait ended.
 */

/**
 * An item's run for this try: started now, or the one an earlier try started for the same request.
 */
export interface TriedKickoff {
	kickoffId: string;
	startedAt: number;
	seen?: boolean;
	/**
	 * Wait By: Callback: the hash of the token the crew calls this execution back with; none for a
	 * crew another execution started.
	 */
	tokenHash?: string;
	/**
	 * The service's answer to the kickoff (or resume), when this process has it (see firstAnswers).
	 */
	answer?: IDataObject;
}

export interface Tries extends WaitEndings {
	/**
	 * The item's run: the one an earlier try started for the same request, or the one `send`
	 * starts now, remembered as soon as it is answered (a try that throws later still knows
	 * it). A request an earlier try sent that may have started a run is not sent again: the
	 * item's error says so. Throws the item's error.
	 */
	send(
		itemIndex: number,
		crew: CrewOfSend,
		send: () => Promise<SendOutcome>,
	): Promise<TriedKickoff>;
}

/** What a send adds for its crew. */
export interface CrewOfSend {
	/** Wait By: Callback: the hash of the crew's token, kept for the next try. */
	tokenHash?: string;
}

/**
 * The service's answers, held in this process only and never saved with the execution:
 * n8n's Retry On Fail runs the tries in one process over one context object, so a
 * retried item is output with the first try's whole answer; a retry from the Executions
 * list loads the context again and gives the kickoff ID alone.
 */
const firstAnswers = new WeakMap<RunMemory, Map<number, IDataObject>>();

function answersOf(memory: RunMemory): Map<number, IDataObject> {
	const held = firstAnswers.get(memory);
	if (held) return held;
	const created = new Map<number, IDataObject>();
	firstAnswers.set(memory, created);
	return created;
}

/** The run index of this call of the node, as an expression reads it (`$runIndex`). */
function runIndexOf(context: IExecuteFunctions): number {
	const read = Number(context.evaluateExpression('{{ $runIndex }}', 0));
	return Number.isInteger(read) && read >= 0 ? read : 0;
}

/**
 * The key of what an item asks for (requestDigest): the input item as it came in and the
 * node's parameters as written, so that it is the same on every try.
 */
function itemRequest(context: IExecuteFunctions, itemIndex: number, salt: string): string {
	const item = context.getInputData()[itemIndex];
	const files = Object.entries(item?.binary ?? {}).map(([name, file]) => [
		name,
		file.fileName,
		file.mimeType,
		file.fileSize,
		file.bytes,
	]);
	return requestDigest(salt, {
		json: item?.json ?? null,
		files,
		parameters: context.getNode().parameters,
	});
}

function recorder(
	context: IExecuteFunctions,
	memory: RunMemory,
	sends: SentRequest,
	now: () => number,
): Tries {
	const node = context.getNode();
	return {
		async send(itemIndex, crew, send) {
			const request = itemRequest(context, itemIndex, memory.salt);
			const earlier = earlierTry(memory, itemIndex, request);
			if (earlier.kind === 'reuse') {
				const { kickoffId, startedAt, seen, tokenHash } = earlier.kickoff;
				return { kickoffId, startedAt, seen, tokenHash, answer: answersOf(memory).get(itemIndex) };
			}
			if (earlier.kind === 'maybeStarted') {
				const { message, description } = maybeStartedText(earlier.kickoff, sends);
				const error = new NodeOperationError(node, message, { itemIndex, description });
				// Set again: n8n's errors swap a message that names a network code (ECONNRESET, …) for a
				// generic sentence.
				error.message = message;
				throw error;
			}
			// A problem found before anything was sent is thrown by `send`: nothing started.
			const outcome = await send().catch((error: unknown): SendOutcome => {
				if (error instanceof Error) return { kind: 'failed', error, sent: 'no' };
				throw error;
			});
			// The transport hid every secret the request carried from its answer, and so from what is
			// kept here.
			if (outcome.kind === 'failed') {
				if (outcome.sent === 'maybe')
					rememberKickoff(memory, itemIndex, {
						request,
						answered: outcome.answered,
						sentAt: now(),
					});
				throw outcome.error;
			}
			const kickoff = {
				request,
				kickoffId: outcome.kickoffId,
				startedAt: now(),
				...(crew.tokenHash ? { tokenHash: crew.tokenHash } : {}),
			};
			rememberKickoff(memory, itemIndex, kickoff);
			answersOf(memory).set(itemIndex, outcome.answer);
			return {
				kickoffId: kickoff.kickoffId,
				startedAt: kickoff.startedAt,
				tokenHash: crew.tokenHash,
				answer: outcome.answer,
			};
		},
		ended(kickoffs, outcomes) {
			kickoffs.forEach(({ itemIndex }, position) =>
				rememberEnding(memory, itemIndex, tryEndingOf(outcomes[position], sends)),
			);
		},
	};
}

/**
 * Runs an operation that starts crews (or resumes them) with a recorder of this run's
 * tries, kept in n8n's node context. The memory stays with the execution while a retry
 * can follow (the operation threw, or its items make n8n retry) and is dropped
 * otherwise. A context without getContext (none is known) remembers nothing: each try
 * then starts its crews, as before.
 */
export async function withTries(
	context: IExecuteFunctions,
	sends: SentRequest,
	now: () => number,
	run: (tries: Tries) => Promise<ItemOutcome[]>,
): Promise<ItemOutcome[]> {
	if (typeof context.getContext !== 'function')
		return await run(recorder(context, { salt: '', execution: '', items: {} }, sends, now));
	const nodeContext = context.getContext('node') as NodeContext;
	const runIndex = runIndexOf(context);
	const memory = runMemoryOf(nodeContext, runIndex, context.getExecutionId(), () =>
		randomBytes(16).toString('hex'),
	);
	const outcomes = await run(recorder(context, memory, sends, now));
	if (
		!retryFollows(
			outcomes.map((outcome) => 'error' in outcome),
			context.continueOnFail(),
		)
	)
		forgetRunMemory(nodeContext, runIndex);
	return outcomes;
}
