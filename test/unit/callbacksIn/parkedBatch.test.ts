import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { hashCallbackToken } from '../../../nodes/waiting/callbackWait';
import { createEndedCrews, crewKey } from '../../../nodes/waiting/endedCrews';
import { watchFirstPhase } from '../../../nodes/waiting/firstPhase';
import { awaitedOfRow, batchTimeoutMarker, callerOf, othersInReadingOrder, readParkedEntry, readHumanInputCall } from '../../../nodes/callbacksIn/parkedBatch';
import type { ParkedEntry } from '../../../nodes/callbacksIn/parkedBatch';
import { createPollPolicy } from '../../../nodes/waiting/pollPolicy';
import type { RunningKickoff, StatusReading, WaitOutcome } from '../../../nodes/waiting/waitForCompletion';

const awaited = (itemIndex: number): ParkedEntry & { kind: 'awaited' } => ({ kind: 'awaited', itemIndex, kickoffId: `k${itemIndex}`, tokenHash: hashCallbackToken(`token-${itemIndex}`) });

const batch = [awaited(0), awaited(2)];
const TASK = '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f';
const liveCall = (kickoffId: string) => ({ kickoff_id: kickoffId, execution_id: kickoffId, task_id: TASK, task_output: 'Analysis of …', meta: null });

describe('readParkedEntry', () => {
	it('tells the timeout item, an error item and a record apart', () => {
		const marker = batchTimeoutMarker({ kickoffId: 'k1', tokenHash: 'ab'.repeat(32) }, 60_000, 3);
		expect(readParkedEntry(marker.json, 1)).toEqual({ kind: 'awaited', itemIndex: 1, kickoffId: 'k1', tokenHash: 'ab'.repeat(32) });
		expect(readParkedEntry({ error: 'The crew failed', description: 'Fix it', kickoff_id: 'k2' }, 2)).toEqual({ kind: 'error', itemIndex: 2, message: 'The crew failed', description: 'Fix it', kickoffId: 'k2' });
		expect(readParkedEntry({ error: 'No kickoff' }, 0)).toEqual({ kind: 'error', itemIndex: 0, message: 'No kickoff', description: undefined, kickoffId: undefined });
		const record = readCrewStatus('k3', { status: 'completed', result: 'done' });
		expect(readParkedEntry(record, 3)).toEqual({ kind: 'record', itemIndex: 3, json: record });
	});

	it('reads anything else as not parked by this node', () => {
		expect(readParkedEntry({ index: 0 }, 0)).toBeUndefined();
		expect(readParkedEntry('text', 0)).toBeUndefined();
		expect(readParkedEntry({ kickoff_id: 'k1' }, 0)).toBeUndefined();
	});
});

describe('awaitedOfRow', () => {
	it('reads an awaited crew from its [kickoff id, token hash] row, and nothing from any other item\'s', () => {
		expect(awaitedOfRow(['k1', 'ab'], 1)).toEqual({ kind: 'awaited', itemIndex: 1, kickoffId: 'k1', tokenHash: 'ab' });
		expect(awaitedOfRow(['k2', null], 2)).toBeUndefined();
		expect(awaitedOfRow([null, null], 0)).toBeUndefined();
		expect(awaitedOfRow('k1', 0)).toBeUndefined();
	});
});

describe('callerOf and othersInReadingOrder', () => {
	const entries: ParkedEntry[] = [awaited(0), { kind: 'error', itemIndex: 1, message: 'x' }, awaited(2), awaited(3), awaited(4)];

	it('finds the crew a bearer token belongs to, and no crew for another token', () => {
		expect(callerOf(entries, 'Bearer token-3')).toBe(entries[3]);
		expect(callerOf(entries, ['Bearer token-0'])).toBe(entries[0]);
		expect(callerOf(entries, 'Bearer token-1')).toBeUndefined();
		expect(callerOf(entries, undefined)).toBeUndefined();
	});

	it('reads the other awaited crews from the one after the caller, round to the one before', () => {
		expect(othersInReadingOrder(entries, { itemIndex: 3 }).map((entry) => entry.itemIndex)).toEqual([4, 0, 2]);
		expect(othersInReadingOrder(entries, { itemIndex: 0 }).map((entry) => entry.itemIndex)).toEqual([2, 3, 4]);
	});
});

