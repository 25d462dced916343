import { createHash, createHmac } from 'crypto';

import {
	earlierTry,
	forgetRunMemory,
	maybeStartedText,
	memoryKey,
	rememberEnding,
	rememberKickoff,
	requestDigest,
	retryFollows,
	runMemoryOf,
	tryEndingOf,
} from '../../../nodes/retryOnFail/earlierTries';
import type { RunMemory } from '../../../nodes/retryOnFail/earlierTries';
import type { FirstPhaseOutcome } from '../../../nodes/waiting/firstPhase';
import { readCrewStatus } from '../../../nodes/status/crewStatus';

const status = (state: string) => readCrewStatus('k1', { state });
/** A memory made by execution 'e1' with the salt 'salt'. */
const emptyMemory = (): RunMemory => ({ salt: 'salt', execution: 'e1', items: {} });
const memoryOf = (context: Record<string, unknown>, runIndex: number, execution = 'e1') =>
	runMemoryOf(context, runIndex, execution, () => 'salt');
/** The item's earlier kickoff, when an earlier try started one for the same request. */
const earlierKickoff = (memory: RunMemory, itemIndex: number, request: string) => {
	const decision = earlierTry(memory, itemIndex, request);
	return decision.kind === 'reuse' ? decision.kickoff : undefined;
};

