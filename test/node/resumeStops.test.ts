/**
 * Resume's Wait for the Resumed Run stopping its crews, from node version 1.4, as Kickoff
 * and Wait does (stopWaiting.test.ts): when n8n cancels the execution, and at the timeout
 * as On Timeout says. Version 1.3 and earlier stop nothing, as when they were saved. On
 * n8n-core's real engine against the reference service.
 */
import { useCrewService } from '../helpers/crewService';
import { cancelWhen, HANG_GUARD_MS, stopsByKickoff } from '../helpers/cancelExecution';
import { items, runCrewNode, runCrewWorkflow } from '../helpers/crewWorkflow';

const crew = useCrewService();

/** Every crew pauses at research_task for human input and, once resumed, runs until it is stopped. */
beforeEach(() =>
	crew.service.configure({
		stopRoute: true,
		plan: () => ({ humanInput: { taskId: 'research_task' }, outcome: 'never' }),
	}),
);

/** `count` crews paused for human input, as Kickoff and Wait hands them on; their kickoff ids. */
async function pausedCrews(count: number): Promise<string[]> {
	const kickoffAndWait = {
		operation: 'kickoffAndWait',
		inputsMode: 'json',
		inputsJson: '{"topic": "AI"}',
		options: { pollInterval: 0.05, timeout: 20 },
	};
	const { output } = await runCrewNode({
		parameters: kickoffAndWait,
		credentials: crew.credentials,
		items: items(count),
	});
	expect(output.map((item) => item.json.state)).toEqual(Array(count).fill('paused'));
	return output.map((item) => item.json.kickoff_id as string);
}

/** Resume with Wait for the Resumed Run, item i resuming the crew paused as `kickoffIds[i]`. */
const resumeAndWait = (kickoffIds: string[], options: object) => (itemIndex: number) => ({
	operation: 'resume',
	kickoffId: kickoffIds[itemIndex],
	taskId: 'research_task',
	isApprove: true,
	humanFeedback: 'ok',
	waitForResumedRun: true,
	options,
});

const resumesAnswered = () =>
	crew.service.requests.filter((request) => request.route === 'resume' && request.status === 200)
		.length;

