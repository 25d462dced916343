import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { REGISTRATION_WINDOW_MS } from '../../nodes/status/registrationWindow';
import { useCrewService } from '../helpers/crewService';
import { callCrewTool } from '../helpers/crewTool';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';

// The node against the reference service in its live dialect: what a real user's
// deployment answers today (docs/development/service-api.md, the "Live" facts).
const crew = useCrewService({ dialect: 'live' });

const waitFor = (inputsJson: string, options: object = {}) => ({
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson,
	options: { pollInterval: 0.1, timeout: 600, ...options },
});

/**
 * The service's clock moves `msPerRead` with each status read of any run, not with real
 * time: what a read sees depends only on how many reads came before, however slow the machine.
 */
function clockByReads(msPerRead: number) {
	crew.service.configure({ now: () => crew.service.count('status') * msPerRead });
}

afterEach(() => crew.service.configure({ now: Date.now, registrationLagReads: 0 }));

describe('Kickoff and Wait on the live service', () => {
	it('names the reason a failed crew gives in status', async () => {
		crew.service.configure({
			plan: () => ({
				outcome: 'failure',
				error: 'Task execution failed: invalid API key for SerperDevTool',
			}),
		});
		const error = await runCrewNodeExpectingError({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(error.message).toBe(
			`The crew failed (kickoff ID ${crew.service.runs[0].kickoffId}): Task execution failed: invalid API key for SerperDevTool`,
		);
	});

	it('gives a completed item its token usage', async () => {
		const { output } = await runCrewNode({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(output[0].json).toMatchObject({
			state: 'completed',
			result: 'Crew finished: topic=AI',
			usage: { total_tokens: 2580, prompt_tokens: 1920, completion_tokens: 660 },
		});
	});

	it('ends a crew that pauses for human input at the first NOT FOUND after running: paused, with the kickoff ID', async () => {
		// 250 ms per read (a read sees the clock with itself counted): reads 1-2 (250, 500 ms) see the run
		// running, read 3 (750 ms) is past the pause at the end of analysis_task (600 ms).
		clockByReads(250);
		crew.service.configure({
			durationMs: 900,
			plan: () => ({ humanInput: { taskId: 'analysis_task' } }),
		});
		const { output } = await runCrewNode({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		const [run] = crew.service.runs;
		expect(run.state).toBe('paused');
		expect(output[0].json).toMatchObject({
			kickoff_id: run.kickoffId,
			state: 'paused',
			task_id: null,
			response: { state: 'NOT FOUND' },
		});
		expect(output[0].json.next_step).toMatch(/human input.*Resume operation, kickoff ID/);
		// Ended by the read that first said NOT FOUND: no read after it.
		expect(run.statusRequests).toBe(3);
	});

	it('still completes after a few NOT FOUND reads right after the kickoff', async () => {
		crew.service.configure({ registrationLagReads: 3 });
		clockByReads(100);
		const { output } = await runCrewNode({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(output[0].json).toMatchObject({ state: 'completed', result: 'Crew finished: topic=AI' });
		expect(crew.service.runs[0].statusRequests).toBeGreaterThan(3);
	});

	it('ends a run the service never shows as not found, naming the kickoff ID, once the registration window has passed, not at the timeout', async () => {
		crew.service.configure({ registrationLagReads: 1_000 });
		const began = Date.now();
		const error = await runCrewNodeExpectingError({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		const [run] = crew.service.runs;
		expect(error.message).toBe(
			`The crew service knows no run with this kickoff ID at this Base URL (kickoff ID ${run.kickoffId})`,
		);
		expect(error.description).toContain(
			`It answered NOT FOUND ${run.statusRequests} times since the kickoff`,
		);
		// Read every 0.1 s at most: the reads inside the window, and the first one past it.
		expect(Date.now() - began).toBeGreaterThanOrEqual(REGISTRATION_WINDOW_MS);
		expect(run.statusRequests).toBeGreaterThan(1);
		expect(run.statusRequests).toBeLessThanOrEqual(REGISTRATION_WINDOW_MS / 100 + 1);
	});

	it('ends every other item of a batch normally when one crew pauses', async () => {
		clockByReads(100);
		crew.service.configure({
			plan: ({ inputs }) =>
				inputs.topic === 'human'
					? { durationMs: 3_000, humanInput: { taskId: 'research_task' } }
					: { durationMs: 2_000 },
		});
		const topics = ['a', 'human', 'c'];
		const { output } = await runCrewNode({
			parameters: (itemIndex) => waitFor(`{"topic": "${topics[itemIndex]}"}`),
			credentials: crew.credentials,
			items: items(3),
		});
		expect(output.map((item) => item.json.state)).toEqual(['completed', 'paused', 'completed']);
		expect(output.map((item) => item.json.result)).toEqual([
			'Crew finished: topic=a',
			null,
			'Crew finished: topic=c',
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
	});
});

describe('Get Status on the live service', () => {
	it('is a not-found error for an unknown kickoff ID, naming it and the Base URL to check', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: { operation: 'getStatus', kickoffId: 'no-such-kickoff' },
			credentials: crew.credentials,
		});
		expect(error.message).toBe(
			`Not found: the crew service at ${crew.service.url} knows no run with kickoff ID no-such-kickoff (it answered NOT FOUND)`,
		);
		expect(error.description).toMatch(/Check the kickoff ID .* Base URL/);
	});

	it("reads a running crew's progress and a completed one's usage", async () => {
		const kickoff = await runCrewNode({
			parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
			credentials: crew.credentials,
		});
		const kickoffId = kickoff.output[0].json.kickoff_id as string;
		crew.service.configure({ now: () => crew.service.runs[0].createdAt + 150 });
		const running = await runCrewNode({
			parameters: { operation: 'getStatus', kickoffId },
			credentials: crew.credentials,
		});
		expect(running.output[0].json).toMatchObject({
			state: 'running',
			progress: {
				unit: 'task',
				completed: 1,
				total: 3,
				current: 'analysis_task',
				current_agent: 'Data Analyst',
			},
		});
		expect(running.output[0].json).not.toHaveProperty('usage');
	});
});

describe('errors of the live service', () => {
	it('names the missing inputs of the live 422', async () => {
		crew.service.configure({ inputs: [{ name: 'topic' }, { name: 'audience' }] });
		const error = await runCrewNodeExpectingError({
			parameters: waitFor('{"topic": ""}'),
			credentials: crew.credentials,
		});
		expect(error.message).toBe(
			'The crew service answered 422 while starting the crew: missing inputs audience, topic',
		);
		expect(error.description).toBe(
			'Give values for: audience, topic. Get Inputs lists every input the crew expects.',
		);
	});
});

describe('the Crew tool on the live service', () => {
	const toolParameters = (inputsJson: string) =>
		({
			...waitFor(inputsJson),
			inputsJson: "={{ $fromAI('inputs', 'The crew inputs', 'json') }}",
		}) as INodeParameters;
	const answerOf = (answer: { answer?: string; error?: string }) => {
		if (answer.answer === undefined) throw new Error(`The tool call failed: ${answer.error}`);
		return (JSON.parse(answer.answer) as IDataObject[])[0];
	};

	it('keeps usage in the short answer, and tells a model what to do with a paused crew', async () => {
		const done = await callCrewTool(toolParameters(''), crew.credentials, [
			{ inputs: { topic: 'AI' } },
		]);
		expect(answerOf(done.answers[0])).toEqual({
			kickoff_id: crew.service.runs[0].kickoffId,
			state: 'completed',
			result: 'Crew finished: topic=AI',
			result_json: { inputs: { topic: 'AI' }, kickoffNumber: 1 },
			usage: { total_tokens: 2580, prompt_tokens: 1920, completion_tokens: 660 },
		});

		crew.service.reset();
		clockByReads(300);
		crew.service.configure({
			durationMs: 900,
			plan: () => ({ humanInput: { taskId: 'analysis_task' } }),
		});
		const paused = answerOf(
			(await callCrewTool(toolParameters(''), crew.credentials, [{ inputs: { topic: 'AI' } }]))
				.answers[0],
		);
		expect(paused).toMatchObject({
			kickoff_id: crew.service.runs[0].kickoffId,
			state: 'paused',
			result: null,
			next_step: expect.stringMatching(/Resume/),
		});
	});

	it('gives a model the reason of a failed crew from status', async () => {
		crew.service.configure({
			plan: () => ({
				outcome: 'failure',
				error: 'Task execution failed: rate limited by the LLM provider',
			}),
		});
		const { answers } = await callCrewTool(toolParameters(''), crew.credentials, [
			{ inputs: { topic: 'AI' } },
		]);
		expect(answers[0].error ?? answers[0].answer).toContain(
			'Task execution failed: rate limited by the LLM provider',
		);
	});
});
