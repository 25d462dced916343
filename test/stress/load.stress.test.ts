/**
 * Reliability matrix, load rows (npm run test:stress): many items in one
 * execution and many executions at once, against one reference service.
 * Every item is accounted for, memory stays bounded, and no kickoff is read
 * more often than the polling policy allows.
 */
import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode } from '../helpers/crewWorkflow';

const DURATION_MS = 1_000;
const POLL_INTERVAL_S = 0.5;
const crew = useCrewService({ durationMs: DURATION_MS });

const waitFor = (execution: number) => (itemIndex: number) => ({
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson: `{"topic": "e${execution}-i${itemIndex}"}`,
	options: { pollInterval: POLL_INTERVAL_S, timeout: 120, maxConcurrentKickoffs: 10 },
});

/** At the interval, a crew is read about once per interval of its life, plus the first and the last read. */
function maxReadsPerKickoff(lifeMs: number) {
	return Math.ceil(lifeMs / (POLL_INTERVAL_S * 1000)) + 2;
}

describe('load', () => {
	it('one execution with 500 items', async () => {
		const heapBefore = process.memoryUsage().heapUsed;
		const started = Date.now();
		const { output } = await runCrewNode({
			parameters: waitFor(0),
			credentials: crew.credentials,
			items: items(500),
		});
		const elapsed = Date.now() - started;
		expect(output).toHaveLength(500);
		expect(
			output.every(
				(item, index) =>
					item.json.result === `Crew finished: topic=e0-i${index}` &&
					(item.pairedItem as { item: number }).item === index,
			),
		).toBe(true);
		expect(crew.service.runs).toHaveLength(500);
		const mostReads = Math.max(...crew.service.runs.map((run) => run.statusRequests));
		expect(mostReads).toBeLessThanOrEqual(maxReadsPerKickoff(elapsed));
		expect((process.memoryUsage().heapUsed - heapBefore) / 1_048_576).toBeLessThan(200);
	}, 120_000);

	it('20 executions of 25 items at once', async () => {
		const started = Date.now();
		const executions = await Promise.all(
			Array.from(
				{ length: 20 },
				async (_, execution) =>
					await runCrewNode({
						parameters: waitFor(execution),
						credentials: crew.credentials,
						items: items(25),
					}),
			),
		);
		const elapsed = Date.now() - started;
		executions.forEach(({ output }, execution) => {
			expect(output.map((item) => item.json.result)).toEqual(
				Array.from({ length: 25 }, (_, index) => `Crew finished: topic=e${execution}-i${index}`),
			);
		});
		expect(crew.service.count('kickoff', 'POST')).toBe(500);
		expect(new Set(crew.service.runs.map((run) => run.inputs.topic)).size).toBe(500);
		expect(Math.max(...crew.service.runs.map((run) => run.statusRequests))).toBeLessThanOrEqual(
			maxReadsPerKickoff(elapsed),
		);
	}, 120_000);
});
