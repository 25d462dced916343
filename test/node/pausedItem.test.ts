/**
 * The paused item says what the person judges, whatever way the pause reached the node: Kickoff
 * and Wait by polling (the service's paused record, or live its NOT FOUND) and Wait By: Callback
 * (the live human-input call), on n8n's real engine against the reference service. Resume's wait
 * gives the same fields (resumeByCallback.test.ts); the Crew Trigger's item reads the call the
 * same way (records/pausedTask.ts).
 */
import { useCrewService } from '../helpers/crewService';
import { runCrewNode } from '../helpers/crewWorkflow';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService();
const receiver = useResumeReceiver({ holdCallsUntilParked: true });
afterEach(() => crew.service.configure({ now: Date.now }));

const TASK_FIELDS = ['task_id', 'task_output', 'task_name', 'task_description'];
const kickoffAndWait = (waitBy: 'polling' | 'callback') => ({
	operation: 'kickoffAndWait',
	waitBy,
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options: { pollInterval: 0.05, timeout: 30, firstPhase: 0.3 },
});

describe('the paused item', () => {
	it("by polling, the service's own paused record: the task it names and its output, as sent", async () => {
		crew.service.configure({
			recordShape: 'wild',
			plan: () => ({ humanInput: { taskId: 'analysis_task' } }),
		});
		const { output } = await runCrewNode({
			parameters: kickoffAndWait('polling'),
			credentials: crew.credentials,
		});
		expect(output[0].json).toMatchObject({
			state: 'paused',
			kickoff_id: crew.service.runs[0].kickoffId,
			task_id: 'analysis_task',
			task_output: 'Analysis of topic=AI',
			task_name: null,
			task_description: null,
		});
	});

	it('by polling, live: a NOT FOUND tells nothing of the task, so every task field is there and null', async () => {
		// Live, NOT FOUND is a pause only once the run was seen: the clock moves 60 ms a status read.
		crew.service.configure({
			dialect: 'live',
			now: () => crew.service.count('status') * 60,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
		});
		const { output } = await runCrewNode({
			parameters: kickoffAndWait('polling'),
			credentials: crew.credentials,
		});
		expect(output[0].json).toMatchObject({
			state: 'paused',
			task_id: null,
			task_output: null,
			task_name: null,
			task_description: null,
		});
	});

	it("Wait By: Callback, live: the human-input call's task ID and output", async () => {
		let parked = false;
		crew.service.configure({
			dialect: 'live',
			durationMs: 1_500,
			plan: () => ({ humanInput: { taskId: 'research_task' } }),
			now: () =>
				parked || !crew.service.runs[0] ? Date.now() : crew.service.runs[0].createdAt + 100,
		});
		const execution = await runUntilParked({
			parameters: kickoffAndWait('callback'),
			credentials: crew.credentials,
			typeVersion: 1.5,
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		});
		parked = true;
		receiver.park(execution);
		const [resumed] = await receiver.untilResumed();
		const call = receiver.calls[0].body as { task_id: string };
		const [item] = resumed.resumed?.output ?? [];
		expect(item.json).toMatchObject({
			state: 'paused',
			task_id: call.task_id,
			task_output: 'Research notes for topic=AI',
			task_name: null,
			task_description: null,
		});
		expect(Object.keys(item.json).filter((key) => key.startsWith('task_'))).toEqual(TASK_FIELDS);
	});
});
