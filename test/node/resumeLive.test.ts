/**
 * Resume against the reference service in its live dialect, where POST /resume
 * takes camelCase fields and answers the resumed run's own, new kickoff id
 * (docs/development/service-api.md, the "Live" facts).
 */
import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';

const crew = useCrewService({ dialect: 'live' });

const kickoffAndWait = {
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options: { pollInterval: 0.05, timeout: 20 },
};
const resume = (
	kickoffId: string,
	isApprove: boolean,
	humanFeedback: string,
	extra: object = {},
) => ({
	operation: 'resume',
	kickoffId,
	taskId: 'research_task',
	isApprove,
	humanFeedback,
	...extra,
});
const waiting = { waitForResumedRun: true, options: { pollInterval: 0.05, timeout: 20 } };

/** A crew paused at research_task, as Kickoff and Wait hands it on. */
async function pausedCrew(): Promise<string> {
	const { output } = await runCrewNode({
		parameters: kickoffAndWait,
		credentials: crew.credentials,
	});
	expect(output[0].json).toMatchObject({ state: 'paused' });
	return output[0].json.kickoff_id as string;
}

describe('Resume, live dialect', () => {
	// Live, a paused crew reads NOT FOUND, which means "paused" only once the wait has seen
	// the run; so the service's clock moves 60 ms with each status read, not with real time:
	// a wait sees a run running before it pauses, however slow the machine.
	beforeEach(() =>
		crew.service.configure({
			durationMs: 300,
			now: () => crew.service.count('status') * 60,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		}),
	);
	afterEach(() => crew.service.configure({ now: Date.now }));

	it('sends the camelCase fields the live service requires (and the snake_case ones), once, and outputs the new kickoff id and the original', async () => {
		const kickoffId = await pausedCrew();
		const { output } = await runCrewNode({
			parameters: resume(kickoffId, true, 'Looks good', {
				options: { crewWebhookUrl: 'http://127.0.0.1:9/crew' },
			}),
			credentials: crew.credentials,
		});
		const resumedRun = crew.service.runs[1];
		expect(resumedRun.resumedFrom).toBe(kickoffId);
		expect(output).toEqual([
			{
				json: { kickoff_id: resumedRun.kickoffId, resumed_kickoff_id: kickoffId },
				pairedItem: { item: 0 },
			},
		]);
		expect(crew.service.requests.filter((request) => request.route === 'resume')).toEqual([
			expect.objectContaining({
				status: 200,
				body: expect.objectContaining({
					executionId: kickoffId,
					taskId: 'research_task',
					humanFeedback: 'Looks good',
					isApprove: true,
					execution_id: kickoffId,
					crewWebhookUrl: 'http://127.0.0.1:9/crew',
				}),
			}),
		]);
		expect(resumedRun.webhooks).toEqual({ crewWebhookUrl: 'http://127.0.0.1:9/crew' });
	});

	it("a Get Status after it follows the resumed run by default (Kickoff ID reads the item's kickoff_id)", async () => {
		const kickoffId = await pausedCrew();
		const { output } = await runCrewNode({
			parameters: resume(kickoffId, true, 'ok'),
			credentials: crew.credentials,
		});
		const status = await runCrewNode({
			parameters: { operation: 'getStatus' },
			items: output.map(({ json }) => ({ json })),
			credentials: crew.credentials,
		});
		expect(status.output[0].json.kickoff_id).toBe(crew.service.runs[1].kickoffId);
		expect(
			crew.service.requests.filter((request) => request.route === 'status').at(-1)?.kickoffId,
		).toBe(crew.service.runs[1].kickoffId);
	});

	it('with Retry On Fail, a resume an earlier try sent is not sent again (live, each resume starts a new run)', async () => {
		const kickoffId = await pausedCrew();
		const parameters = (itemIndex: number) => ({
			...resume(kickoffId, true, 'ok', waiting),
			taskId: itemIndex === 0 ? 'research_task' : '',
		});
		const error = await runCrewNodeExpectingError({
			parameters,
			credentials: crew.credentials,
			items: [{ json: {} }, { json: {} }],
			retryOnFail: { maxTries: 2 },
		});
		expect(error.message).toBe('Task ID is empty');
		expect(crew.service.count('resume')).toBe(1);
		expect(crew.service.runs).toHaveLength(2);
	});

	it('with Retry On Fail, a resume whose connection dropped after the service took it is not sent again', async () => {
		const kickoffId = await pausedCrew();
		crew.service.injectFault({ route: 'resume', kind: 'reset', afterProcessing: true });
		const error = await runCrewNodeExpectingError({
			parameters: resume(kickoffId, true, 'ok', waiting),
			credentials: crew.credentials,
			retryOnFail: { maxTries: 2 },
		});
		expect(error.message).toMatch(
			/^Not sent again: an earlier try of this node sent this item's resume, which may have resumed the crew \(the service answered no answer \(ECONNRESET: /,
		);
		expect(error.description).toMatch(/Get Status/);
		expect(crew.service.count('resume')).toBe(1);
		expect(crew.service.runs).toHaveLength(2);
	});

	it('with Retry On Fail, a resumed run that fails: /resume is sent once, and the retry waits on that same run again', async () => {
		crew.service.configure({
			plan: () => ({
				humanInput: { taskId: 'research_task' },
				outcome: 'failure',
				error: 'LLM key invalid',
			}),
		});
		const kickoffId = await pausedCrew();
		const error = await runCrewNodeExpectingError({
			parameters: resume(kickoffId, true, 'ok', waiting),
			credentials: crew.credentials,
			retryOnFail: { maxTries: 2 },
		});
		expect(crew.service.count('resume')).toBe(1);
		expect(crew.service.runs).toHaveLength(2);
		const resumedRun = crew.service.runs[1];
		expect(error.message).toBe(
			`The crew failed (kickoff ID ${resumedRun.kickoffId}): LLM key invalid`,
		);
		// Both tries read the resumed run; the second started nothing.
		expect(
			new Set(
				crew.service.requests
					.filter((request) => request.route === 'status' && request.at >= resumedRun.createdAt)
					.map((request) => request.kickoffId),
			),
		).toEqual(new Set([resumedRun.kickoffId]));
	});

	it("Wait for the Resumed Run ends with the resumed run's result, naming both runs", async () => {
		const kickoffId = await pausedCrew();
		const { output } = await runCrewNode({
			parameters: resume(kickoffId, true, 'Looks good', waiting),
			credentials: crew.credentials,
		});
		const newId = crew.service.runs[1].kickoffId;
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			kickoff_id: newId,
			resumed_kickoff_id: kickoffId,
			state: 'completed',
			result: 'Crew finished: topic=AI (feedback: Looks good)',
		});
		expect(output[0].pairedItem).toEqual({ item: 0 });
		// Only the new run was read while waiting.
		const reads = crew.service.requests.filter(
			(request) => request.route === 'status' && request.at >= crew.service.runs[1].createdAt,
		);
		expect(reads.length).toBeGreaterThan(0);
		expect(new Set(reads.map((request) => request.kickoffId))).toEqual(new Set([newId]));
	});

	it('Wait for the Resumed Run after a rejection hands the run on paused again, at the task to answer', async () => {
		const kickoffId = await pausedCrew();
		const { output } = await runCrewNode({
			parameters: resume(kickoffId, false, 'More sources', waiting),
			credentials: crew.credentials,
		});
		expect(output[0].json).toMatchObject({
			kickoff_id: crew.service.runs[1].kickoffId,
			resumed_kickoff_id: kickoffId,
			state: 'paused',
		});
		expect(crew.service.runs[1].state).toBe('paused');
	});

	it("a resumed run that fails is the item's error, with its kickoff id; with Continue On Fail, an item in order", async () => {
		const { output } = await runCrewNode({
			parameters: (itemIndex: number) =>
				resume(itemIndex === 0 ? 'no-such-kickoff' : 'another-unknown', true, '', waiting),
			items: [{ json: {} }, { json: {} }],
			continueOnFail: true,
			credentials: crew.credentials,
		});
		const failedIds = crew.service.runs.map((run) => run.kickoffId);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json.error).toMatch(
			new RegExp(
				`^The crew failed \\(kickoff ID ${failedIds[0]}\\): No execution found with ID: no-such-kickoff`,
			),
		);
		expect(output[1].json.error).toContain(failedIds[1]);
		const error = await runCrewNodeExpectingError({
			parameters: resume('no-such-kickoff', true, '', waiting),
			credentials: crew.credentials,
		});
		expect(error.message).toContain(crew.service.runs[2].kickoffId);
	});

	it('a resume whose answer was lost is not sent again, with or without the wait', async () => {
		const kickoffId = await pausedCrew();
		for (const parameters of [
			resume(kickoffId, true, 'ok'),
			resume(kickoffId, true, 'ok', waiting),
		]) {
			crew.service.injectFault({ route: 'resume', kind: 'reset', afterProcessing: true });
			const error = await runCrewNodeExpectingError({ parameters, credentials: crew.credentials });
			expect(error.description).toMatch(/it was not sent again/);
		}
		expect(crew.service.count('resume', 'POST')).toBe(2);
	});

	it('the documented snake_case body alone would be refused: the live 422 names the fields', async () => {
		const response = await fetch(`${crew.service.url}/resume`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${crew.credentials.token}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({
				execution_id: 'k',
				task_id: 't',
				human_feedback: '',
				is_approve: true,
			}),
		});
		expect(response.status).toBe(422);
		const error = await runCrewNodeExpectingError({
			parameters: resume('k', true, '', { taskId: ' ' }),
			credentials: crew.credentials,
		});
		expect(error.message).toBe('Task ID is empty');
	});
});

describe('Resume, documented dialect, Wait for the Resumed Run', () => {
	beforeEach(() =>
		crew.service.configure({
			dialect: 'documented',
			durationMs: 300,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		}),
	);

	it('the service answers no new id: the resumed crew itself is waited on and completes', async () => {
		const kickoffId = await pausedCrew();
		const { output } = await runCrewNode({
			parameters: resume(kickoffId, true, 'Looks good', waiting),
			credentials: crew.credentials,
		});
		expect(output[0].json).toMatchObject({
			kickoff_id: kickoffId,
			resumed_kickoff_id: kickoffId,
			state: 'completed',
			result: 'Crew finished: topic=AI (feedback: Looks good)',
		});
		expect(crew.service.runs).toHaveLength(1);
	});
});
