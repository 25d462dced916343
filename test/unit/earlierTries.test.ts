import { earlierKickoff, memoryKey, rememberEnding, rememberKickoff, requestDigest, runMemoryOf, tryEndingOf } from '../../nodes/waiting/earlierTries';
import type { FirstPhaseOutcome } from '../../nodes/waiting/firstPhase';
import { readCrewStatus } from '../../nodes/records/crewStatus';

const status = (state: string) => readCrewStatus('k1', { state });

describe('what the tries of a node run remember', () => {
	it('keeps each run index apart in the one node context, and finds the same memory again', () => {
		const context: Record<string, unknown> = {};
		const first = runMemoryOf(context, 0);
		rememberKickoff(first, 0, { kickoffId: 'k1', startedAt: 1, request: 'r' });
		expect(runMemoryOf(context, 0)).toBe(first);
		expect(runMemoryOf(context, 1)).toEqual({});
		expect(Object.keys(context)).toEqual([memoryKey(0), memoryKey(1)]);
	});

	it('gives an item its earlier kickoff only for the same request', () => {
		const memory = {};
		rememberKickoff(memory, 2, { kickoffId: 'k1', startedAt: 5, request: requestDigest({ inputs: { topic: 'AI' } }) });
		expect(earlierKickoff(memory, 2, requestDigest({ inputs: { topic: 'AI' } }))?.kickoffId).toBe('k1');
		expect(earlierKickoff(memory, 2, requestDigest({ inputs: { topic: 'ML' } }))).toBeUndefined();
		expect(earlierKickoff(memory, 1, requestDigest({ inputs: { topic: 'AI' } }))).toBeUndefined();
	});

	it('digests the request into 16 hex digits, files by name and size, never the body itself', () => {
		const digest = requestDigest({ inputs: { secret: 'hunter2-long-value' } }, { mode: 'multipart', files: [{ name: 'doc', fileName: 'a.pdf', size: 3, open: () => undefined }] });
		expect(digest).toMatch(/^[0-9a-f]{16}$/);
		expect(digest).not.toContain('hunter2');
		expect(requestDigest({ a: 1 }, { files: [{ size: 3 }] })).not.toBe(requestDigest({ a: 1 }, { files: [{ size: 4 }] }));
	});

	it.each<[string, FirstPhaseOutcome, string]>([
		['completed', { kind: 'completed', status: status('SUCCESS') }, 'reuse'],
		['paused', { kind: 'paused', status: status('PAUSED') }, 'reuse'],
		['still running (callback first phase)', { kind: 'running' }, 'reuse'],
		['timed out, left running', { kind: 'timedOut' }, 'reuse'],
		['timed out, the stop failed', { kind: 'timedOut', stop: { kind: 'notStopped', reason: 'x' } }, 'reuse'],
		['timed out, had just completed', { kind: 'timedOut', stop: { kind: 'ended', state: 'completed' } }, 'reuse'],
		['timed out and stopped', { kind: 'timedOut', stop: { kind: 'stopped' } }, 'startAgain'],
		['cancelled and stopped', { kind: 'cancelled', stop: { kind: 'stopped' } }, 'startAgain'],
		['failed', { kind: 'failed', status: status('FAILED') }, 'startAgain'],
		['stopped elsewhere', { kind: 'stopped', status: status('REVOKED') }, 'startAgain'],
		['unknown to the service', { kind: 'notFound', status: status('NOT FOUND'), reads: 4 }, 'startAgain'],
		['a read error', { kind: 'error', error: new Error('401') }, 'startAgain'],
	])('a crew %s: the next try does "%s"', (_, outcome, next) => {
		expect(tryEndingOf(outcome).next).toBe(next);
	});

	it('forgets an item to start again, and marks a reused one seen once the service reported it', () => {
		const memory = {};
		rememberKickoff(memory, 0, { kickoffId: 'k0', startedAt: 1, request: 'r0' });
		rememberKickoff(memory, 1, { kickoffId: 'k1', startedAt: 1, request: 'r1' });
		rememberEnding(memory, 0, tryEndingOf({ kind: 'completed', status: status('SUCCESS') }));
		rememberEnding(memory, 1, tryEndingOf({ kind: 'failed', status: status('FAILED') }));
		rememberEnding(memory, 2, { next: 'reuse', seen: true });
		expect(memory).toEqual({ 0: { kickoffId: 'k0', startedAt: 1, request: 'r0', seen: true } });
	});
});
