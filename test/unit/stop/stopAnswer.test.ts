import {
	isBareRouteNotFound,
	readCurrentState,
	readStopAnswer,
	stopResultOf,
} from '../../../nodes/stop/stopAnswer';

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
		expect(
			readStopAnswer(400, { detail: `Cannot stop execution. Current state: ${word}` }),
		).toEqual({ kind: 'alreadyEnded', state, serviceState: word });
	});

	it('reads the state in the documented error shape and in plain text too', () => {
		expect(
			readStopAnswer(400, {
				error: 'Bad Request',
				message: 'Cannot stop execution. Current state: SUCCESS',
			}),
		).toMatchObject({ kind: 'alreadyEnded', state: 'completed' });
		expect(readCurrentState('Cannot stop execution. Current state: "REVOKED".')).toBe('REVOKED');
	});

	it('a 400 that names no ended state, or a state still going, is a refusal to report', () => {
		expect(
			readStopAnswer(400, { detail: 'Cannot stop execution. Current state: RUNNING' }),
		).toEqual({ kind: 'refused' });
		expect(readStopAnswer(400, { detail: 'Bad request' })).toEqual({ kind: 'refused' });
	});

	it("tells the route's own 404 (an unknown run) from FastAPI's bare one (no stop route)", () => {
		expect(
			readStopAnswer(404, {
				error: 'Execution not found',
				message: 'No execution found with ID: k',
			}),
		).toEqual({ kind: 'unknownRun' });
		expect(readStopAnswer(404, { detail: 'No execution found with ID: k' })).toEqual({
			kind: 'unknownRun',
		});
		expect(readStopAnswer(404, { detail: 'Not Found' })).toEqual({ kind: 'noRoute' });
		expect(readStopAnswer(405, { detail: 'Method Not Allowed' })).toEqual({ kind: 'noRoute' });
		expect(isBareRouteNotFound({ detail: 'Not Found', extra: 1 })).toBe(false);
	});

	it('anything else is reported as the HTTP answer it is', () => {
		for (const code of [401, 403, 422, 429, 500, 503])
			expect(readStopAnswer(code, { detail: 'x' })).toEqual({ kind: 'refused' });
	});

	it('as a wait reports it: stopped, ended, or not stopped with why', () => {
		expect(stopResultOf(200, {})).toEqual({ kind: 'stopped' });
		expect(stopResultOf(400, { detail: 'Cannot stop execution. Current state: SUCCESS' })).toEqual({
			kind: 'ended',
			state: 'completed',
		});
		expect(stopResultOf(404, { detail: 'Not Found' })).toEqual({
			kind: 'notStopped',
			reason: expect.stringMatching(/cannot be stopped through its API.*dashboard/),
		});
		expect(stopResultOf(503, {}, 'Service Unavailable')).toEqual({
			kind: 'notStopped',
			reason: 'the crew service answered 503: Service Unavailable',
		});
	});
});
