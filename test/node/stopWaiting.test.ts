/**
 * Kickoff and Wait stopping the crews it gives up on: at its timeout (On Timeout:
 * Stop Crews Still Running) and when n8n cancels the execution (node version 1.3,
 * or the option), on n8n-core's real engine against the reference service.
 * n8n-core aborts every request of a cancelled execution made through the node's
 * context, so these tests also pin that the stops still reach the service.
 */
import { useCrewService } from '../helpers/crewService';
import { cancelWhen, HANG_GUARD_MS, stopsByKickoff } from '../helpers/cancelExecution';
import { items, runCrewWorkflow } from '../helpers/crewWorkflow';
import type { CrewWorkflowRun } from '../helpers/crewWorkflow';

const crew = useCrewService();
beforeEach(() => crew.service.configure({ stopRoute: true }));

const waitFor = (options: object) => ({
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options,
});

/** Runs Kickoff and Wait and cancels the execution, as n8n's Stop button does, once the service has `crews` runs. */
const cancelWhenStarted = async (
	crews: number,
	run: (signal: AbortSignal) => Promise<CrewWorkflowRun>,
) => await cancelWhen(() => crew.service.runs.length >= crews, run);

describe('Kickoff and Wait, On Timeout', () => {
	it('Stop Crews Still Running stops each crew still running at the timeout, once, and its item says so', async () => {
		crew.service.configure({
			durationMs: 100,
			plan: ({ index }) => (index === 1 ? undefined : { outcome: 'never' }),
		});
		const { output } = await runCrewWorkflow({
			parameters: waitFor({ pollInterval: 0.1, timeout: 1, onTimeout: 'stopCrews' }),
			credentials: crew.credentials,
			items: items(3),
			continueOnFail: true,
		});
		const [first, second, third] = crew.service.runs;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.error).toMatch(
			new RegExp(
				`^The crew did not finish within 1 seconds and was stopped \\(kickoff ID ${first.kickoffId}\\)`,
			),
		);
		expect(output[0].json.description).toMatch(/stopped this one: it spends nothing more/);
		expect(output[1].json.state).toBe('completed');
		expect(output[2].json.error).toMatch(/and was stopped/);
		expect(stopsByKickoff(crew.service)).toEqual({ [first.kickoffId]: 1, [third.kickoffId]: 1 });
		expect([first.state, second.state, third.state]).toEqual(['revoked', 'completed', 'revoked']);
	});

	it('by default leaves them running, as before', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		const { output } = await runCrewWorkflow({
			parameters: waitFor({ pollInterval: 0.1, timeout: 1 }),
			credentials: crew.credentials,
			continueOnFail: true,
			typeVersion: 1.3,
		});
		expect(output[0].json.description).toMatch(/^The crew was not stopped and may still finish/);
		expect(crew.service.count('stop')).toBe(0);
		expect(crew.service.runs[0].state).not.toBe('revoked');
	});

	it('a deployment that cannot be stopped: the item says the stop failed, why, and where to stop it', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }), stopRoute: false });
		const { output } = await runCrewWorkflow({
			parameters: waitFor({ pollInterval: 0.1, timeout: 1, onTimeout: 'stopCrews' }),
			credentials: crew.credentials,
			continueOnFail: true,
		});
		expect(output[0].json.error).toMatch(
			/^The crew did not finish within 1 seconds \(kickoff ID [^)]+\); it was last running$/,
		);
		expect(output[0].json.description).toMatch(
			/^Stopping it failed \(this deployment cannot be stopped through its API \(it answered 404 to POST \/stop\); stop it in the crew's dashboard\), so it may still be running/,
		);
		expect(crew.service.count('stop')).toBe(1);
	});
});

