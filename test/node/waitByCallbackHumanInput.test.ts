/**
 * Kickoff and Wait, Wait By: Callback, on the reference service in its live dialect,
 * with crews that pause for human input after the execution parked. Live, a paused
 * crew sends no stream event and its status reads NOT FOUND; what it sends is the
 * human-input call to the kickoff's `humanInputWebhookUrl`, with no Authorization.
 * The resume receiver stands in for n8n's /webhook-waiting/ route and hands
 * each call to the node's webhook(); a call that comes before the execution is
 * parked is held until it is, so every call here is one made after parking,
 * however slow the machine (that a call before parking is lost is n8n's 409).
 */
import { useCrewService } from '../helpers/crewService';
import { items } from '../helpers/crewWorkflow';
import type { CrewRunOptions } from '../helpers/crewWorkflow';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { callResumeWebhook, runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService({ dialect: 'live' });

const receiver = useResumeReceiver({ holdCallsUntilParked: true });
beforeEach(() => crew.service.configure({ eventStream: { duplicate: false } }));
afterEach(() => crew.service.configure({ now: Date.now }));

interface CrewPlan {
	durationMs: number;
	/** Pauses at the end of analysis_task, two thirds into its duration. */
	pauses?: boolean;
	outcome?: 'success' | 'never';
}

/**
 * One item per plan. Until the execution parks, the service's clock stands 100 ms after
 * each run's kickoff, so the first phase sees every crew running however long it takes;
 * then the clock is real time again, the time the service's calls are made in.
 */
function batchOptions(plans: CrewPlan[], options: object = {}) {
	let phase: 'first' | 'parked' = 'first';
	crew.service.configure({
		plan: ({ inputs }) => {
			const plan = plans[Number(inputs.topic.slice(1))];
			return {
				durationMs: plan.durationMs,
				outcome: plan.outcome ?? 'success',
				humanInput: plan.pauses ? { taskId: 'analysis_task' } : null,
			};
		},
		now: () => {
			const latest = crew.service.runs.at(-1);
			return phase === 'first' && latest ? latest.createdAt + 100 : Date.now();
		},
	});
	const parameters = (itemIndex: number) => ({
		operation: 'kickoffAndWait',
		waitBy: 'callback',
		inputsMode: 'json',
		inputsJson: JSON.stringify({ topic: `c${itemIndex}` }),
		options: { pollInterval: 0.1, timeout: 60, firstPhase: 0.3, ...options },
	});
	const run: CrewRunOptions = {
		parameters,
		credentials: crew.credentials,
		items: items(plans.length),
	};
	return { run, releaseClock: () => void (phase = 'parked') };
}

async function park(plans: CrewPlan[], options: object = {}) {
	const { run, releaseClock } = batchOptions(plans, options);
	const execution = await runUntilParked({
		webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		...run,
	});
	if (execution.error) throw execution.error;
	expect(execution.waitTill).toBeDefined();
	// The clock first: the held calls then read the crews in real time.
	releaseClock();
	receiver.park(execution);
	return execution;
}

const kickoffIdsByItem = () => {
	const ids: string[] = [];
	for (const run of crew.service.runs) ids[Number(run.inputs.topic.slice(1))] = run.kickoffId;
	return ids;
};

const humanInputCalls = () =>
	crew.service.webhookDeliveries.filter((delivery) => delivery.kind === 'humanInput');
const statusReads = () => crew.service.runs.reduce((sum, run) => sum + run.statusRequests, 0);

describe('Wait By: Callback, a crew that pauses for human input after parking (live)', () => {
	it("hands the service the resume URL as humanInputWebhookUrl; the human-input call resumes the execution with the item paused and the call's task ID", async () => {
		const execution = await park([{ durationMs: 1_500, pauses: true }]);
		const [run] = crew.service.runs;
		const resumeUrl = `${receiver.webhookWaitingBaseUrl}/${execution.executionId}?signature=${execution.run.data.resumeToken}`;
		expect(run.callbacks.humanInput).toEqual({ url: resumeUrl, auth: null });

		const [resumed] = await receiver.untilResumed();
		expect(receiver.resumedBy).toHaveLength(1);
		// The only call was the human-input one, without Authorization; it is what resumed the execution.
		expect(receiver.calls).toHaveLength(1);
		expect(receiver.calls[0].authorization).toBeUndefined();
		const call = receiver.calls[0].body as { task_id: string; kickoff_id: string };
		expect(call.kickoff_id).toBe(run.kickoffId);
		expect(call.task_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
		expect(humanInputCalls()).toHaveLength(1);
		expect(humanInputCalls()[0].auth).toBeUndefined();

		const output = resumed.resumed?.output ?? [];
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json).toMatchObject({
			kickoff_id: run.kickoffId,
			state: 'paused',
			task_id: call.task_id,
			result: null,
			response: { state: 'NOT FOUND' },
		});
		expect(output[0].json.next_step).toContain(
			`kickoff ID ${run.kickoffId} and task ID ${call.task_id}`,
		);
		expect(resumed.resumed?.run.status).toBe('success');
		// Resumed by the call, long before the 60 s timeout.
		expect(Date.now()).toBeLessThan((execution.waitTill as Date).getTime());
	});

	it('a batch of 3: the crews that complete give their records, the one that pauses last is paused with its task ID, and the batch resumes once', async () => {
		const plans: CrewPlan[] = [
			{ durationMs: 1_500 },
			{ durationMs: 6_000, pauses: true },
			{ durationMs: 2_000 },
		];
		const parked = await park(plans);
		const ids = kickoffIdsByItem();
		const [resumed] = await receiver.untilResumed();
		expect(receiver.resumedBy).toHaveLength(1);
		// Two crews' end calls (with their tokens) kept it waiting; the human-input call resumed it.
		expect(receiver.calls).toHaveLength(3);
		expect(
			receiver.calls
				.filter((call) => call.authorization !== undefined)
				.map((call) => [call.status, call.response?.resumed]),
		).toEqual([
			[200, undefined],
			[200, undefined],
		]);
		const taskId = (humanInputCalls()[0].payload as { task_id: string }).task_id;
		const output = resumed.resumed?.output ?? [];
		expect(
			output.map((item) => [
				item.json.kickoff_id,
				item.json.state,
				item.json.result,
				item.pairedItem,
			]),
		).toEqual([
			[ids[0], 'completed', 'Crew finished: topic=c0', { item: 0 }],
			[ids[1], 'paused', null, { item: 1 }],
			[ids[2], 'completed', 'Crew finished: topic=c2', { item: 2 }],
		]);
		expect(output[1].json.task_id).toBe(taskId);
		// A late human-input call after the resume changes nothing: the batch is already resumed.
		const late = await callResumeWebhook(parked, {
			body: humanInputCalls()[0].payload,
			headers: {},
			query: { signature: parked.run.data.resumeToken ?? '' },
		});
		expect(late.result.workflowData).toBeUndefined();
		expect(late.answered).toEqual({
			status: 200,
			body: { received: true, resumed: false, reason: 'the batch is already being resumed' },
		});
	});

	it('refuses a forged human-input call (an unknown kickoff ID, no signature) and one about a crew the service reads as running, resuming nothing', async () => {
		const plans: CrewPlan[] = [{ durationMs: 1_000 }, { durationMs: 60_000, outcome: 'never' }];
		const execution = await park(plans);
		const ids = kickoffIdsByItem();
		const signature = { signature: execution.run.data.resumeToken ?? '' };
		const humanInput = (kickoffId: string) => ({
			kickoff_id: kickoffId,
			execution_id: kickoffId,
			task_id: '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f',
			task_output: 'x',
			meta: null,
		});
		const readsBefore = statusReads();
		const unknown = await callResumeWebhook(execution, {
			body: humanInput('no-such-kickoff'),
			headers: {},
			query: signature,
		});
		expect(unknown.answered).toEqual({
			status: 401,
			body: { error: 'the call names no crew this execution waits for' },
		});
		const unsigned = await callResumeWebhook(execution, {
			body: humanInput(ids[1]),
			headers: {},
			query: {},
		});
		expect(unsigned.answered.status).toBe(401);
		// Not a human-input call and no token: as any forged call.
		const bare = await callResumeWebhook(execution, {
			body: { kickoff_id: ids[1] },
			headers: {},
			query: signature,
		});
		expect(bare.answered).toEqual({ status: 401, body: { error: 'invalid callback token' } });
		expect(statusReads()).toBe(readsBefore);

		// Names an awaited crew, but the service, read after the call, says it runs: a hint, not the pause.
		const running = await callResumeWebhook(execution, {
			body: humanInput(ids[1]),
			headers: {},
			query: signature,
		});
		expect(running.answered).toEqual({
			status: 202,
			body: {
				received: true,
				resumed: false,
				reason: 'the crew service does not report the crew as paused',
			},
		});
		expect(
			[unknown, unsigned, bare, running].every(({ result }) => result.workflowData === undefined),
		).toBe(true);
		// The first crew's own end keeps it waiting on the crew that never ends.
		await crew.service.waitForWebhooks(
			(deliveries) => deliveries.some((d) => d.kind === 'stream' && d.status !== null),
			10_000,
		);
		expect(receiver.resumedBy).toHaveLength(0);
		expect(receiver.calls.map((call) => call.status)).toEqual([200]);
	});

	it('leaves a Human Input Webhook URL the user set in place: the service calls it, not the resume URL', async () => {
		const triggerUrl = `${receiver.base}/webhook/crew-trigger`;
		const execution = await park([{ durationMs: 1_200 }], { humanInputWebhookUrl: triggerUrl });
		expect(crew.service.runs[0].callbacks.humanInput).toEqual({ url: triggerUrl, auth: null });
		// The crew completes and its stream call resumes the execution as before.
		const [resumed] = await receiver.untilResumed();
		expect(resumed.resumed?.output.map((item) => item.json.state)).toEqual(['completed']);
		expect(execution.waitTill).toBeDefined();
	});
});
