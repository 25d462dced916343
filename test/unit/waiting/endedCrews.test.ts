import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { createEndedCrews, crewKey } from '../../../nodes/waiting/endedCrews';
import { pausedFromNotFound, pauseOfHumanInputCall } from '../../../nodes/status/notFound';
import type { WaitOutcome } from '../../../nodes/waiting/waitForCompletion';

const TASK = '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f';

describe('createEndedCrews.remember', () => {
	it('replaces an ended crew\'s outcome, and ignores an outcome that is no end', async () => {
		const crews = createEndedCrews(() => 0);
		const status = pausedFromNotFound(readCrewStatus('k0', { state: 'NOT FOUND' }));
		await crews.outcomeOf('k0', 0, async () => ({ kind: 'paused', status }));
		const named = { kind: 'paused' as const, status: pauseOfHumanInputCall(status, { task_id: TASK, task_output: 'Research notes', task_name: null, task_description: null }) };
		crews.remember('k0', named);
		crews.remember('k0', { kind: 'error', error: new Error('passing') });
		expect(crews.ended('k0')).toEqual(named);
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