describe('Kickoff and Wait, the execution cancelled', () => {
	const long = waitFor({ pollInterval: 60, timeout: 600 });

	/** Kickoff and Wait on `count` items, its execution cancelled once every crew has started. */
	const cancelledRun = async (
		count: number,
		{
			parameters = long,
			typeVersion = 1.3,
			continueOnFail = false,
		}: { parameters?: object; typeVersion?: number; continueOnFail?: boolean } = {},
	) =>
		await cancelWhenStarted(
			count,
			async (cancelSignal) =>
				await runCrewWorkflow({
					parameters,
					credentials: crew.credentials,
					items: items(count),
					cancelSignal,
					typeVersion,
					...(continueOnFail ? { continueOnFail } : {}),
				}),
		);

	it(
		'node version 1.3 stops every crew it started that has not ended, each once, and says so',
		async () => {
			crew.service.configure({
				plan: ({ index }) => (index === 1 ? { durationMs: 0 } : { outcome: 'never' }),
			});
			const { error, run } = await cancelledRun(3);
			const [first, second, third] = crew.service.runs;
			// The cancel comes before the first status read, so the node has not seen the second crew end: its stop is
			// answered 400 SUCCESS and changes nothing. Each crew gets one stop, never two.
			expect(stopsByKickoff(crew.service)).toEqual({
				[first.kickoffId]: 1,
				[second.kickoffId]: 1,
				[third.kickoffId]: 1,
			});
			expect([first.state, second.state, third.state]).toEqual(['revoked', 'completed', 'revoked']);
			expect(run.status).not.toBe('success');
			expect(error?.message).toBe(
				`The execution was stopped while waiting for the crew (kickoff ID ${first.kickoffId}); the crew was stopped too`,
			);
		},
		HANG_GUARD_MS + 10_000,
	);

	it(
		'with Continue On Fail, each item says what became of its crew',
		async () => {
			crew.service.configure({ plan: () => ({ outcome: 'never' }) });
			const { output } = await cancelledRun(2, { continueOnFail: true });
			expect(output.map((item) => item.json.error)).toEqual(
				crew.service.runs.map(
					(r) =>
						`The execution was stopped while waiting for the crew (kickoff ID ${r.kickoffId}); the crew was stopped too`,
				),
			);
			expect(crew.service.count('stop')).toBe(2);
		},
		HANG_GUARD_MS + 10_000,
	);

	it.each([
		['1.2, as saved before', 1.2, {}, 0],
		['1.2 with the option on', 1.2, { stopCrewsOnCancel: true }, 3],
		['1.3 with the option off', 1.3, { stopCrewsOnCancel: false }, 0],
	])(
		'node version %s: %#',
		async (_, typeVersion, options, stops) => {
			crew.service.configure({ plan: () => ({ outcome: 'never' }) });
			const parameters = waitFor({ pollInterval: 60, timeout: 600, ...options });
			await cancelledRun(3, { parameters, typeVersion });
			expect(crew.service.count('stop')).toBe(stops);
			expect(crew.service.runs.filter((run) => run.state === 'revoked')).toHaveLength(stops);
		},
		HANG_GUARD_MS + 10_000,
	);

	it(
		'a service answering 429: every stop still to be sent waits out its Retry-After, the refused ones are sent again, each crew stopped once',
		async () => {
			crew.service.configure({ plan: () => ({ outcome: 'never' }) });
			crew.service.injectFault({
				route: 'stop',
				kind: 'status',
				status: 429,
				headers: { 'Retry-After': '1' },
				body: '{"detail": "Too many requests"}',
				times: 2,
			});
			const { output } = await cancelledRun(3, { continueOnFail: true });
			const stops = crew.service.requests.filter((request) => request.route === 'stop');
			const refused = stops.filter((request) => request.status === 429);
			const taken = stops.filter((request) => request.status === 200);
			expect(refused).toHaveLength(2);
			// One stop processed per crew: the two refused were sent again, the third not.
			expect(taken.map((request) => request.kickoffId).sort()).toEqual(
				crew.service.runs.map((run) => run.kickoffId).sort(),
			);
			expect(stops).toHaveLength(5);
			expect(crew.service.runs.map((run) => run.state)).toEqual(['revoked', 'revoked', 'revoked']);
			// Nothing was sent while the service's Retry-After held (the clock's granularity aside).
			const lastRefusal = Math.max(...refused.map((request) => request.at));
			const resent = taken.filter((request) =>
				refused.some((refusal) => refusal.kickoffId === request.kickoffId),
			);
			for (const request of resent) expect(request.at - lastRefusal).toBeGreaterThanOrEqual(990);
			expect(output.map((item) => item.json.error)).toEqual(
				crew.service.runs.map(
					(run) =>
						`The execution was stopped while waiting for the crew (kickoff ID ${run.kickoffId}); the crew was stopped too`,
				),
			);
		},
		HANG_GUARD_MS + 10_000,
	);

	it(
		"a 429 that stands: the stop is sent four times at most, and the item says the crew may still run, with the service's answer",
		async () => {
			crew.service.configure({ plan: () => ({ outcome: 'never' }) });
			crew.service.injectFault({
				route: 'stop',
				kind: 'status',
				status: 429,
				headers: { 'Retry-After': '0' },
				body: '{"detail": "Too many requests"}',
				times: 10,
			});
			const { output } = await cancelWhenStarted(
				1,
				async (cancelSignal) =>
					await runCrewWorkflow({
						parameters: long,
						credentials: crew.credentials,
						cancelSignal,
						typeVersion: 1.3,
						continueOnFail: true,
					}),
			);
			expect(crew.service.count('stop')).toBe(4);
			expect(crew.service.runs[0].state).not.toBe('revoked');
			expect(output[0].json.description).toMatch(
				/^Stopping it failed \(the crew service answered 429: Too many requests\), so it may still be running/,
			);
		},
		HANG_GUARD_MS + 10_000,
	);

	it(
		'a kickoff in flight at the cancel is let finish, so its crew is stopped too; 1.2 aborts it unanswered',
		async () => {
			crew.service.configure({ plan: () => ({ outcome: 'never' }) });
			for (const typeVersion of [1.3, 1.2]) {
				crew.service.reset();
				// The second kickoff starts its run at once and is answered later: the cancel comes in between.
				crew.service.injectFault({ route: 'kickoff', kind: 'delay', delayMs: 0, times: 1 });
				crew.service.injectFault({
					route: 'kickoff',
					kind: 'delay',
					delayMs: 1_000,
					afterProcessing: true,
					times: 1,
				});
				const parameters = waitFor({
					pollInterval: 60,
					timeout: 600,
					maxConcurrentKickoffs: 1,
					stopCrewsOnCancel: typeVersion === 1.2 ? undefined : true,
				});
				await cancelledRun(2, { parameters, typeVersion, continueOnFail: true });
				expect(crew.service.runs).toHaveLength(2);
				if (typeVersion === 1.3)
					expect(stopsByKickoff(crew.service)).toEqual(
						Object.fromEntries(crew.service.runs.map((run) => [run.kickoffId, 1])),
					);
				else expect(crew.service.count('stop')).toBe(0);
			}
		},
		2 * HANG_GUARD_MS + 10_000,
	);
});
