/**
 * A deployment that registers runs 3 s after their kickoff (the reference service's
 * registrationDelayMs in its live dialect: status NOT FOUND until then), waited on at the
 * shortest Poll Interval the field offers, 0.1 s, on n8n's real engine. Polling, Wait By:
 * Callback and Resume's wait each give the run the registration window in time, however
 * often they read it; a batch parked by callback reads a crew not registered yet as still
 * running, not as paused for human input.
 */
import type { IDataObject } from 'n8n-workflow';

import { REGISTRATION_WINDOW_MS } from '../../nodes/status/registrationWindow';
import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode } from '../helpers/crewWorkflow';
import type { CrewRunOptions } from '../helpers/crewWorkflow';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { runUntilParked } from '../helpers/waitingExecution';

const LATE_MS = 3_000;
const crew = useCrewService({ dialect: 'live', registrationDelayMs: LATE_MS });
const receiver = useResumeReceiver({ holdCallsUntilParked: true });
beforeEach(() => crew.service.configure({ eventStream: { duplicate: false } }));
afterEach(() => crew.service.configure({ now: Date.now }));

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** The status reads of a run the service answered while it did not know it yet. */
const readsBeforeRegistered = (runIndex: number) => {
	const run = crew.service.runs[runIndex];
	return crew.service.requests.filter(
		(request) =>
			request.route === 'status' &&
			request.kickoffId === run.kickoffId &&
			request.at - run.createdAt < LATE_MS,
	).length;
};

/** Kickoff and Wait for item `c<index>`. */
const kickoffAndWait =
	(options: IDataObject, extra: IDataObject = {}) =>
	(itemIndex: number) => ({
		operation: 'kickoffAndWait',
		inputsMode: 'json',
		inputsJson: JSON.stringify({ topic: `c${itemIndex}` }),
		options: { pollInterval: 0.1, timeout: 60, ...options },
		...extra,
	});

/**
 * Parks the execution with the service's clock standing still and the crews' calls held, so
 * that no crew has ended, nor been registered, when it parks, however slow the machine; then
 * both go on together, from the moment it parked.
 */
async function parkBeforeAnyCrewMoves(options: CrewRunOptions) {
	const frozenAt = Date.now();
	let releasedAt: number | undefined;
	crew.service.configure({
		now: () => (releasedAt === undefined ? frozenAt : frozenAt + Date.now() - releasedAt),
	});
	crew.service.holdMoments();
	try {
		const execution = await runUntilParked({
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
			...options,
		});
		if (execution.error) throw execution.error;
		receiver.park(execution);
		return execution;
	} finally {
		releasedAt = Date.now();
		crew.service.releaseMoments();
	}
}

const runOf = (topic: string) => crew.service.runs.find((run) => run.inputs.topic === topic);

describe('runs the service registers 3 s late, read every 0.1 s', () => {
	it('Kickoff and Wait by polling completes a 2 s crew', async () => {
		crew.service.configure({ durationMs: 2_000 });
		const { output } = await runCrewNode({
			parameters: kickoffAndWait({}),
			credentials: crew.credentials,
		});
		const [run] = crew.service.runs;
		expect(output[0].json).toMatchObject({
			kickoff_id: run.kickoffId,
			state: 'completed',
			result: 'Crew finished: topic=c0',
		});
		// Far more NOT FOUND reads than the three a count used to tolerate: the window is time.
		expect(readsBeforeRegistered(0)).toBeGreaterThan(3);
		expect(LATE_MS).toBeLessThan(REGISTRATION_WINDOW_MS);
	});

	it('Wait By: Callback parks a crew the service does not know yet, and its call completes the execution', async () => {
		crew.service.configure({ durationMs: 4_500 });
		const execution = await runUntilParked({
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
			parameters: kickoffAndWait({ firstPhase: 1 }, { waitBy: 'callback' }),
			credentials: crew.credentials,
		});
		if (execution.error) throw execution.error;
		receiver.park(execution);
		expect(execution.waitTill).toBeDefined();
		// The first phase read it every 0.1 s for a second, all NOT FOUND.
		expect(readsBeforeRegistered(0)).toBeGreaterThan(3);
		const [resumed] = await receiver.untilResumed();
		expect(resumed.resumed?.output.map((item) => [item.json.kickoff_id, item.json.state])).toEqual([
			[crew.service.runs[0].kickoffId, 'completed'],
		]);
	});

	it('Resume with Wait for the Resumed Run completes the resumed run, a new kickoff ID the service registers late too', async () => {
		crew.service.configure({
			durationMs: 600,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const { output: started } = await runCrewNode({
			parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
			credentials: crew.credentials,
		});
		const kickoffId = started[0].json.kickoff_id as string;
		// It pauses at the end of research_task, a third into its 600 ms.
		while (crew.service.runs[0].state !== 'paused') await sleep(20);
		const { output } = await runCrewNode({
			parameters: {
				operation: 'resume',
				kickoffId,
				taskId: 'research_task',
				isApprove: true,
				humanFeedback: 'ok',
				waitForResumedRun: true,
				options: { pollInterval: 0.1, timeout: 60 },
			},
			credentials: crew.credentials,
		});
		const resumedRun = crew.service.runs[1];
		expect(output[0].json).toMatchObject({
			kickoff_id: resumedRun.kickoffId,
			resumed_kickoff_id: kickoffId,
			state: 'completed',
			result: 'Crew finished: topic=AI (feedback: ok)',
		});
		expect(readsBeforeRegistered(1)).toBeGreaterThan(3);
	});

	it('a batch parked by callback: a crew failing at once gives its failure, a crew not registered yet its completed result', async () => {
		// The first crew is known at once and fails 1.5 s in; the second is unknown for 3 s and completes at 4.5 s.
		crew.service.configure({
			plan: ({ inputs }) =>
				inputs.topic === 'c0'
					? {
							durationMs: 1_500,
							outcome: 'failure',
							error: 'LLM key invalid',
							registrationDelayMs: 0,
						}
					: { durationMs: 4_500 },
		});
		const execution = await parkBeforeAnyCrewMoves({
			parameters: kickoffAndWait({ firstPhase: 0.3 }, { waitBy: 'callback' }),
			credentials: crew.credentials,
			items: items(2),
			onError: 'continueRegularOutput',
		});
		const ids = ['c0', 'c1'].map((topic) => runOf(topic)?.kickoffId);
		// Both crews were still awaited when the execution parked.
		expect(execution.parked.map((item) => item.json.callback_token_sha256 !== undefined)).toEqual([
			true,
			true,
		]);
		const [resumed] = await receiver.untilResumed();
		// The failed crew's call read the other one while the service did not know it: still running, not paused.
		expect(receiver.calls.map((call) => [call.status, call.response?.answered.body])).toEqual([
			[
				200,
				{ received: true, resumed: false, reason: 'other crews of this batch are still running' },
			],
			[200, undefined],
		]);
		expect(
			resumed.resumed?.output.map((item) => [
				item.json.kickoff_id,
				item.json.error ?? item.json.state,
			]),
		).toEqual([
			[ids[0], `The crew failed (kickoff ID ${ids[0]}): LLM key invalid`],
			[ids[1], 'completed'],
		]);
	});
});
