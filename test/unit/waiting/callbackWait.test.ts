import {
	batchTimeoutMarker,
	callbackRefusal,
	firstPhaseDeadline,
	readFirstPhaseMs,
	shouldPark,
	timeoutMarker,
	waitingRecord,
} from '../../../nodes/waiting/callbackWait';
import { hashCallbackToken, newCallbackToken } from '../../../nodes/callbacksOut/resumeCallbacks';
import type { CrewStatus } from '../../../nodes/status/crewStatus';

const TOKEN = newCallbackToken();
const AWAITED = { kickoffId: 'kick-1', tokenHash: hashCallbackToken(TOKEN) };

function running(): CrewStatus {
	return {
		kickoff_id: 'kick-1',
		state: 'running',
		result: null,
		result_json: null,
		error: null,
		task_id: null,
		response: {},
	};
}

describe('first phase', () => {
	it('polls for the first phase, never past the timeout', () => {
		expect(firstPhaseDeadline(1_000, 600_000, 10_000)).toBe(11_000);
		expect(firstPhaseDeadline(1_000, 5_000, 10_000)).toBe(6_000);
		expect(firstPhaseDeadline(1_000, 600_000, 0)).toBe(1_000);
	});

	it('parks only a batch with a crew still running, before the timeout', () => {
		const waitTill = 100_000;
		const completed = {
			kind: 'completed' as const,
			status: { ...running(), state: 'completed' as const },
		};
		expect(shouldPark([{ kind: 'running', lastStatus: running() }], 11_000, waitTill)).toBe(true);
		expect(shouldPark([completed, { kind: 'running' }], 11_000, waitTill)).toBe(true);
		expect(shouldPark([{ kind: 'running' }], waitTill, waitTill)).toBe(false);
		expect(
			shouldPark(
				[completed, { kind: 'failed', status: { ...running(), state: 'failed' } }],
				11_000,
				waitTill,
			),
		).toBe(false);
		expect(
			shouldPark([{ kind: 'paused', status: { ...running(), state: 'paused' } }], 11_000, waitTill),
		).toBe(false);
		expect(
			shouldPark(
				[{ kind: 'error', error: new Error('401') }, { kind: 'timedOut' }],
				11_000,
				waitTill,
			),
		).toBe(false);
		expect(shouldPark([], 11_000, waitTill)).toBe(false);
	});

	it.each([
		[undefined, 10_000],
		['', 10_000],
		[0, 0],
		[2.5, 2_500],
		[-3, 0],
		[10_000, 300_000],
	])('reads First Phase %p as %p ms', (value, expected) => {
		expect(readFirstPhaseMs(value)).toBe(expected);
	});
});

describe('timeout marker', () => {
	it('says what happened, what to do and which kickoff, and holds no token', () => {
		const marker = timeoutMarker(AWAITED, 3_600_000);
		expect(marker.message).toBe(
			'The crew did not call back within 3600 seconds (kickoff ID kick-1)',
		);
		expect(marker.description).toContain('Get Status operation and kickoff ID kick-1');
		expect(marker.json).toEqual({
			error: marker.message,
			description: marker.description,
			kickoff_id: 'kick-1',
			callback_token_sha256: AWAITED.tokenHash,
		});
		expect(JSON.stringify(marker)).not.toContain(TOKEN);
	});

	it('shows the wait while parked', () => {
		expect(waitingRecord('kick-1', Date.UTC(2026, 0, 1))).toEqual({
			kickoff_id: 'kick-1',
			state: 'running',
			waiting_for: 'callback',
			wait_till: '2026-01-01T00:00:00.000Z',
			message: expect.stringContaining('kickoff ID kick-1.'),
		});
	});
});

describe('batchTimeoutMarker', () => {
	it("says the crew's end was not seen, how to read it, and holds only the token's hash", () => {
		const marker = batchTimeoutMarker(
			{ kickoffId: 'k9', tokenHash: hashCallbackToken('secret-token') },
			600_000,
			50,
		);
		expect(marker.message).toBe(
			"The 50 crews did not all end within 600 seconds; this crew's end was not seen (kickoff ID k9)",
		);
		expect(marker.description).toContain('Get Status operation and kickoff ID k9');
		expect(JSON.stringify(marker)).not.toContain('secret-token');
	});
});

describe('callbackRefusal', () => {
	it('allows any number of items in a workflow: the batch parks once', () => {
		expect(callbackRefusal('n8n-nodes-crewai.crew')).toBeUndefined();
	});

	it('refuses the AI tool variant', () => {
		expect(callbackRefusal('n8n-nodes-crewai.crewTool')?.message).toContain('AI tool');
	});
});