describe('batchTimeoutMarker', () => {
	it('says the crew\'s end was not seen, how to read it, and holds only the token\'s hash', () => {
		const marker = batchTimeoutMarker({ kickoffId: 'k9', tokenHash: hashCallbackToken('secret-token') }, 600_000, 50);
		expect(marker.message).toBe('The 50 crews did not all end within 600 seconds; this crew\'s end was not seen (kickoff ID k9)');
		expect(marker.description).toContain('Get Status operation and kickoff ID k9');
		expect(JSON.stringify(marker)).not.toContain('secret-token');
	});
});

describe('createEndedCrews', () => {
	const completed: WaitOutcome = { kind: 'completed', status: readCrewStatus('k1', { status: 'completed', result: 'ok' }) };

	it('remembers an ended crew, reads a running one again, and joins a read in flight', async () => {
		const crews = createEndedCrews(() => 0);
		let reads = 0;
		const read = (outcome: WaitOutcome | undefined) => async () => {
			reads++;
			await Promise.resolve();
			return outcome;
		};
		expect(await crews.outcomeOf('a', 0, read(undefined))).toBeUndefined();
		expect(await crews.outcomeOf('a', 0, read(undefined))).toBeUndefined();
		expect(reads).toBe(2);
		const together = await Promise.all([crews.outcomeOf('b', 0, read(completed)), crews.outcomeOf('b', 0, read(completed))]);
		expect(together).toEqual([completed, completed]);
		expect(reads).toBe(3);
		expect(await crews.outcomeOf('b', 0, read(undefined))).toBe(completed);
		expect(reads).toBe(3);
		crews.forget(['b']);
		expect(await crews.outcomeOf('b', 0, read(undefined))).toBeUndefined();
	});

	it('never joins a read that started before the asking call arrived: it may predate the crew\'s end', async () => {
		let clock = 100;
		const crews = createEndedCrews(() => clock);
		let release: (outcome: WaitOutcome | undefined) => void = () => undefined;
		const stale = crews.outcomeOf('a', 0, async () => await new Promise<WaitOutcome | undefined>((resolve) => (release = resolve)));
		clock = 200;
		let fresh = 0;
		const later = crews.outcomeOf('a', 150, async () => (fresh++, completed));
		expect(await later).toBe(completed);
		expect(fresh).toBe(1);
		release(undefined);
		expect(await stale).toBeUndefined();
		expect(crews.ended('a')).toBe(completed);
		expect(crews.ended('b')).toBeUndefined();
	});

	it('lets one call claim a batch\'s resume, and keeps at most its bound of crews', async () => {
		let clock = 0;
		const crews = createEndedCrews(() => clock, 2);
		expect(crews.claimResume('batch')).toBe(true);
		expect(crews.claimResume('batch')).toBe(false);
		for (const key of ['a', 'b', 'c']) await crews.outcomeOf(key, 0, async () => completed);
		let reads = 0;
		await crews.outcomeOf('a', 0, async () => (reads++, undefined));
		expect(reads).toBe(1);
		clock += 26 * 3_600_000;
		expect(crews.claimResume('batch')).toBe(true);
		crews.clear();
		await crews.outcomeOf('c', 0, async () => (reads++, undefined));
		expect(reads).toBe(2);
	});

	it('keys a crew by its service and kickoff id', () => {
		expect(crewKey('http://a', 'k1')).not.toBe(crewKey('http://b', 'k1'));
	});
});

