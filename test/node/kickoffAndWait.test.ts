import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';

const crew = useCrewService();

const waitFor = (inputsJson: string, options: object = {}) => ({
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson,
	options: { pollInterval: 0.1, timeout: 20, ...options },
});

const topics = (itemIndex: number) => waitFor(`{"topic": "topic ${itemIndex}"}`);

describe('Kickoff and Wait', () => {
	it.each(['contract', 'wild'] as const)(
		'waits through several polls and gives the normalized record (%s shape)',
		async (recordShape) => {
			// The service's clock moves 500 ms with each status read, not with real time: the first read sees
			// the 800 ms crew running and the second sees it finished, however slow the machine.
			const readsSoFar = () => crew.service.runs[0]?.statusRequests ?? 0;
			crew.service.configure({ recordShape, durationMs: 800, now: () => readsSoFar() * 500 });
			const { output } = await runCrewNode({
				parameters: waitFor('{"topic": "AI"}'),
				credentials: crew.credentials,
			}).finally(() => crew.service.configure({ now: Date.now }));
			const [run] = crew.service.runs;
			expect(output).toEqual([
				{
					json: expect.objectContaining({
						kickoff_id: run.kickoffId,
						state: 'completed',
						result: 'Crew finished: topic=AI',
						error: null,
					}),
					pairedItem: { item: 0 },
				},
			]);
			expect(run.statusRequests).toBe(2);
			expect(crew.service.count('kickoff', 'POST')).toBe(1);
		},
	);

	it("starts every item's crew before the first one finishes, and keeps the outputs in input order", async () => {
		// Later items finish first, so order can only come from the node keeping it.
		crew.service.configure({
			plan: ({ inputs }) => ({ durationMs: 1_200 - Number(inputs.topic.split(' ')[1]) * 100 }),
		});
		const { output } = await runCrewNode({
			parameters: topics,
			credentials: crew.credentials,
			items: items(8),
		});
		const runs = crew.service.runs;
		const lastKickoff = Math.max(...runs.map((run) => run.createdAt));
		const firstCompletion = Math.min(...runs.map((run) => run.completesAt ?? Infinity));
		expect(lastKickoff).toBeLessThan(firstCompletion);
		expect(output.map((item) => item.json.result)).toEqual(
			Array.from({ length: 8 }, (_, index) => `Crew finished: topic=topic ${index}`),
		);
		expect(output.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 8 }, (_, item) => ({ item })),
		);
	});

	it("fails the node with the service's reason and the kickoff ID when a crew fails", async () => {
		crew.service.configure({
			plan: () => ({ outcome: 'failure', error: 'Task execution failed: invalid API key' }),
		});
		const error = await runCrewNodeExpectingError({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(error.message).toBe(
			`The crew failed (kickoff ID ${crew.service.runs[0].kickoffId}): Task execution failed: invalid API key`,
		);
	});

	it('gives mixed outcomes in order with Continue On Fail: results, a failed crew, a bad item', async () => {
		crew.service.configure({
			plan: ({ inputs }) =>
				inputs.topic === 'fail'
					? { outcome: 'failure', error: 'boom', durationMs: 200 }
					: { durationMs: 400 },
		});
		const inputsByItem = ['{"topic": "a"}', '{"topic": "fail"}', 'broken json', '{"topic": "d"}'];
		const { output } = await runCrewNode({
			parameters: (itemIndex) => waitFor(inputsByItem[itemIndex]),
			credentials: crew.credentials,
			items: items(4),
			continueOnFail: true,
		});
		const failedRun = crew.service.runs.find((run) => run.inputs.topic === 'fail');
		expect(output.map((item) => item.json.state ?? 'error')).toEqual([
			'completed',
			'error',
			'error',
			'completed',
		]);
		// With Continue the details are fields of the item, which n8n-core would strip from one carrying `error`.
		expect(output[1].json).toEqual({
			error: `The crew failed (kickoff ID ${failedRun?.kickoffId}): boom`,
			description: expect.stringMatching(/reported a failure/),
			kickoff_id: failedRun?.kickoffId,
		});
		expect(output[2].json).toEqual({
			error: expect.stringMatching(/not valid JSON/),
			description: expect.stringMatching(/JSON object/),
		});
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(crew.service.runs).toHaveLength(3);
	});

	it('times out naming the kickoff ID and how to go on, leaving the crew running', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		const error = await runCrewNodeExpectingError({
			parameters: waitFor('{"topic": "AI"}', { timeout: 0.6 }),
			credentials: crew.credentials,
		});
		const [run] = crew.service.runs;
		expect(error.message).toContain(
			`did not finish within 0.6 seconds (kickoff ID ${run.kickoffId}); it was last running`,
		);
		expect(error.description).toMatch(/Get Status operation and kickoff ID .*raise Timeout/);
		expect(crew.service.count('kickoff', 'POST')).toBe(1);
	});

	// Stopping the execution: test/node/cancellation.test.ts, with both sleep APIs.

	it('still works in n8n versions without a cancel signal', async () => {
		const { output } = await runCrewNode({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
			withoutCancelSignal: true,
		});
		expect(output[0].json.state).toBe('completed');
	});

	it('ends the item at once when the token is refused while polling', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		crew.service.injectFault({ route: 'status', kind: 'status', status: 401, times: 5 });
		const error = await runCrewNodeExpectingError({
			parameters: waitFor('{"topic": "AI"}', { timeout: 600 }),
			credentials: crew.credentials,
		});
		expect(error.httpCode).toBe('401');
		expect(error.message).toContain(`kickoff ID ${crew.service.runs[0].kickoffId}`);
		// At once: the first refused read ends it (counted, not timed: a loaded machine is no failure).
		expect(crew.service.count('status')).toBe(1);
	});

	it('does not wait for the others when a kickoff fails without Continue On Fail', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		const error = await runCrewNodeExpectingError({
			parameters: (itemIndex) =>
				waitFor(itemIndex === 1 ? '{"audience": "no topic"}' : '{"topic": "AI"}', { timeout: 600 }),
			credentials: crew.credentials,
			items: items(2),
		});
		expect(error.httpCode).toBe('422');
		expect(error.description).toContain(
			`The crews started for the other items keep running: kickoff IDs ${crew.service.runs[0].kickoffId}.`,
		);
		expect(crew.service.count('status')).toBe(0);
	});

	it('honours Max Concurrent Kickoffs', async () => {
		crew.service.configure({ durationMs: 100 });
		crew.service.injectFault({ route: 'kickoff', kind: 'delay', delayMs: 100, times: 6 });
		const { record } = await runCrewNode({
			parameters: (itemIndex) => waitFor(`{"topic": "${itemIndex}"}`, { maxConcurrentKickoffs: 2 }),
			credentials: crew.credentials,
			items: items(6),
		});
		expect(record.maxInFlight.POST).toBe(2);
		expect(crew.service.runs).toHaveLength(6);
	});
});