describe('what the tries of a node run remember', () => {
	it('keeps each run index apart in the one node context, and finds the same memory again', () => {
		const context: Record<string, unknown> = {};
		const first = memoryOf(context, 0);
		rememberKickoff(first, 0, { kickoffId: 'k1', startedAt: 1, request: 'r' });
		expect(memoryOf(context, 0)).toBe(first);
		expect(memoryOf(context, 1)).toEqual(emptyMemory());
		expect(Object.keys(context)).toEqual([memoryKey(0), memoryKey(1)]);
	});

	it("makes its salt once, on first use, and keeps it for the run's later tries", () => {
		const context: Record<string, unknown> = {};
		let made = 0;
		const newSalt = () => `salt-${++made}`;
		expect(runMemoryOf(context, 0, 'e1', newSalt).salt).toBe('salt-1');
		expect(runMemoryOf(context, 0, 'e1', newSalt).salt).toBe('salt-1');
		expect(made).toBe(1);
	});

	it("found in another execution's context (a retry from the Executions list), keeps its kickoffs and salt but not their callback token hashes: those crews call the other execution back", () => {
		const context: Record<string, unknown> = {};
		const failed = memoryOf(context, 0, 'e1');
		rememberKickoff(failed, 0, {
			kickoffId: 'k0',
			startedAt: 1,
			request: 'r0',
			tokenHash: 'h0',
			seen: true,
		});
		rememberKickoff(failed, 1, { request: 'r1', answered: '502', sentAt: 2 });
		const retried = memoryOf(
			JSON.parse(JSON.stringify(context)) as Record<string, unknown>,
			0,
			'e2',
		);
		expect(retried).toEqual({
			salt: 'salt',
			execution: 'e2',
			items: {
				0: { kickoffId: 'k0', startedAt: 1, request: 'r0', seen: true },
				1: { request: 'r1', answered: '502', sentAt: 2 },
			},
		});
		// The same execution's next try keeps them.
		expect(memoryOf(context, 0, 'e1').items[0]).toEqual({
			kickoffId: 'k0',
			startedAt: 1,
			request: 'r0',
			tokenHash: 'h0',
			seen: true,
		});
	});

	it.each<[string, boolean[], boolean, boolean]>([
		['every item given', [false, false], false, false],
		[
			"a later item's error, without Continue On Fail (the node throws)",
			[false, true],
			false,
			true,
		],
		["a later item's error, with Continue On Fail", [false, true], true, false],
		["the first item's error, with Continue On Fail", [true, false], true, true],
		['no items', [], false, false],
	])('n8n retries after %s: %s', (_, failed, continueOnFail, retried) => {
		expect(retryFollows(failed, continueOnFail)).toBe(retried);
	});

	it('gives an item its earlier kickoff only for the same request', () => {
		const memory = emptyMemory();
		rememberKickoff(memory, 2, {
			kickoffId: 'k1',
			startedAt: 5,
			request: requestDigest('key', { inputs: { topic: 'AI' } }),
		});
		expect(
			earlierKickoff(memory, 2, requestDigest('key', { inputs: { topic: 'AI' } }))?.kickoffId,
		).toBe('k1');
		expect(
			earlierKickoff(memory, 2, requestDigest('key', { inputs: { topic: 'ML' } })),
		).toBeUndefined();
		expect(
			earlierKickoff(memory, 1, requestDigest('key', { inputs: { topic: 'AI' } })),
		).toBeUndefined();
	});

	it("digests what the item asks for into 16 hex digits of an HMAC keyed by the memory's salt, never a plain hash", () => {
		const asked = {
			json: { secret: 'hunter2-long-value' },
			files: [['doc', 'a.pdf', 'application/pdf', '3 B', 3]],
			parameters: { operation: 'kickoff' },
		};
		const digest = requestDigest('token-1', asked);
		expect(digest).toMatch(/^[0-9a-f]{16}$/);
		expect(digest).not.toContain('hunter2');
		expect(digest).toBe(
			createHmac('sha256', 'token-1').update(JSON.stringify(asked)).digest('hex').slice(0, 16),
		);
		// Whoever knows the item but not the key cannot reproduce it (a plain SHA-256 of the same text differs).
		expect(digest).not.toBe(
			createHash('sha256').update(JSON.stringify(asked)).digest('hex').slice(0, 16),
		);
		expect(requestDigest('token-2', asked)).not.toBe(digest);
		expect(
			requestDigest('token-1', {
				...asked,
				files: [['doc', 'a.pdf', 'application/pdf', '4 B', 4]],
			}),
		).not.toBe(digest);
	});

	it("forgets a run's memory and only that run's", () => {
		const context: Record<string, unknown> = {};
		rememberKickoff(memoryOf(context, 0), 0, { kickoffId: 'k1', startedAt: 1, request: 'r' });
		rememberKickoff(memoryOf(context, 1), 0, { kickoffId: 'k2', startedAt: 1, request: 'r' });
		forgetRunMemory(context, 0);
		expect(Object.keys(context)).toEqual([memoryKey(1)]);
	});

	it.each<[string, string, FirstPhaseOutcome]>([
		['completed', 'reuse', { kind: 'completed', status: status('SUCCESS') }],
		['paused', 'reuse', { kind: 'paused', status: status('PAUSED') }],
		['still running (callback first phase)', 'reuse', { kind: 'running' }],
		['timed out, left running', 'reuse', { kind: 'timedOut' }],
		[
			'timed out, the stop failed',
			'reuse',
			{ kind: 'timedOut', stop: { kind: 'notStopped', reason: 'x' } },
		],
		[
			'timed out, had just completed',
			'reuse',
			{ kind: 'timedOut', stop: { kind: 'ended', state: 'completed' } },
		],
		['timed out and stopped', 'startAgain', { kind: 'timedOut', stop: { kind: 'stopped' } }],
		['cancelled and stopped', 'startAgain', { kind: 'cancelled', stop: { kind: 'stopped' } }],
		['failed', 'startAgain', { kind: 'failed', status: status('FAILED') }],
		['stopped elsewhere', 'startAgain', { kind: 'stopped', status: status('REVOKED') }],
		// NOT FOUND may be a crew paused for a person before it was first seen; a refused read says nothing of the run.
		['read NOT FOUND', 'reuse', { kind: 'notFound', status: status('NOT FOUND'), reads: 4 }],
		['whose status read was refused (401)', 'reuse', { kind: 'error', error: new Error('401') }],
	])('a crew %s: the next try does "%s"', (_, next, outcome) => {
		expect(tryEndingOf(outcome).next).toBe(next);
	});

	it.each<[string, FirstPhaseOutcome]>([
		['failed', { kind: 'failed', status: status('FAILED') }],
		['stopped elsewhere', { kind: 'stopped', status: status('REVOKED') }],
		['timed out and stopped', { kind: 'timedOut', stop: { kind: 'stopped' } }],
	])(
		'a resumed run %s: the next try reads it again and never sends the resume again',
		(_, outcome) => {
			expect(tryEndingOf(outcome, 'resume')).toEqual({ next: 'reuse', seen: true });
		},
	);

	it('forgets an item to start again, and marks a reused one seen once the service reported it', () => {
		const memory = emptyMemory();
		rememberKickoff(memory, 0, { kickoffId: 'k0', startedAt: 1, request: 'r0' });
		rememberKickoff(memory, 1, { kickoffId: 'k1', startedAt: 1, request: 'r1' });
		rememberEnding(memory, 0, tryEndingOf({ kind: 'completed', status: status('SUCCESS') }));
		rememberEnding(memory, 1, tryEndingOf({ kind: 'failed', status: status('FAILED') }));
		rememberEnding(memory, 2, { next: 'reuse', seen: true });
		expect(memory.items).toEqual({
			0: { kickoffId: 'k0', startedAt: 1, request: 'r0', seen: true },
		});
	});

	it('keeps a kickoff whose status read failed or read NOT FOUND, unseen as it was: the next try waits on it again, never starts it', () => {
		const memory = emptyMemory();
		rememberKickoff(memory, 0, { kickoffId: 'k0', startedAt: 1, request: 'r0' });
		rememberKickoff(memory, 1, { kickoffId: 'k1', startedAt: 1, request: 'r1', seen: true });
		rememberEnding(memory, 0, tryEndingOf({ kind: 'error', error: new Error('403') }));
		rememberEnding(
			memory,
			1,
			tryEndingOf({ kind: 'notFound', status: status('NOT FOUND'), reads: 4 }),
		);
		expect(earlierTry(memory, 0, 'r0')).toEqual({
			kind: 'reuse',
			kickoff: { kickoffId: 'k0', startedAt: 1, request: 'r0' },
		});
		expect(earlierTry(memory, 1, 'r1')).toEqual({
			kind: 'reuse',
			kickoff: { kickoffId: 'k1', startedAt: 1, request: 'r1', seen: true },
		});
	});

	describe('a kickoff that got no kickoff ID', () => {
		it('an uncertain kickoff of the same item and request is not sent again; another request or item is sent', () => {
			const memory = emptyMemory();
			const request = requestDigest('key', { inputs: { topic: 'AI' } });
			rememberKickoff(memory, 1, { request, answered: '504', sentAt: 7 });
			expect(earlierTry(memory, 1, request)).toEqual({
				kind: 'maybeStarted',
				kickoff: { request, answered: '504', sentAt: 7 },
			});
			expect(earlierTry(memory, 1, requestDigest('key', { inputs: { topic: 'ML' } }))).toEqual({
				kind: 'send',
			});
			expect(earlierTry(memory, 0, request)).toEqual({ kind: 'send' });
			expect(earlierKickoff(memory, 1, request)).toBeUndefined();
		});

		it("a started kickoff is reused; an uncertain one is left as it is by the wait's ending", () => {
			const memory = emptyMemory();
			rememberKickoff(memory, 0, { kickoffId: 'k0', startedAt: 1, request: 'r0' });
			rememberKickoff(memory, 1, { request: 'r1', answered: '502', sentAt: 2 });
			expect(earlierTry(memory, 0, 'r0')).toEqual({
				kind: 'reuse',
				kickoff: { kickoffId: 'k0', startedAt: 1, request: 'r0' },
			});
			rememberEnding(memory, 1, { next: 'startAgain' });
			rememberEnding(memory, 1, { next: 'reuse', seen: true });
			expect(memory.items[1]).toEqual({ request: 'r1', answered: '502', sentAt: 2 });
		});

		it('the error says the earlier try may have started a crew, what the service answered, and what to do', () => {
			const kickoff = maybeStartedText(
				{ request: 'r', answered: '504: Gateway Timeout', sentAt: 1 },
				'kickoff',
			);
			expect(kickoff.message).toBe(
				"Not sent again: an earlier try of this node sent this item's kickoff, which may have started a crew (the service answered 504: Gateway Timeout)",
			);
			expect(kickoff.description).toMatch(/dashboard/);
			expect(kickoff.description).toMatch(
				/run the workflow again \(a new execution starts anew; a retry from the Executions list remembers this too\) or change the item's inputs\./,
			);
			expect(kickoff.description).not.toMatch(/retry(ing)? starts anew/i);
			const resume = maybeStartedText(
				{ request: 'r', answered: 'no answer (ECONNRESET: socket hang up)', sentAt: 1 },
				'resume',
			);
			expect(resume.message).toMatch(
				/resume, which may have resumed the crew \(the service answered no answer \(ECONNRESET/,
			);
			expect(resume.description).toMatch(/Get Status/);
			expect(resume.description).toMatch(
				/a retry from the Executions list remembers this too\) or change the item\./,
			);
		});
	});
});