describe('watchFirstPhase', () => {
	function world(endsAt: Record<string, number | 'fails'>) {
		let clock = 0;
		const reads: string[] = [];
		const readStatus = async (kickoff: RunningKickoff): Promise<StatusReading> => {
			reads.push(kickoff.kickoffId);
			const end = endsAt[kickoff.kickoffId];
			if (end === 'fails') return { kind: 'passingFailure', error: new Error('reset') };
			return { kind: 'status', status: readCrewStatus(kickoff.kickoffId, { status: clock >= end ? 'completed' : 'running' }) };
		};
		const dependencies = { readStatus, now: () => clock, sleep: async (ms: number) => void (clock += ms), isCancelled: () => false };
		return { reads, dependencies, now: () => clock };
	}
	const kickoffs = (count: number): RunningKickoff[] => Array.from({ length: count }, (_, itemIndex) => ({ itemIndex, kickoffId: `k${itemIndex}`, startedAt: 0 }));

	it('reads each round up to the first crew still running, and ends when all have ended', async () => {
		const { reads, dependencies, now } = world({ k0: 1_000, k1: 3_000, k2: 2_000 });
		const outcomes = await watchFirstPhase(kickoffs(3), createPollPolicy(1_000), 10_000, dependencies);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['completed', 'completed', 'completed']);
		// 1 s: k0 ended, k1 running; 2 s: k1 running; 3 s: k1 and k2 ended.
		expect(reads).toEqual(['k0', 'k1', 'k1', 'k1', 'k2']);
		expect(now()).toBe(3_000);
	});

	it('stops at the deadline with the crews it did not see end as running, their last reading kept', async () => {
		const { reads, dependencies, now } = world({ k0: 500, k1: 60_000, k2: 'fails' });
		const outcomes = await watchFirstPhase(kickoffs(3), createPollPolicy(1_000), 2_500, dependencies);
		expect(outcomes[0].kind).toBe('completed');
		expect(outcomes[1]).toMatchObject({ kind: 'running', lastStatus: { state: 'running' } });
		expect(outcomes[2]).toEqual({ kind: 'running' });
		expect(reads).toEqual(['k0', 'k1', 'k1', 'k1']);
		expect(now()).toBe(2_500);
	});

	it('gives every crew not seen ending the cancelled outcome once the execution is stopped', async () => {
		const { dependencies } = world({ k0: 60_000, k1: 60_000 });
		const outcomes = await watchFirstPhase(kickoffs(2), createPollPolicy(1_000), 10_000, { ...dependencies, isCancelled: () => true });
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['cancelled', 'cancelled']);
	});
});

describe('readHumanInputCall', () => {
	it('finds the awaited crew a live human-input call names, with its task id', () => {
		expect(readHumanInputCall(liveCall('k2'), batch)).toEqual({ kind: 'awaited', caller: batch[1], taskId: TASK });
	});

	it('reads the documented call, which names the kickoff only as execution_id', () => {
		expect(readHumanInputCall({ execution_id: 'k0', task_id: 'analysis_task', output: 'x' }, batch)).toEqual({ kind: 'awaited', caller: batch[0], taskId: 'analysis_task' });
	});

	it('says a human-input call about no crew of the batch is unknown', () => {
		expect(readHumanInputCall(liveCall('k1'), batch)).toEqual({ kind: 'unknownKickoff' });
		expect(readHumanInputCall(liveCall('k0'), [])).toEqual({ kind: 'unknownKickoff' });
	});

	it('is not a human-input call: a stream call, a body without a kickoff id or a task, not an object', () => {
		expect(readHumanInputCall({ events: [{ type: 'crew_kickoff_completed', execution_id: 'k0' }], task_id: TASK }, batch)).toBeUndefined();
		expect(readHumanInputCall({ type: 'crew_kickoff_completed', kickoff_id: 'k0', task_id: TASK }, batch)).toBeUndefined();
		expect(readHumanInputCall({ task_id: TASK }, batch)).toBeUndefined();
		expect(readHumanInputCall({ kickoff_id: 'k0' }, batch)).toBeUndefined();
		expect(readHumanInputCall('k0', batch)).toBeUndefined();
	});

	it('takes a call without a task id value as one whose task is unknown', () => {
		expect(readHumanInputCall({ kickoff_id: 'k0', task_id: null }, batch)).toEqual({ kind: 'awaited', caller: batch[0], taskId: null });
	});
});
