import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { hashCallbackToken } from '../../../nodes/callbacksOut/resumeCallbacks';
import { batchTimeoutMarker } from '../../../nodes/waiting/callbackWait';
import { awaitedOfRow, callerOf, othersInReadingOrder, readParkedEntry, readHumanInputCall } from '../../../nodes/callbacksIn/parkedBatch';
import type { ParkedEntry } from '../../../nodes/callbacksIn/parkedBatch';

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

describe('readHumanInputCall', () => {
	it('finds the awaited crew a live human-input call names, with its task id', () => {
		expect(readHumanInputCall(liveCall('k2'), batch)).toEqual({ kind: 'awaited', caller: batch[1], task: { task_id: TASK, task_output: 'Analysis of …', task_name: null, task_description: null } });
	});

	it('reads the documented call, which names the kickoff only as execution_id', () => {
		expect(readHumanInputCall({ execution_id: 'k0', task_id: 'analysis_task', output: 'x' }, batch)).toEqual({ kind: 'awaited', caller: batch[0], task: { task_id: 'analysis_task', task_output: 'x', task_name: null, task_description: null } });
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
		expect(readHumanInputCall({ kickoff_id: 'k0', task_id: null }, batch)).toEqual({ kind: 'awaited', caller: batch[0], task: { task_id: null, task_output: null, task_name: null, task_description: null } });
	});
});
