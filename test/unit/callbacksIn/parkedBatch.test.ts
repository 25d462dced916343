import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { REGISTRATION_WINDOW_MS } from '../../../nodes/status/registrationWindow';
import { hashCallbackToken } from '../../../nodes/callbacksOut/resumeCallbacks';
import { awaitedItemJson, batchTimeoutMarker } from '../../../nodes/waiting/callbackWait';
import {
	awaitedEnding,
	awaitedOfRow,
	awaitedStatus,
	callerOf,
	othersInReadingOrder,
	readParkedCall,
	readParkedEntry,
	readHumanInputCall,
} from '../../../nodes/callbacksIn/parkedBatch';
import type { ParkedEntry } from '../../../nodes/callbacksIn/parkedBatch';

const awaited = (itemIndex: number): ParkedEntry & { kind: 'awaited' } => ({
	kind: 'awaited',
	itemIndex,
	kickoffId: `k${itemIndex}`,
	tokenHash: hashCallbackToken(`token-${itemIndex}`),
});

const batch = [awaited(0), awaited(2)];
const TASK = '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f';
const liveCall = (kickoffId: string) => ({
	kickoff_id: kickoffId,
	execution_id: kickoffId,
	task_id: TASK,
	task_output: 'Analysis of …',
	meta: null,
});

