import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';

const crew = useCrewService();

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
	taskId = 'research_task',
) => ({
	operation: 'resume',
	kickoffId,
	taskId,
	isApprove,
	humanFeedback,
	options: { crewWebhookUrl: 'http://127.0.0.1:9/crew-after-resume' },
});

async function statusOf(kickoffId: string) {
	const { output } = await runCrewNode({
		parameters: { operation: 'getStatus', kickoffId },
		credentials: crew.credentials,
	});
	return output[0].json;
}

/** Reads the status until it is no longer running (the resumed part of the run lasts a few hundred ms). */
async function settledStatusOf(kickoffId: string) {
	for (let read = 0; read < 200; read++) {
		const status = await statusOf(kickoffId);
		if (status.state !== 'running' && status.state !== 'pending') return status;
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	throw new Error('the crew did not settle');
}

describe('a crew paused for human input', () => {
	beforeEach(() =>
		crew.service.configure({
			durationMs: 300,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		}),
	);

	it.each(['contract', 'wild'] as const)(
		'Kickoff and Wait hands it on as paused, with the task it waits on (%s shape)',
		async (recordShape) => {
			crew.service.configure({ recordShape });
			const { output } = await runCrewNode({
				parameters: kickoffAndWait,
				credentials: crew.credentials,
			});
			expect(output[0].json).toMatchObject({
				state: 'paused',
				task_id: 'research_task',
				kickoff_id: crew.service.runs[0].kickoffId,
			});
		},
	);

	it("approve: Resume sends the service's fields once, and the crew completes with the feedback", async () => {
		const { output } = await runCrewNode({
			parameters: kickoffAndWait,
			credentials: crew.credentials,
		});
		const kickoffId = output[0].json.kickoff_id as string;
		const { output: resumed } = await runCrewNode({
			parameters: resume(kickoffId, true, 'Looks good'),
			credentials: crew.credentials,
		});
		// The documented answer names no new run: the run to follow is the one resumed.
		expect(resumed[0].json).toEqual({
			status: 'resumed',
			message: 'Execution resumed successfully',
			kickoff_id: kickoffId,
			resumed_kickoff_id: kickoffId,
		});
		expect(crew.service.requests.find((request) => request.route === 'resume')?.body).toEqual({
			executionId: kickoffId,
			execution_id: kickoffId,
			taskId: 'research_task',
			task_id: 'research_task',
			humanFeedback: 'Looks good',
			human_feedback: 'Looks good',
			isApprove: true,
			is_approve: true,
			crewWebhookUrl: 'http://127.0.0.1:9/crew-after-resume',
		});
		expect(await settledStatusOf(kickoffId)).toMatchObject({
			state: 'completed',
			result: 'Crew finished: topic=AI (feedback: Looks good)',
		});
		expect(crew.service.count('resume', 'POST')).toBe(1);
	});

	it('reject: the task is redone and the crew pauses again, then an approval completes it', async () => {
		const { output } = await runCrewNode({
			parameters: kickoffAndWait,
			credentials: crew.credentials,
		});
		const kickoffId = output[0].json.kickoff_id as string;
		const { output: retrying } = await runCrewNode({
			parameters: resume(kickoffId, false, 'More sources'),
			credentials: crew.credentials,
		});
		expect(retrying[0].json.status).toBe('retrying');
		expect(await settledStatusOf(kickoffId)).toMatchObject({
			state: 'paused',
			task_id: 'research_task',
		});
		await runCrewNode({
			parameters: resume(kickoffId, true, 'Good now'),
			credentials: crew.credentials,
		});
		expect(await settledStatusOf(kickoffId)).toMatchObject({ state: 'completed' });
		expect(crew.service.runs[0].resumes.map((entry) => entry.approved)).toEqual([false, true]);
	});

	it('a crew that is not paused: a 409 saying only paused crews can be resumed', async () => {
		crew.service.configure({ plan: () => ({ durationMs: 60_000 }) });
		const { output } = await runCrewNode({
			parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
			credentials: crew.credentials,
		});
		const error = await runCrewNodeExpectingError({
			parameters: resume(output[0].json.kickoff_id as string, true, ''),
			credentials: crew.credentials,
		});
		expect(error.httpCode).toBe('409');
		expect(error.description).toMatch(/Only a crew paused for human input can be resumed/);
	});

	it('the wrong task: a 400, and an unknown kickoff: a 404 naming it', async () => {
		const { output } = await runCrewNode({
			parameters: kickoffAndWait,
			credentials: crew.credentials,
		});
		const wrongTask = await runCrewNodeExpectingError({
			parameters: resume(output[0].json.kickoff_id as string, true, '', 'report_task'),
			credentials: crew.credentials,
		});
		expect(wrongTask.httpCode).toBe('400');
		const unknown = await runCrewNodeExpectingError({
			parameters: resume('no-such-kickoff', true, ''),
			credentials: crew.credentials,
		});
		expect(unknown.httpCode).toBe('404');
		expect(unknown.message).toContain('kickoff ID no-such-kickoff');
	});

	it('a resume whose answer was lost is not sent again, and the error says how to check', async () => {
		const { output } = await runCrewNode({
			parameters: kickoffAndWait,
			credentials: crew.credentials,
		});
		crew.service.injectFault({ route: 'resume', kind: 'reset', afterProcessing: true });
		const error = await runCrewNodeExpectingError({
			parameters: resume(output[0].json.kickoff_id as string, true, 'ok'),
			credentials: crew.credentials,
		});
		expect(error.description).toMatch(/may or may not have been resumed; it was not sent again/);
		expect(crew.service.count('resume', 'POST')).toBe(1);
	});

	it('an empty Task ID is refused without a request', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: resume('k', true, '', ' '),
			credentials: crew.credentials,
		});
		expect(error.message).toBe('Task ID is empty');
		expect(crew.service.requests).toHaveLength(0);
	});
});