describe('Resume, Wait for the Resumed Run, the execution cancelled', () => {
	afterEach(() => crew.service.configure({ now: Date.now }));
	const long = { pollInterval: 60, timeout: 600 };

	it.each(['documented', 'live'] as const)(
		'node version 1.4 stops every resumed run, each once, and says so (%s dialect)',
		async (dialect) => {
			// Live, a paused crew reads NOT FOUND, which means "paused" only once the wait has seen the run
			// running: the service's clock moves 20 ms with each status read, so each of the two runs is
			// read running (from 30 ms) before it pauses (at 100 ms), however slow the machine.
			crew.service.configure(
				dialect === 'live'
					? { dialect, now: () => crew.service.count('status') * 20 }
					: { dialect },
			);
			const paused = await pausedCrews(2);
			const parameters = resumeAndWait(paused, long);
			const { error, run } = await cancelWhen(
				() => resumesAnswered() >= 2,
				async (cancelSignal) =>
					await runCrewWorkflow({
						parameters,
						credentials: crew.credentials,
						items: items(2),
						cancelSignal,
						typeVersion: 1.4,
					}),
			);
			// The documented service resumes a run under its own id; the live one starts a new run, and that is the one stopped.
			const resumed = dialect === 'documented' ? crew.service.runs : crew.service.runs.slice(2);
			expect(resumed.map((r) => r.resumedFrom ?? r.kickoffId)).toEqual(paused);
			expect(stopsByKickoff(crew.service)).toEqual(
				Object.fromEntries(resumed.map((r) => [r.kickoffId, 1])),
			);
			expect(resumed.map((r) => r.state)).toEqual(['revoked', 'revoked']);
			expect(run.status).not.toBe('success');
			expect(error?.message).toBe(
				`The execution was stopped while waiting for the crew (kickoff ID ${resumed[0].kickoffId}); the crew was stopped too`,
			);
		},
		HANG_GUARD_MS + 30_000,
	);

	it.each([
		['1.3, as saved before: nothing is stopped', 1.3, {}, 0],
		['1, the first version: nothing is stopped', 1, {}, 0],
		['1.4 with Stop Crews When the Execution Is Stopped off', 1.4, { stopCrewsOnCancel: false }, 0],
		['1.4 by default', 1.4, {}, 2],
	])(
		'node version %s',
		async (_, typeVersion, options, stops) => {
			const paused = await pausedCrews(2);
			const parameters = resumeAndWait(paused, { ...long, ...options });
			const { output } = await cancelWhen(
				() => resumesAnswered() >= 2,
				async (cancelSignal) =>
					await runCrewWorkflow({
						parameters,
						credentials: crew.credentials,
						items: items(2),
						cancelSignal,
						typeVersion,
						continueOnFail: true,
					}),
			);
			expect(crew.service.count('stop')).toBe(stops);
			expect(crew.service.runs.map((r) => r.state)).toEqual(
				Array(2).fill(stops === 0 ? 'running' : 'revoked'),
			);
			// Without the stops, a cancel as the last answer arrives may abort its reading (ERR_CANCELED): only the stopping node's words are fixed.
			if (stops > 0)
				expect(output.map((item) => item.json.error)).toEqual(
					paused.map(
						(kickoffId) =>
							`The execution was stopped while waiting for the crew (kickoff ID ${kickoffId}); the crew was stopped too`,
					),
				);
		},
		HANG_GUARD_MS + 30_000,
	);

	it(
		'a resume in flight at the cancel is let finish, so its run is stopped too; 1.3 stops nothing',
		async () => {
			for (const typeVersion of [1.4, 1.3]) {
				crew.service.reset();
				const paused = await pausedCrews(1);
				// The resume takes effect at once and is answered a second later: the cancel comes in between.
				crew.service.injectFault({
					route: 'resume',
					kind: 'delay',
					delayMs: 1_000,
					afterProcessing: true,
					times: 1,
				});
				const parameters = resumeAndWait(paused, long);
				await cancelWhen(
					() => crew.service.runs[0].resumes.length > 0,
					async (cancelSignal) =>
						await runCrewWorkflow({
							parameters,
							credentials: crew.credentials,
							cancelSignal,
							typeVersion,
							continueOnFail: true,
						}),
				);
				expect(crew.service.runs[0].resumes).toHaveLength(1);
				expect(stopsByKickoff(crew.service)).toEqual(typeVersion === 1.4 ? { [paused[0]]: 1 } : {});
			}
		},
		2 * HANG_GUARD_MS + 30_000,
	);
});

describe('Resume, Wait for the Resumed Run, On Timeout', () => {
	const short = { pollInterval: 0.1, timeout: 1 };

	it('node version 1.4, Stop Crews Still Running: each resumed run still running at the timeout is stopped once, and its item says so', async () => {
		const paused = await pausedCrews(2);
		const { output } = await runCrewWorkflow({
			parameters: resumeAndWait(paused, { ...short, onTimeout: 'stopCrews' }),
			credentials: crew.credentials,
			items: items(2),
			typeVersion: 1.4,
			continueOnFail: true,
		});
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output.map((item) => item.json.error)).toEqual(
			paused.map((kickoffId) =>
				expect.stringMatching(
					new RegExp(
						`^The crew did not finish within 1 seconds and was stopped \\(kickoff ID ${kickoffId}\\)`,
					),
				),
			),
		);
		expect(stopsByKickoff(crew.service)).toEqual(
			Object.fromEntries(paused.map((kickoffId) => [kickoffId, 1])),
		);
		expect(crew.service.runs.map((r) => r.state)).toEqual(['revoked', 'revoked']);
	});

	it.each([
		['1.4, Leave Crews Running', 1.4, { onTimeout: 'leaveRunning' }],
		['1.4 by default (Leave Crews Running)', 1.4, {}],
		[
			'1.3 with Stop Crews Still Running in its options (an option 1.3 does not show)',
			1.3,
			{ onTimeout: 'stopCrews' },
		],
	])('node version %s: nothing is stopped, the item says so', async (_, typeVersion, options) => {
		const paused = await pausedCrews(1);
		const { output } = await runCrewWorkflow({
			parameters: resumeAndWait(paused, { ...short, ...options }),
			credentials: crew.credentials,
			typeVersion,
			continueOnFail: true,
		});
		expect(output[0].json.error).toBe(
			`The crew did not finish within 1 seconds (kickoff ID ${paused[0]}); it was last running`,
		);
		expect(output[0].json.description).toMatch(/^The crew was not stopped and may still finish/);
		expect(crew.service.count('stop')).toBe(0);
		expect(crew.service.runs[0].state).toBe('running');
	});
});