describe('readParkedEntry', () => {
	it('tells the timeout item, an error item and a record apart', () => {
		const marker = batchTimeoutMarker({ kickoffId: 'k1', tokenHash: 'ab'.repeat(32) }, 60_000, 3);
		expect(readParkedEntry(marker.json, 1)).toEqual({
			kind: 'awaited',
			itemIndex: 1,
			kickoffId: 'k1',
			tokenHash: 'ab'.repeat(32),
		});
		expect(
			readParkedEntry({ error: 'The crew failed', description: 'Fix it', kickoff_id: 'k2' }, 2),
		).toEqual({
			kind: 'error',
			itemIndex: 2,
			message: 'The crew failed',
			description: 'Fix it',
			kickoffId: 'k2',
		});
		expect(readParkedEntry({ error: 'No kickoff' }, 0)).toEqual({
			kind: 'error',
			itemIndex: 0,
			message: 'No kickoff',
			description: undefined,
			kickoffId: undefined,
		});
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
	it("reads an awaited crew from its [kickoff id, token hash] row, and nothing from any other item's", () => {
		expect(awaitedOfRow(['k1', 'ab'], 1)).toEqual({
			kind: 'awaited',
			itemIndex: 1,
			kickoffId: 'k1',
			tokenHash: 'ab',
		});
		expect(awaitedOfRow(['k2', null], 2)).toBeUndefined();
		expect(awaitedOfRow([null, null], 0)).toBeUndefined();
		expect(awaitedOfRow('k1', 0)).toBeUndefined();
	});
});

describe('callerOf and othersInReadingOrder', () => {
	const entries: ParkedEntry[] = [
		awaited(0),
		{ kind: 'error', itemIndex: 1, message: 'x' },
		awaited(2),
		awaited(3),
		awaited(4),
	];

	it('finds the crew a bearer token belongs to, and no crew for another token', () => {
		expect(callerOf(entries, 'Bearer token-3')).toBe(entries[3]);
		expect(callerOf(entries, ['Bearer token-0'])).toBe(entries[0]);
		expect(callerOf(entries, 'Bearer token-1')).toBeUndefined();
		expect(callerOf(entries, undefined)).toBeUndefined();
	});

	it('reads the other awaited crews from the one after the caller, round to the one before', () => {
		expect(othersInReadingOrder(entries, { itemIndex: 3 }).map((entry) => entry.itemIndex)).toEqual(
			[4, 0, 2],
		);
		expect(othersInReadingOrder(entries, { itemIndex: 0 }).map((entry) => entry.itemIndex)).toEqual(
			[2, 3, 4],
		);
	});
});

describe('readHumanInputCall', () => {
	it('finds the awaited crew a live human-input call names, with its task id', () => {
		expect(readHumanInputCall(liveCall('k2'), batch)).toEqual({
			kind: 'awaited',
			caller: batch[1],
			task: {
				task_id: TASK,
				task_output: 'Analysis of …',
				task_name: null,
				task_description: null,
			},
		});
	});

	it('reads the documented call, which names the kickoff only as execution_id', () => {
		expect(
			readHumanInputCall({ execution_id: 'k0', task_id: 'analysis_task', output: 'x' }, batch),
		).toEqual({
			kind: 'awaited',
			caller: batch[0],
			task: { task_id: 'analysis_task', task_output: 'x', task_name: null, task_description: null },
		});
	});

	it('says a human-input call about no crew of the batch is unknown', () => {
		expect(readHumanInputCall(liveCall('k1'), batch)).toEqual({ kind: 'unknownKickoff' });
		expect(readHumanInputCall(liveCall('k0'), [])).toEqual({ kind: 'unknownKickoff' });
	});

	it('is not a human-input call: a stream call, a body without a kickoff id or a task, not an object', () => {
		expect(
			readHumanInputCall(
				{ events: [{ type: 'crew_kickoff_completed', execution_id: 'k0' }], task_id: TASK },
				batch,
			),
		).toBeUndefined();
		expect(
			readHumanInputCall(
				{ type: 'crew_kickoff_completed', kickoff_id: 'k0', task_id: TASK },
				batch,
			),
		).toBeUndefined();
		expect(readHumanInputCall({ task_id: TASK }, batch)).toBeUndefined();
		expect(readHumanInputCall({ kickoff_id: 'k0' }, batch)).toBeUndefined();
		expect(readHumanInputCall('k0', batch)).toBeUndefined();
	});

	it('takes a call without a task id value as one whose task is unknown', () => {
		expect(readHumanInputCall({ kickoff_id: 'k0', task_id: null }, batch)).toEqual({
			kind: 'awaited',
			caller: batch[0],
			task: { task_id: null, task_output: null, task_name: null, task_description: null },
		});
	});
});

describe("when an awaited crew's kickoff was answered", () => {
	const kickedOffAt = Date.UTC(2026, 9, 1, 12, 0, 0);

	it('is saved with its parked item and read back from the item and from its row', () => {
		const json = awaitedItemJson(
			batchTimeoutMarker({ kickoffId: 'k1', tokenHash: 'ab' }, 60_000, 2),
			kickedOffAt,
		);
		expect(json.kicked_off_at).toBe('2026-10-01T12:00:00.000Z');
		expect(readParkedEntry(json, 1)).toEqual({
			kind: 'awaited',
			itemIndex: 1,
			kickoffId: 'k1',
			tokenHash: 'ab',
			startedAt: kickedOffAt,
		});
		expect(awaitedOfRow(['k1', 'ab', json.kicked_off_at], 1)).toEqual({
			kind: 'awaited',
			itemIndex: 1,
			kickoffId: 'k1',
			tokenHash: 'ab',
			startedAt: kickedOffAt,
		});
	});

	it('is unknown for an item parked without it, or with something else there', () => {
		expect(awaitedOfRow(['k1', 'ab', null], 1)).not.toHaveProperty('startedAt');
		expect(awaitedOfRow(['k1', 'ab', 'yesterday'], 1)).not.toHaveProperty('startedAt');
	});
});

describe('awaitedEnding: another crew of the batch, read when some crew called', () => {
	const notFound = readCrewStatus('k1', { state: 'NOT FOUND' });

	it('reads NOT FOUND inside the registration window as a run not registered yet: still running', () => {
		expect(awaitedEnding(notFound, 0)).toBeUndefined();
		expect(awaitedEnding(notFound, REGISTRATION_WINDOW_MS - 1)).toBeUndefined();
	});

	it('reads NOT FOUND after the window, or of a crew whose kickoff time is not known, as a pause for human input', () => {
		for (const since of [REGISTRATION_WINDOW_MS, 3_600_000, undefined]) {
			expect(awaitedEnding(notFound, since)).toMatchObject({
				kind: 'paused',
				status: { kickoff_id: 'k1', state: 'paused', task_id: null },
			});
		}
	});

	it('is the record the end reads use too: NOT FOUND left as it is inside the window, the pause after it', () => {
		expect(awaitedStatus(notFound, 5)).toBe(notFound);
		expect(awaitedStatus(notFound, REGISTRATION_WINDOW_MS)).toMatchObject({
			state: 'paused',
			next_step: expect.stringContaining('kickoff ID k1'),
		});
		const running = readCrewStatus('k1', { state: 'RUNNING' });
		expect(awaitedStatus(running, undefined)).toBe(running);
	});

	it('gives an end its outcome at any age, and nothing for a crew still running', () => {
		const failed = readCrewStatus('k1', { state: 'FAILED', status: 'boom' });
		expect(awaitedEnding(failed, 10)).toEqual({ kind: 'failed', status: failed });
		expect(
			awaitedEnding(readCrewStatus('k1', { state: 'RUNNING' }), REGISTRATION_WINDOW_MS * 2),
		).toBeUndefined();
	});
});

describe('readParkedCall', () => {
	const end = (kickoffId: string, type = 'crew_kickoff_completed') => ({
		events: [{ type, execution_id: kickoffId, data: {} }],
	});

	it("a crew's end with its own token: that crew, a crew's or a flow's end", () => {
		expect(readParkedCall(batch, 'Bearer token-2', end('k2'))).toEqual({
			kind: 'end',
			caller: batch[1],
			deployment: 'crew',
		});
		expect(readParkedCall(batch, 'Bearer token-0', end('k0', 'flow_finished'))).toEqual({
			kind: 'end',
			caller: batch[0],
			deployment: 'flow',
		});
	});

	it('the live human-input call without a token: the crew it names, paused on its task', () => {
		expect(readParkedCall(batch, undefined, liveCall('k2'))).toEqual({
			kind: 'end',
			caller: batch[1],
			deployment: 'crew',
			// What the person judges: the task and its output, as the call sent them.
			pausedTask: {
				task_id: TASK,
				task_output: 'Analysis of …',
				task_name: null,
				task_description: null,
			},
		});
	});

	it("answers at once what is not an awaited crew's end", () => {
		expect(readParkedCall([], 'Bearer token-0', end('k0'))).toEqual({
			kind: 'answer',
			statusCode: 409,
			body: { error: 'this execution is not waiting for a crew' },
		});
		expect(readParkedCall(batch, 'Bearer nope', end('k0'))).toEqual({
			kind: 'answer',
			statusCode: 401,
			body: { error: 'invalid callback token' },
		});
		expect(readParkedCall(batch, undefined, liveCall('k1'))).toEqual({
			kind: 'answer',
			statusCode: 401,
			body: { error: 'the call names no crew this execution waits for' },
		});
		expect(readParkedCall(batch, 'Bearer token-0', end('k2'))).toEqual({
			kind: 'answer',
			statusCode: 409,
			body: { error: 'the call is about another kickoff' },
		});
		expect(readParkedCall(batch, 'Bearer token-0', end('k0', 'task_completed'))).toEqual({
			kind: 'answer',
			statusCode: 200,
			body: { received: true },
		});
	});
});
