import { isBareRouteNotFound, readCurrentState, readStopAnswer, stopResultOf } from '../../../nodes/stop/stopAnswer';
import { crewsToStop, readStopSettings } from '../../../nodes/stop/stopCrews';
import type { WaitOutcome } from '../../../nodes/waiting/waitForCompletion';

describe('readStopAnswer: what POST /stop answered', () => {
	it('a 2xx stopped the run, whatever its body', () => {
		expect(readStopAnswer(200, { status: 'stopped', kickoffId: 'k' })).toEqual({ kind: 'stopped' });
		expect(readStopAnswer(202, undefined)).toEqual({ kind: 'stopped' });
	});

	it.each([
		['SUCCESS', 'completed'],
		['FAILURE', 'failed'],
		['FAILED', 'failed'],
		['REVOKED', 'stopped'],
	])('a 400 naming the ended state %s: already ended, %s', (word, state) => {
		expect(readStopAnswer(400, { detail: `Cannot stop execution. Current state: ${word}` })).toEqual({ kind: 'alreadyEnded', state, serviceState: word });
	});

	it('reads the state in the documented error shape and in plain text too', () => {
		expect(readStopAnswer(400, { error: 'Bad Request', message: 'Cannot stop execution. Current state: SUCCESS' })).toMatchObject({ kind: 'alreadyEnded', state: 'completed' });
		expect(readCurrentState('Cannot stop execution. Current state: "REVOKED".')).toBe('REVOKED');
	});

	it('a 400 that names no ended state, or a state still going, is a refusal to report', () => {
		expect(readStopAnswer(400, { detail: 'Cannot stop execution. Current state: RUNNING' })).toEqual({ kind: 'refused' });
		expect(readStopAnswer(400, { detail: 'Bad request' })).toEqual({ kind: 'refused' });
	});

	it('tells the route\'s own 404 (an unknown run) from FastAPI\'s bare one (no stop route)', () => {
		expect(readStopAnswer(404, { error: 'Execution not found', message: 'No execution found with ID: k' })).toEqual({ kind: 'unknownRun' });
		expect(readStopAnswer(404, { detail: 'No execution found with ID: k' })).toEqual({ kind: 'unknownRun' });
		expect(readStopAnswer(404, { detail: 'Not Found' })).toEqual({ kind: 'noRoute' });
		expect(readStopAnswer(405, { detail: 'Method Not Allowed' })).toEqual({ kind: 'noRoute' });
		expect(isBareRouteNotFound({ detail: 'Not Found', extra: 1 })).toBe(false);
	});

	it('anything else is reported as the HTTP answer it is', () => {
		for (const code of [401, 403, 422, 429, 500, 503]) expect(readStopAnswer(code, { detail: 'x' })).toEqual({ kind: 'refused' });
	});

	it('as a wait reports it: stopped, ended, or not stopped with why', () => {
		expect(stopResultOf(200, {})).toEqual({ kind: 'stopped' });
		expect(stopResultOf(400, { detail: 'Cannot stop execution. Current state: SUCCESS' })).toEqual({ kind: 'ended', state: 'completed' });
		expect(stopResultOf(404, { detail: 'Not Found' })).toEqual({ kind: 'notStopped', reason: expect.stringMatching(/cannot be stopped through its API.*dashboard/) });
		expect(stopResultOf(503, {}, 'Service Unavailable')).toEqual({ kind: 'notStopped', reason: 'the crew service answered 503: Service Unavailable' });
	});
});

describe('which crews a wait stops', () => {
	it('stops at a cancel by default from node version 1.3; the option decides when set', () => {
		expect(readStopSettings({}, 1.2)).toEqual({ stopAtTimeout: false, stopOnCancel: false });
		expect(readStopSettings({}, 1.3)).toEqual({ stopAtTimeout: false, stopOnCancel: true });
		expect(readStopSettings({ stopCrewsOnCancel: false }, 1.3).stopOnCancel).toBe(false);
		expect(readStopSettings({ stopCrewsOnCancel: true }, 1).stopOnCancel).toBe(true);
		expect(readStopSettings({ onTimeout: 'stopCrews' }, 1).stopAtTimeout).toBe(true);
		expect(readStopSettings({ onTimeout: 'leaveRunning' }, 1.3).stopAtTimeout).toBe(false);
	});

	it('only the crews still running at the timeout or the cancel, never one that ended', () => {
		const status = { kickoff_id: 'k', state: 'completed' as const, result: 'r', result_json: null, error: null, task_id: null, response: {} };
		const outcomes: WaitOutcome[] = [{ kind: 'completed', status }, { kind: 'timedOut' }, { kind: 'cancelled' }, { kind: 'failed', status: { ...status, state: 'failed' } }, { kind: 'error', error: new Error('x') }];
		expect(crewsToStop(outcomes, { stopAtTimeout: true, stopOnCancel: true })).toEqual([1, 2]);
		expect(crewsToStop(outcomes, { stopAtTimeout: false, stopOnCancel: true })).toEqual([2]);
		expect(crewsToStop(outcomes, { stopAtTimeout: true, stopOnCancel: false })).toEqual([1]);
		expect(crewsToStop(outcomes, { stopAtTimeout: false, stopOnCancel: false })).toEqual([]);
	});
});
