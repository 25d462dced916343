import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { createEndedCrews, crewKey } from '../../../nodes/waiting/endedCrews';
import type { WaitOutcome } from '../../../nodes/waiting/waitForCompletion';

const TASK = '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f';
/** What a human-input call says of the task its crew paused on. */
const NAMED = {
	task_id: TASK,
	task_output: 'Research notes',
	task_name: null,
	task_description: null,
};
const UNNAMED = { task_id: null, task_output: null, task_name: null, task_description: null };

describe('createEndedCrews', () => {
	it('remembers which crews ended and what a human-input call said of the task, and nothing else of them', () => {
		const crews = createEndedCrews(() => 5);
		crews.remember('a', {});
		crews.remember('b', { pausedTask: NAMED });
		expect(crews.endOf('a')).toEqual({ at: 5 });
		expect(crews.endOf('b')).toEqual({ pausedTask: NAMED, at: 5 });
		expect(crews.endOf('c')).toBeUndefined();
		// A later word on the same crew replaces the earlier one.
		crews.remember('a', { pausedTask: UNNAMED });
		expect(crews.endOf('a')).toEqual({ pausedTask: UNNAMED, at: 5 });
		crews.forget(['a', 'b']);
		expect([crews.endOf('a'), crews.endOf('b')]).toEqual([undefined, undefined]);
	});

	const completed: WaitOutcome = {
		kind: 'completed',
		status: readCrewStatus('k1', { status: 'completed', result: 'ok' }),
	};

	it('shares a read in flight among the calls that arrived before it started, and remembers the crew it found ended, not its record', async () => {
		const crews = createEndedCrews(() => 0);
		let reads = 0;
		const read = (outcome: WaitOutcome | undefined) => async () => {
			reads++;
			await Promise.resolve();
			return outcome;
		};
		expect(await crews.readOnce('a', 0, read(undefined))).toBeUndefined();
		expect(
			await crews.readOnce('a', 0, read({ kind: 'error', error: new Error('502') })),
		).toMatchObject({ kind: 'error' });
		expect([reads, crews.endOf('a')]).toEqual([2, undefined]);
		const together = await Promise.all([
			crews.readOnce('b', 0, read(completed)),
			crews.readOnce('b', 0, read(completed)),
		]);
		expect(together).toEqual([completed, completed]);
		expect(reads).toBe(3);
		expect(crews.endOf('b')).toEqual({ at: 0 });
		// A crew already known keeps what a human-input call said of it.
		crews.remember('c', { pausedTask: NAMED });
		await crews.readOnce(
			'c',
			0,
			read({ kind: 'paused', status: readCrewStatus('c', { state: 'NOT FOUND' }) }),
		);
		expect(crews.endOf('c')).toEqual({ pausedTask: NAMED, at: 0 });
	});

	it("never shares a read that started before the asking call arrived: it may predate the crew's end", async () => {
		let clock = 100;
		const crews = createEndedCrews(() => clock);
		let release: (outcome: WaitOutcome | undefined) => void = () => undefined;
		const stale = crews.readOnce(
			'a',
			0,
			async () => await new Promise<WaitOutcome | undefined>((resolve) => (release = resolve)),
		);
		clock = 200;
		let fresh = 0;
		expect(await crews.readOnce('a', 150, async () => (fresh++, completed))).toBe(completed);
		expect(fresh).toBe(1);
		release(undefined);
		expect(await stale).toBeUndefined();
		expect(crews.endOf('a')).toEqual({ at: 200 });
	});

	it('keeps at most its bound of crews, the newest, and none past 25 hours', () => {
		let clock = 0;
		const crews = createEndedCrews(() => clock, 2);
		for (const key of ['a', 'b', 'c']) crews.remember(key, {});
		expect(['a', 'b', 'c'].map((key) => crews.endOf(key) !== undefined)).toEqual([
			false,
			true,
			true,
		]);
		clock += 25 * 3_600_000 + 1;
		crews.remember('d', {});
		expect(['b', 'c', 'd'].map((key) => crews.endOf(key) !== undefined)).toEqual([
			false,
			false,
			true,
		]);
	});

	it("lets one call claim a batch's resume, until it gives the claim back or 25 hours have passed", () => {
		let clock = 0;
		const crews = createEndedCrews(() => clock);
		expect(crews.claimResume('batch')).toBe(true);
		expect(crews.claimResume('batch')).toBe(false);
		crews.releaseResume('batch');
		expect(crews.claimResume('batch')).toBe(true);
		clock += 26 * 3_600_000;
		expect(crews.claimResume('batch')).toBe(true);
		crews.remember('a', {});
		crews.clear();
		expect([crews.claimResume('batch'), crews.endOf('a')]).toEqual([true, undefined]);
	});

	it('keys a crew by its service and kickoff id', () => {
		expect(crewKey('http://a', 'k1')).not.toBe(crewKey('http://b', 'k1'));
	});
});
