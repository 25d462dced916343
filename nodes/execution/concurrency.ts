/**
 * Runs `work` for every entry with at most `limit` running at once and gives
 * the results in the entries' order. `work` must not throw: callers return
 * errors as values so that one item's failure does not abandon the others.
 */
export async function mapWithConcurrency<Entry, Result>(
	entries: readonly Entry[],
	limit: number,
	work: (entry: Entry, index: number) => Promise<Result>,
): Promise<Result[]> {
	const results = new Array<Result>(entries.length);
	let next = 0;
	const runners = Array.from({ length: Math.max(1, Math.min(limit, entries.length)) }, async () => {
		while (next < entries.length) {
			const index = next++;
			results[index] = await work(entries[index], index);
		}
	});
	await Promise.all(runners);
	return results;
}
