import type { IWebhookFunctions } from 'n8n-workflow';

import { createCancellableSleep } from '../execution/cancellableSleep';
import { mapWithConcurrency } from '../execution/concurrency';
import { createEndedCrews, crewKey } from '../waiting/endedCrews';
import { awaitedEnding, awaitedStatus, keepWaiting, othersInReadingOrder } from './parkedBatch';
import type { AwaitedEntry, CallAnswer, CrewEndCall } from './parkedBatch';
import { pauseOfHumanInputCall } from '../status/notFound';
import { createPollPolicy } from '../waiting/pollPolicy';
import { getCrewConnection } from '../transport';
import type { CrewConnection } from '../transport';
import { waitForCompletion } from '../waiting/waitForCompletion';
import type { RunningKickoff, WaitOutcome } from '../waiting/waitForCompletion';
import { MAX_CONCURRENT_STATUS_READS, outcomeToItem, statusReader } from '../waiting/batchWait';
import type { ItemOutcome } from '../itemResults/outputItems';

/**
 * What a crew's end call to a parked batch leads to (parkedResume.ts hears the call): the
 * confirming reads, the other crews read up to the first one still running, and once every
 * crew has ended, each crew's item.
 */

/**
 * The confirming read after a callback: re-read a moment later while the service still says
 * running.
 */
const CONFIRM_POLL_MS = 1_000;
/** Well inside the service's patience with a callback (the reference service waits 5 s). */
const CONFIRM_WINDOW_MS = 3_000;

/**
 * Crews this process saw end, and the batches it resumed (nodes/waiting/endedCrews.ts); never
 * needed for the answer.
 */
export const endedCrews = createEndedCrews(() => Date.now());

/**
 * An awaited crew as the wait engine reads it; one parked by an older version has no kickoff time:
 * long past its registration.
 */
function kickoffOf(entry: AwaitedEntry): RunningKickoff {
	return {
		itemIndex: entry.itemIndex,
		kickoffId: entry.kickoffId,
		startedAt: entry.startedAt ?? 0,
	};
}

type StatusRead = ReturnType<typeof statusReader>;
type PausedTask = CrewEndCall['pausedTask'];

/** How long ago an awaited crew's kickoff was answered; undefined when its item does not say. */
function sinceKickoff(entry: AwaitedEntry): number | undefined {
	return entry.startedAt === undefined ? undefined : Date.now() - entry.startedAt;
}

/**
 * The reads that confirm a crew ended, its record for the output: at once, then every second
 * for a few seconds while the service still says running, does not know the run yet or does
 * not answer. What a human-input call said of the crew (`pausedTask`) makes NOT FOUND that
 * pause. Undefined: the crew did not end within that.
 */
async function confirmEnd(
	read: StatusRead,
	entry: AwaitedEntry,
	pausedTask: PausedTask,
): Promise<WaitOutcome | undefined> {
	const now = Date.now();
	const [outcome] = await waitForCompletion(
		[{ ...kickoffOf(entry), firstReadAt: now }],
		createPollPolicy(CONFIRM_POLL_MS),
		now + CONFIRM_WINDOW_MS,
		{
			readStatus: async (kickoff) => {
				const reading = await read(kickoff);
				if (reading.kind !== 'status') return reading;
				return {
					...reading,
					status: pausedTask
						? pauseOfHumanInputCall(reading.status, pausedTask)
						: awaitedStatus(reading.status, sinceKickoff(entry)),
				};
			},
			now: () => Date.now(),
			sleep: createCancellableSleep(undefined),
			isCancelled: () => false,
			maxConcurrentReads: 1,
		},
	);
	return outcome.kind === 'timedOut' ? undefined : outcome;
}

/**
 * One read of another awaited crew: its outcome if it ended, undefined while it may still run or
 * the read failed for a passing reason.
 */
async function readOther(read: StatusRead, entry: AwaitedEntry): Promise<WaitOutcome | undefined> {
	const reading = await read(kickoffOf(entry));
	if (reading.kind === 'fatal') return { kind: 'error', error: reading.error };
	return reading.kind === 'passingFailure'
		? undefined
		: awaitedEnding(reading.status, sinceKickoff(entry));
}

/**
 * What follows a crew's end call. The crew's own call (its token) is its word that it ended: other
 * calls need not read it. A human-input call carries no secret, so the service, read after it, must
 * confirm the pause first. Then the other awaited crews are read, from the item after the caller's,
 * up to the first one still running (the execution keeps waiting); crews this process saw end are
 * not read, a read in flight is shared. The call that finds every crew ended claims the batch's
 * resume (n8n 1.x does not refuse a second resume; within one process this does) and only then
 * reads the records still missing, its own crew's among them, all at once (confirmEnd): no process
 * keeps records. Since the service marks a crew ended before it calls, of two crews ending at once
 * the later call always sees the other ended.
 */
