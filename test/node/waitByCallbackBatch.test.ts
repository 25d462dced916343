/**
 * Kickoff and Wait, Wait By: Callback for many items, on n8n's real engine and the
 * reference crew service: the batch parks once and resumes once. The resume
 * receiver (test/helpers/resumeReceiver.ts) stands in for n8n's /webhook-waiting/
 * route: it hands every call the service makes to the node's webhook() as n8n does
 * (409 before the execution is parked and after it resumed, since n8n refuses
 * those), concurrently when calls arrive together.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode } from '../helpers/crewWorkflow';
import type { CrewRunOptions, OnError } from '../helpers/crewWorkflow';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { callResumeWebhook, resumeAtTimeout, runUntilParked } from '../helpers/waitingExecution';
import type { ParkedExecution } from '../helpers/waitingExecution';

const crew = useCrewService();

const receiver = useResumeReceiver();
beforeEach(() => crew.service.configure({ eventStream: { duplicate: false } }));
afterEach(() => crew.service.configure({ now: Date.now }));

interface CrewPlan {
	durationMs: number;
	outcome?: 'success' | 'failure' | 'never';
}

/** One item per plan; the item's topic tells the service which plan its crew follows. */
function batchOptions(plans: CrewPlan[], options: object = {}, onError?: OnError) {
	crew.service.configure({
		plan: ({ inputs }) => {
			const plan = plans[Number(inputs.topic.slice(1))];
			return {
				durationMs: plan.durationMs,
				outcome: plan.outcome ?? 'success',
				error: 'LLM key invalid',
			};
		},
	});
	const parameters = (itemIndex: number) => ({
		operation: 'kickoffAndWait',
		waitBy: 'callback',
		inputsMode: 'json',
		inputsJson: JSON.stringify({ topic: `c${itemIndex}` }),
		options: { pollInterval: 0.2, timeout: 60, firstPhase: 0.5, ...options },
	});
	return {
		parameters,
		credentials: crew.credentials,
		items: items(plans.length),
		onError,
	} satisfies CrewRunOptions;
}

async function park(options: CrewRunOptions & { webhookWaitingBaseUrl?: string }) {
	const execution = await runUntilParked({
		webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		...options,
	});
	if (execution.error) throw execution.error;
	receiver.park(execution);
	return execution;
}

/**
 * Parks a batch none of whose crews ends before the execution is parked, however slow the machine:
 * the service clock stands still and the crews' calls are held while the node kicks off, watches its
 * first phase and parks; then both start together, so each crew ends (status and call alike) its
 * planned duration after the park. Without this, a loaded machine could see crews end (and their
 * calls refused with 409) before the park, which is another test (the first-phase tests below).
 */
async function parkBeforeAnyCrewEnds(options: CrewRunOptions) {
	const frozenAt = Date.now();
	let releasedAt: number | undefined;
	crew.service.configure({
		now: () => (releasedAt === undefined ? frozenAt : frozenAt + Date.now() - releasedAt),
	});
	crew.service.holdMoments();
	try {
		return await park(options);
	} finally {
		releasedAt = Date.now();
		crew.service.releaseMoments();
	}
}

/** What Polling outputs for the same plans: the reference output, with its own kickoff ids swapped for the callback run's. */
async function pollingOutput(options: CrewRunOptions, kickoffIds: string[]) {
	const before = crew.service.runs.length;
	const polling = await runCrewNode({
		...options,
		parameters: (itemIndex: number) => ({
			...(options.parameters as (index: number) => IDataObject)(itemIndex),
			waitBy: 'polling',
		}),
	});
	const pollingIds = crew.service.runs.slice(before).map((run) => run.kickoffId);
	// Each crew's id appears in its record, its error message and its description: swap them all.
	let text = JSON.stringify(polling.outputs);
	for (const [index, id] of pollingIds.entries()) {
		const run = crew.service.runs[before + index];
		text = text.split(id).join(kickoffIds[Number(run.inputs.topic.slice(1))]);
	}
	return JSON.parse(text) as INodeExecutionData[][];
}

const kickoffIdsByItem = (count: number, from = 0) => {
	const ids: string[] = [];
	for (const run of crew.service.runs.slice(from, from + count))
		ids[Number(run.inputs.topic.slice(1))] = run.kickoffId;
	return ids;
};

const statusReads = (from = 0, count = crew.service.runs.length - from) =>
	crew.service.runs.slice(from, from + count).reduce((sum, run) => sum + run.statusRequests, 0);

