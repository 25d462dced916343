import { createCancellableSleep, SLEEP_CHUNK_MS } from '../../../nodes/execution/cancellableSleep';
import type { N8nSleep } from '../../../nodes/execution/cancellableSleep';

/** A fake n8n sleep on a simulated clock; `onSleep` runs before each chunk passes. */
function fakeSleeps(onSleep: (clock: number) => void = () => {}) {
	let clock = 0;
	const chunks: number[] = [];
	const advance = (ms: number) => {
		onSleep(clock);
		chunks.push(ms);
		clock += ms;
	};
	/** n8n-workflow up to 2.33: sleep(ms), deaf to any signal. */
	const oldSleep: N8nSleep = async (ms) => advance(ms);
	/** n8n-workflow from 2.34: sleep(ms, signal), rejecting once the signal fires. */
	const newSleep: N8nSleep = async (ms, signal) => {
		if (signal?.aborted) throw new Error('aborted');
		advance(ms);
		if (signal?.aborted) throw new Error('aborted');
	};
	return { now: () => clock, chunks, oldSleep, newSleep };
}

describe('createCancellableSleep', () => {
	it.each(['oldSleep', 'newSleep'] as const)(
		'sleeps the whole time in short chunks with %s',
		async (which) => {
			const fake = fakeSleeps();
			await createCancellableSleep(new AbortController().signal, fake[which], fake.now)(1_100);
			expect(fake.now()).toBe(1_100);
			expect(Math.max(...fake.chunks)).toBeLessThanOrEqual(SLEEP_CHUNK_MS);
		},
	);

	it.each(['oldSleep', 'newSleep'] as const)(
		'returns within one chunk of the signal firing with %s',
		async (which) => {
			const controller = new AbortController();
			const fake = fakeSleeps((clock) => {
				if (clock >= 1_000) controller.abort();
			});
			await createCancellableSleep(controller.signal, fake[which], fake.now)(3_600_000);
			expect(fake.now()).toBeLessThanOrEqual(1_000 + SLEEP_CHUNK_MS);
		},
	);

	it('does not sleep at all once cancelled', async () => {
		const controller = new AbortController();
		controller.abort();
		const fake = fakeSleeps();
		await createCancellableSleep(controller.signal, fake.oldSleep, fake.now)(5_000);
		expect(fake.chunks).toEqual([]);
	});

	it('sleeps without a signal (n8n versions without getExecutionCancelSignal)', async () => {
		const fake = fakeSleeps();
		await createCancellableSleep(undefined, fake.oldSleep, fake.now)(600);
		expect(fake.now()).toBe(600);
	});

	it('passes on an error that is not the abort', async () => {
		const failing: N8nSleep = async () => {
			throw new Error('broken timer');
		};
		await expect(
			createCancellableSleep(new AbortController().signal, failing, () => 0)(100),
		).rejects.toThrow('broken timer');
	});

	it("really waits with n8n-workflow's own sleep, and stops early on abort", async () => {
		const controller = new AbortController();
		const started = Date.now();
		const sleeping = createCancellableSleep(controller.signal)(60_000);
		await new Promise((resolve) => setTimeout(resolve, 50));
		controller.abort();
		await sleeping;
		// Early: well before the 60 s it was asked to sleep (a tight number would measure the machine).
		expect(Date.now() - started).toBeLessThan(30_000);
	}, 90_000);
});
