/**
 * Resume's Wait for the Resumed Run, Wait By: Callback (node version 1.5), on n8n's real engine
 * against the reference service in its live dialect: the resume hands the resumed run the
 * execution's resume URL (its event stream with a token of its own, and its human-input URL),
 * the execution parks, and the run's call resumes it, completed, failed or paused again; the
 * timeout when it never calls. The resume receiver stands in for n8n's /webhook-waiting/ route;
 * it holds the service's calls until the execution is parked, so every call is one made after
 * parking, however slow the machine.
 */
import { chatWhileParked } from '../../nodes/waiting/chatWhileParked';
import { useCrewService } from '../helpers/crewService';
import { runCrewNode } from '../helpers/crewWorkflow';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { resumeAtTimeout, runUntilParked } from '../helpers/waitingExecution';
import { stopsByKickoff } from '../helpers/cancelExecution';

const crew = useCrewService({ dialect: 'live' });
const receiver = useResumeReceiver({ holdCallsUntilParked: true });
afterEach(() => crew.service.configure({ now: Date.now }));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A crew kicked off and paused after research_task, as a Kickoff before the Resume leaves it. */
async function pausedCrew(plan: object = {}): Promise<string> {
	crew.service.configure({
		durationMs: 1_500,
		plan: () => ({ humanInput: { taskId: 'research_task' }, ...plan }),
	});
	const { output } = await runCrewNode({
		parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
		credentials: crew.credentials,
	});
	const kickoffId = output[0].json.kickoff_id as string;
	const deadline = Date.now() + 10_000;
	while (crew.service.runs[0].state !== 'paused') {
		if (Date.now() > deadline)
			throw new Error(`the crew did not pause: ${crew.service.runs[0].state}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	return kickoffId;
}

const resumeByCallback = (
	kickoffId: string,
	isApprove: boolean,
	humanFeedback = '',
	options: object = {},
) => ({
	operation: 'resume',
	kickoffId,
	taskId: 'research_task',
	isApprove,
	humanFeedback,
	waitForResumedRun: true,
	waitBy: 'callback',
	options: { pollInterval: 0.1, timeout: 60, firstPhase: 0.3, ...options },
});

/**
 * Resumes and parks. From the resume until the execution parks, the service's clock stands 100 ms
 * after the resumed run began, so the first phase sees it running however long that takes; then
 * the clock is real time again, the time the service's calls are made in.
 */
async function resumeAndPark(
	kickoffId: string,
	isApprove: boolean,
	humanFeedback = '',
	more: { options?: object; continueOnFail?: boolean } = {},
) {
	let parked = false;
	const resumedIndex = crew.service.runs.length;
	crew.service.configure({
		now: () =>
			parked || !crew.service.runs[resumedIndex]
				? Date.now()
				: crew.service.runs[resumedIndex].createdAt + 100,
	});
	const execution = await runUntilParked({
		parameters: resumeByCallback(kickoffId, isApprove, humanFeedback, more.options),
		credentials: crew.credentials,
		typeVersion: 1.5,
		continueOnFail: more.continueOnFail,
		webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
	});
	if (execution.error) throw execution.error;
	expect(execution.waitTill).toBeDefined();
	parked = true;
	receiver.park(execution);
	return execution;
}

describe('Resume, Wait By: Callback', () => {
	it("approved: the resume gives the resumed run the resume URL and a token; the execution parks, held by nothing, and the run's end resumes it with its record", async () => {
		const pausedId = await pausedCrew();
		const execution = await resumeAndPark(pausedId, true, 'Looks good');
		const resumed = crew.service.runs[1];
		const resumeUrl = `${receiver.webhookWaitingBaseUrl}/${execution.executionId}?signature=${execution.run.data.resumeToken}`;
		expect(resumed.resumedFrom).toBe(pausedId);
		expect(resumed.callbacks).toEqual({
			stream: {
				url: resumeUrl,
				events: ['crew_kickoff_completed', 'crew_kickoff_failed'],
				realtime: true,
				auth: 'bearer',
			},
			humanInput: { url: resumeUrl, auth: null },
		});
		// While parked: the waiting item, and what n8n's chat shows; the parked item is the timeout item with the paused run named.
		expect(execution.output).toEqual([
			{
				json: expect.objectContaining({
					kickoff_id: resumed.kickoffId,
					state: 'running',
					waiting_for: 'callback',
				}),
				sendMessage: chatWhileParked([resumed.kickoffId]),
				pairedItem: { item: 0 },
			},
		]);
		expect(execution.parked[0].json).toMatchObject({
			kickoff_id: resumed.kickoffId,
			resumed_kickoff_id: pausedId,
		});
		const resumeBody = crew.service.requests.find((request) => request.route === 'resume')
			?.body as Record<string, unknown>;
		expect(resumeBody).toMatchObject({
			executionId: pausedId,
			taskId: 'research_task',
			humanFeedback: 'Looks good',
			isApprove: true,
			humanInputWebhookUrl: resumeUrl,
		});

		const [call] = await receiver.untilResumed();
		expect(receiver.calls).toHaveLength(1);
		expect(receiver.calls[0].authorization).toMatch(/^Bearer \w{32,}$/);
		// Not the token itself: only its hash is kept with the waiting execution.
		expect(JSON.stringify(execution.run)).not.toContain(receiver.calls[0].authorization?.slice(7));
		const output = call.resumed?.output ?? [];
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json).toMatchObject({
			kickoff_id: resumed.kickoffId,
			resumed_kickoff_id: pausedId,
			state: 'completed',
			result: 'Crew finished: topic=AI (feedback: Looks good)',
		});
		expect(call.resumed?.run.status).toBe('success');
		// Resumed by the call, long before the 60 s timeout.
		expect(Date.now()).toBeLessThan((execution.waitTill as Date).getTime());
	});

	it('declined: the run redoes the task and pauses again; its human-input call resumes the execution with the item paused, its new task ID and the revised output', async () => {
		const pausedId = await pausedCrew();
		await resumeAndPark(pausedId, false, 'More sources');
		const again = crew.service.runs[1];
		const [call] = await receiver.untilResumed();
		// The call without Authorization, as the live service makes it.
		expect(receiver.calls.map((received) => received.authorization)).toEqual([undefined]);
		const humanInput = receiver.calls[0].body as { task_id: string; task_output: string };
		const [item] = call.resumed?.output ?? [];
		expect(item.json).toMatchObject({
			kickoff_id: again.kickoffId,
			resumed_kickoff_id: pausedId,
			state: 'paused',
			task_id: humanInput.task_id,
			task_output: 'Research notes for topic=AI (revised after feedback: More sources)',
			task_name: null,
			task_description: null,
		});
		expect(item.json.task_id).toMatch(UUID);
		// Ready for the next round: a Resume after it reads kickoff_id and task_id from the item.
		const next = await runCrewNode({
			parameters: { operation: 'resume', isApprove: true },
			items: [{ json: item.json }],
			credentials: crew.credentials,
			typeVersion: 1.5,
		});
		expect(next.output[0].json).toMatchObject({
			resumed_kickoff_id: again.kickoffId,
			kickoff_id: crew.service.runs[2].kickoffId,
		});
	});

	it('approved into a later task marked for human input: the run pauses again there, the item says which task and its output', async () => {
		const pausedId = await pausedCrew({
			humanInput: { taskIds: ['research_task', 'analysis_task'] },
		});
		await resumeAndPark(pausedId, true, 'Go on');
		const [call] = await receiver.untilResumed();
		const [item] = call.resumed?.output ?? [];
		expect(item.json).toMatchObject({
			kickoff_id: crew.service.runs[1].kickoffId,
			resumed_kickoff_id: pausedId,
			state: 'paused',
			task_output: 'Analysis of topic=AI',
		});
	});

	it("a resumed run that fails is the item's error naming the resumed run (Continue On Fail: an item with it)", async () => {
		const pausedId = await pausedCrew({ outcome: 'failure', error: 'The report tool is down' });
		await resumeAndPark(pausedId, true, '', { continueOnFail: true });
		const [call] = await receiver.untilResumed();
		const [item] = call.resumed?.output ?? [];
		expect(item.json.error).toBe(
			`The crew failed (kickoff ID ${crew.service.runs[1].kickoffId}): The report tool is down`,
		);
	});

	it("a resumed run that never calls back: at the timeout n8n outputs the timeout item naming the resumed run (none of the node's code runs)", async () => {
		const pausedId = await pausedCrew({ outcome: 'never' });
		const execution = await resumeAndPark(pausedId, true, '', { options: { timeout: 2 } });
		const resumedId = crew.service.runs[1].kickoffId;
		const timedOut = await resumeAtTimeout(execution);
		expect(timedOut.output).toHaveLength(1);
		// n8n keeps only the error's message of a parked error item: it names the resumed run.
		expect(timedOut.output[0].json).toEqual({
			error: `The crew did not call back within 2 seconds (kickoff ID ${resumedId})`,
		});
		expect(crew.service.runs[1].resumedFrom).toBe(pausedId);
	});

	it('a Resume saved with version 1.4 waits by polling, whatever Wait By says', async () => {
		const pausedId = await pausedCrew();
		crew.service.configure({ durationMs: 300 });
		const { output, record } = await runCrewNode({
			parameters: resumeByCallback(pausedId, true),
			credentials: crew.credentials,
			typeVersion: 1.4,
		});
		expect(output[0].json).toMatchObject({ state: 'completed', resumed_kickoff_id: pausedId });
		expect(crew.service.runs[1].callbacks).toEqual({ stream: null, humanInput: null });
		expect(
			record.requests.filter((request) => request.url.includes('/status')).length,
		).toBeGreaterThan(0);
	});

	it('the execution cancelled while the node still watches the resumed runs (its first phase) stops each of them once, as Kickoff and Wait does', async () => {
		const pausedIds = [await pausedCrew({ outcome: 'never' })];
		crew.service.configure({
			plan: () => ({ humanInput: { taskId: 'research_task' }, outcome: 'never' }),
		});
		pausedIds.push(
			...(await Promise.all(
				[1, 2].map(
					async () =>
						(
							await runCrewNode({
								parameters: {
									operation: 'kickoff',
									inputsMode: 'json',
									inputsJson: '{"topic": "AI"}',
								},
								credentials: crew.credentials,
							})
						).output[0].json.kickoff_id as string,
				),
			)),
		);
		const deadline = Date.now() + 10_000;
		while (crew.service.runs.some((run) => run.state !== 'paused')) {
			if (Date.now() > deadline) throw new Error('the crews did not pause');
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		const controller = new AbortController();
		// Cancelled once the three resumed runs exist, while the 30 s first phase watches them.
		const watcher = setInterval(() => {
			if (crew.service.runs.length >= 6) controller.abort();
		}, 5);
		try {
			const execution = await runUntilParked({
				parameters: (itemIndex: number) =>
					resumeByCallback(pausedIds[itemIndex], true, '', { firstPhase: 30 }),
				items: pausedIds.map(() => ({ json: {} })),
				credentials: crew.credentials,
				typeVersion: 1.5,
				continueOnFail: true,
				cancelSignal: controller.signal,
				webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
			});
			expect(execution.waitTill).toBeUndefined();
			const resumedIds = crew.service.runs.slice(3).map((run) => run.kickoffId);
			expect(stopsByKickoff(crew.service)).toEqual(
				Object.fromEntries(resumedIds.map((id) => [id, 1])),
			);
			expect(crew.service.runs.slice(3).map((run) => run.state)).toEqual([
				'revoked',
				'revoked',
				'revoked',
			]);
			expect(execution.output.map((item) => item.json.error)).toEqual(
				resumedIds.map(
					(id) =>
						`The execution was stopped while waiting for the crew (kickoff ID ${id}); the crew was stopped too`,
				),
			);
		} finally {
			clearInterval(watcher);
		}
	});

	it('with Retry On Fail, a resume an earlier try sent is not sent again (live, each resume starts a new run)', async () => {
		const pausedId = await pausedCrew();
		// Item 1's Task ID is empty: the first try fails after item 0's resume was sent.
		const parameters = (itemIndex: number) => ({
			...resumeByCallback(pausedId, true),
			taskId: itemIndex === 0 ? 'research_task' : '',
		});
		const execution = await runUntilParked({
			parameters,
			items: [{ json: {} }, { json: {} }],
			credentials: crew.credentials,
			typeVersion: 1.5,
			retryOnFail: { maxTries: 2 },
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		});
		expect(execution.error?.message).toBe('Task ID is empty');
		expect(crew.service.count('resume')).toBe(1);
		expect(crew.service.runs).toHaveLength(2);
	});
});