describe('Kickoff and Wait, Wait By: Callback, many items', () => {
	it("parks a batch once, keeps waiting on every call but the last crew's, and resumes once with exactly Polling's output", async () => {
		const plans: CrewPlan[] = [
			{ durationMs: 2_400 },
			{ durationMs: 900 },
			{ durationMs: 1_800, outcome: 'failure' },
			{ durationMs: 1_500 },
			{ durationMs: 2_100 },
			{ durationMs: 1_200 },
		];
		const options = batchOptions(plans, {}, 'continueErrorOutput');
		const execution = await parkBeforeAnyCrewEnds(options);
		expect(execution.waitTill).toBeDefined();
		const ids = kickoffIdsByItem(6);
		// One waiting record per item while parked, in input order.
		expect(
			execution.output.map((item) => [
				item.json.kickoff_id,
				item.json.waiting_for,
				item.pairedItem,
			]),
		).toEqual(ids.map((id, item) => [id, 'callback', { item }]));
		// The parked items are the timeout items, each with its own kickoff id and no token.
		expect(execution.parked.map((item) => item.json.kickoff_id)).toEqual(ids);
		expect(execution.parked[0].json.error).toBe(
			`The 6 crews did not all end within 60 seconds; this crew's end was not seen (kickoff ID ${ids[0]})`,
		);

		const [resumed] = await receiver.untilResumed();
		expect(receiver.resumedBy).toHaveLength(1);
		// Every crew called once; only the last one's call resumed, the others were answered 200 and it kept waiting.
		expect(receiver.calls).toHaveLength(6);
		expect(
			receiver.calls.filter((call) => call.status === 200 && !call.response?.resumed),
		).toHaveLength(5);
		expect(resumed.result.webhookResponse).toEqual({ received: true });
		const lastCall = receiver.calls.find((call) => call.response === resumed);
		expect(JSON.stringify(lastCall?.body)).toContain(ids[0]);

		const reads = statusReads();
		const expected = await pollingOutput(options, ids);
		expect(resumed.resumed?.outputs).toEqual(expected);
		expect(resumed.resumed?.run.status).toBe('success');
		// The failed crew went to the error output, the others to the success output, each paired with its item.
		expect(expected[1].map((item) => item.pairedItem)).toEqual([{ item: 2 }]);
		expect(expected[0].map((item) => item.pairedItem)).toEqual(
			[0, 1, 3, 4, 5].map((item) => ({ item })),
		);
		console.log(
			`Batch of 6 by callback: ${reads} status reads, ${(reads / 6).toFixed(2)} per kickoff`,
		);
		expect(reads / 6).toBeLessThanOrEqual(3);
	});

	it("answers forged, duplicate, non-final and out-of-order calls without resuming, and the crews' own calls still complete the batch", async () => {
		crew.service.configure({ eventStream: { duplicate: true } });
		const plans: CrewPlan[] = [{ durationMs: 1_200 }, { durationMs: 2_000 }];
		const options = batchOptions(plans);
		const execution = await parkBeforeAnyCrewEnds(options);
		const ids = kickoffIdsByItem(2);
		// The first crew's call (sent twice: the service duplicates realtime events).
		await crew.service.waitForWebhooks(
			(deliveries) =>
				deliveries.filter((d) => d.kind === 'stream' && d.status !== null).length >= 2,
			10_000,
		);
		const first = receiver.calls[0];
		expect(receiver.calls.map((call) => call.status)).toEqual([200, 200]);
		expect(receiver.resumedBy).toHaveLength(0);
		const events = (first.body as { events: IDataObject[] }).events;
		const signature = { signature: execution.run.data.resumeToken ?? '' };
		const send = async (body: unknown, authorization?: string) =>
			await callResumeWebhook(execution, {
				body,
				headers: authorization ? { authorization } : {},
				query: signature,
			});
		const readsBefore = statusReads();
		// A wrong token, none, a call about the other crew with this crew's token, a non-final event.
		const forged = [
			await send(first.body, 'Bearer 0000'),
			await send(first.body),
			await send(
				{ events: events.map((event) => ({ ...event, execution_id: ids[1] })) },
				first.authorization,
			),
			await send(
				{ events: events.map((event) => ({ ...event, type: 'task_completed' })) },
				first.authorization,
			),
		];
		expect(forged.map(({ answered }) => answered.status ?? 200)).toEqual([401, 401, 409, 200]);
		expect(forged.every(({ result }) => result.workflowData === undefined)).toBe(true);
		expect(statusReads()).toBe(readsBefore);
		// A late repeat of the first crew's end: the other crew still runs, so it keeps waiting.
		const repeat = await send(first.body, first.authorization);
		expect([repeat.answered.status, repeat.result.workflowData]).toEqual([200, undefined]);

		const [resumed] = await receiver.untilResumed();
		expect(receiver.resumedBy).toHaveLength(1);
		expect(resumed.resumed?.outputs).toEqual(await pollingOutput(options, ids));
	});

	it('leaves no batch waiting when all its crews end within 50 ms, on one process or with a restart between calls', async () => {
		for (const restart of [false, true]) {
			receiver.reset();
			receiver.restartBetweenCalls = restart;
			const from = crew.service.runs.length;
			const plans: CrewPlan[] = Array.from({ length: 8 }, (_, index) => ({
				durationMs: 1_500 + index * 7,
			}));
			const options = batchOptions(plans);
			const execution = await parkBeforeAnyCrewEnds(options);
			expect(execution.waitTill).toBeDefined();
			const resumed = await receiver.untilResumed();
			// One process never resumes twice; n8n 2.x refuses a second resume across processes (ActiveExecutions.add).
			expect(resumed.length).toBe(restart ? resumed.length : 1);
			expect(resumed.length).toBeGreaterThanOrEqual(1);
			expect(resumed[0].resumed?.output.map((item) => item.json.state)).toEqual(
				Array(8).fill('completed'),
			);
			const reads = statusReads(from, 8);
			console.log(
				`8 crews ending within 49 ms${restart ? ', a restart between calls' : ''}: resumed by ${resumed.length} call(s), ${reads} status reads, ${(reads / 8).toFixed(2)} per kickoff`,
			);
		}
	});

	it('answers a batch whose crews all end in the first phase by polling, without parking', async () => {
		const plans: CrewPlan[] = [
			{ durationMs: 300 },
			{ durationMs: 600, outcome: 'failure' },
			{ durationMs: 450 },
		];
		const options = batchOptions(plans, { firstPhase: 5 }, 'continueRegularOutput');
		const execution = await park(options);
		expect(execution.waitTill).toBeUndefined();
		const ids = kickoffIdsByItem(3);
		const reads = statusReads();
		expect(crewOutputs(execution)).toEqual(await pollingOutput(options, ids));
		console.log(
			`3 crews ending in the first phase: ${reads} status reads, ${(reads / 3).toFixed(2)} per kickoff`,
		);
		expect(reads / 3).toBeLessThanOrEqual(3);
	});

	it('at the timeout gives the crews seen ending before parking their own outcome and every other item the timeout item with its kickoff id', async () => {
		// The first phase reads in item order and stops at a crew still running: it sees items 0 and 1 end.
		const plans: CrewPlan[] = [
			{ durationMs: 200 },
			{ durationMs: 300, outcome: 'failure' },
			{ durationMs: 1_000, outcome: 'never' },
			{ durationMs: 1_500 },
		];
		const options = batchOptions(plans, { firstPhase: 0.8, timeout: 30 }, 'continueRegularOutput');
		const execution = await park(options);
		const ids = kickoffIdsByItem(4);
		// The crew of 1.5 s calls; the one that never ends keeps the batch waiting.
		await crew.service.waitForWebhooks(
			(deliveries) =>
				deliveries.filter((d) => d.kind === 'stream' && d.status !== null).length >= 1,
			10_000,
		);
		expect(receiver.resumedBy).toHaveLength(0);
		const { output, run } = await resumeAtTimeout(execution);
		expect(run.status).toBe('success');
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(output[0].json).toMatchObject({
			kickoff_id: ids[0],
			state: 'completed',
			result: 'Crew finished: topic=c0',
		});
		// n8n keeps only the message of an item that carries an error (its kickoff id is in it), as for one crew's timeout.
		expect(output[1].json).toEqual({
			error: `The crew failed (kickoff ID ${ids[1]}): LLM key invalid`,
		});
		for (const itemIndex of [2, 3]) {
			expect(output[itemIndex].json).toEqual({
				error: `The 2 crews did not all end within 30 seconds; this crew's end was not seen (kickoff ID ${ids[itemIndex]})`,
			});
		}
		// The parked items, what n8n saved, carry the whole advice.
		expect(execution.parked[3].json.description).toContain(
			`Get Status operation and kickoff ID ${ids[3]}`,
		);
	});

	it('starts, parks and resumes 500 items in one execution', async () => {
		// Ends spread over 4 s, ten crews at a time in the same millisecond.
		const plans: CrewPlan[] = Array.from({ length: 500 }, (_, index) => ({
			durationMs: 3_000 + (index % 50) * 80,
		}));
		const options = batchOptions(plans, { firstPhase: 1, maxConcurrentKickoffs: 50 });
		const execution = await parkBeforeAnyCrewEnds(options);
		expect(execution.waitTill).toBeDefined();
		const ids = kickoffIdsByItem(500);
		// A hang guard only: on a loaded machine n8n's engine takes minutes over 500 calls.
		const [resumed] = await receiver.untilResumed(300_000);
		expect(receiver.resumedBy).toHaveLength(1);
		const output = resumed.resumed?.output ?? [];
		expect(output.map((item) => [item.json.kickoff_id, item.json.state, item.pairedItem])).toEqual(
			ids.map((id, item) => [id, 'completed', { item }]),
		);
		const reads = statusReads();
		console.log(
			`500 crews by callback: ${receiver.calls.length} calls, ${reads} status reads, ${(reads / 500).toFixed(2)} per kickoff`,
		);
		expect(reads / 500).toBeLessThanOrEqual(3);
	}, 420_000);
});

function crewOutputs(execution: ParkedExecution): INodeExecutionData[][] {
	return (execution.run.data.resultData.runData.Crew?.[0]?.data?.main ?? []).map(
		(output) => output ?? [],
	);
}