async function readBatchEnd(
	context: IWebhookFunctions,
	connection: CrewConnection,
	awaited: AwaitedEntry[],
	call: CrewEndCall,
	arrivedAt: number,
): Promise<CallAnswer | Map<number, WaitOutcome>> {
	const { caller, pausedTask } = call;
	const keyOf = (entry: AwaitedEntry) => crewKey(connection.baseUrl, entry.kickoffId);
	const read = statusReader(context, connection, CONFIRM_POLL_MS, call.deployment);
	if (endedCrews.endOf(keyOf(caller)) && awaited.length > 1) {
		// A pause another call read as NOT FOUND, now with the task the human-input call names.
		if (pausedTask) endedCrews.remember(keyOf(caller), { pausedTask });
		return keepWaiting(200, "this crew's end was already received");
	}
	const outcomes = new Map<number, WaitOutcome>();
	if (pausedTask) {
		const paused = await confirmEnd(read, caller, pausedTask);
		if (!paused) return keepWaiting(202, 'the crew service does not report the crew as paused');
		outcomes.set(caller.itemIndex, paused);
	}
	endedCrews.remember(
		keyOf(caller),
		outcomes.get(caller.itemIndex)?.kind === 'paused' ? { pausedTask } : {},
	);
	const others = othersInReadingOrder(awaited, caller);
	for (const other of others) {
		// Seen ending here, also by a call that came meanwhile: its record is read if the batch
		// completes.
		if (endedCrews.endOf(keyOf(other))) continue;
		// Every read here starts after the call arrived, so after its crew's end: never one that
		// predates it.
		const outcome = await endedCrews.readOnce(
			keyOf(other),
			arrivedAt,
			async () => await readOther(read, other),
		);
		if (!outcome) return keepWaiting(200, 'other crews of this batch are still running');
		outcomes.set(other.itemIndex, outcome);
	}
	const batchKey = keyOf(awaited[0]);
	if (!endedCrews.claimResume(batchKey))
		return keepWaiting(200, 'the batch is already being resumed');
	const missing = [caller, ...others].filter((entry) => !outcomes.has(entry.itemIndex));
	const records = await mapWithConcurrency(
		missing,
		MAX_CONCURRENT_STATUS_READS,
		async (entry) => await confirmEnd(read, entry, endedCrews.endOf(keyOf(entry))?.pausedTask),
	);
	const notEnded = missing.filter((_, index) => records[index] === undefined);
	if (notEnded.length > 0) {
		// The next call that finds the batch complete reads them again.
		endedCrews.releaseResume(batchKey);
		return notEnded.includes(caller)
			? keepWaiting(202, 'the crew service still reports the crew as running')
			: keepWaiting(200, 'other crews of this batch are still running');
	}
	missing.forEach((entry, index) => outcomes.set(entry.itemIndex, records[index] as WaitOutcome));
	endedCrews.forget(awaited.map(keyOf));
	return outcomes;
}

/**
 * Every awaited crew's item once the batch has ended, or how to answer the call that keeps it
 * waiting. Never throws.
 */
export async function readEnds(
	context: IWebhookFunctions,
	awaited: AwaitedEntry[],
	call: CrewEndCall,
): Promise<CallAnswer | Map<number, ItemOutcome>> {
	const node = context.getNode();
	const arrivedAt = Date.now();
	try {
		const ended = await readBatchEnd(
			context,
			await getCrewConnection(context, 0, { reuseCredential: true }),
			awaited,
			call,
			arrivedAt,
		);
		if (!(ended instanceof Map)) return ended;
		return new Map(
			awaited.map((entry) => [
				entry.itemIndex,
				outcomeToItem(node, kickoffOf(entry), ended.get(entry.itemIndex) as WaitOutcome, 0),
			]),
		);
	} catch (error) {
		// As for one crew: an error no read foresaw (a credential that cannot be read) ends every crew
		// with it.
		if (!endedCrews.claimResume(awaited[0].kickoffId))
			return keepWaiting(200, 'the batch is already being resumed');
		return new Map(
			awaited.map((entry) => [
				entry.itemIndex,
				{ error: error as Error, kickoffId: entry.kickoffId },
			]),
		);
	}
}
