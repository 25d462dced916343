/**
 * Kickoff and Wait, Wait By: Callback, and stopping its crews: while the node watches
 * them (the first phase) it stops them as polling does; once the execution waits,
 * n8n runs no node code at the timeout or at a cancel, and the items say how to stop them.
 */
import { PARKED_TIMEOUT_STOP_ADVICE } from '../../nodes/waiting/waitByCallback';
import { useCrewService } from '../helpers/crewService';
import { resumeAtTimeout, runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService();
beforeEach(() => crew.service.configure({ stopRoute: true, plan: () => ({ outcome: 'never' }) }));

// Nothing calls it: a crew that never ends sends no end event.
const WEBHOOK_WAITING = 'http://127.0.0.1:9/webhook-waiting';

const byCallback = (options: object) => ({
	operation: 'kickoffAndWait',
	waitBy: 'callback',
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options: { pollInterval: 0.1, ...options },
});

describe('Wait By: Callback, On Timeout: Stop Crews Still Running', () => {
	it('a timeout reached while the node still watches the crews stops them, as polling does', async () => {
		const execution = await runUntilParked({
			parameters: byCallback({ timeout: 1, firstPhase: 5, onTimeout: 'stopCrews' }),
			credentials: crew.credentials,
			webhookWaitingBaseUrl: WEBHOOK_WAITING,
			continueOnFail: true,
			typeVersion: 1.3,
		});
		const [run] = crew.service.runs;
		expect(execution.waitTill).toBeUndefined();
		expect(execution.output[0].json.error).toBe(
			`The crew did not finish within 1 seconds and was stopped (kickoff ID ${run.kickoffId}); it was last running`,
		);
		expect(crew.service.count('stop')).toBe(1);
		expect(run.state).toBe('revoked');
	});

	it('once parked, n8n runs no node code at the timeout: nothing is stopped, and the item says how to stop the crew', async () => {
		const execution = await runUntilParked({
			parameters: byCallback({ timeout: 60, firstPhase: 0.2, onTimeout: 'stopCrews' }),
			credentials: crew.credentials,
			webhookWaitingBaseUrl: WEBHOOK_WAITING,
			typeVersion: 1.3,
		});
		const [run] = crew.service.runs;
		expect(execution.waitTill).toBeDefined();
		expect(execution.parked[0].json).toMatchObject({
			kickoff_id: run.kickoffId,
			description: expect.stringContaining(PARKED_TIMEOUT_STOP_ADVICE),
		});
		const resumed = await resumeAtTimeout(execution);
		// n8n passes the parked item through: only the message stays in json, the advice is in the item's error.
		expect(resumed.output[0].json).toEqual({
			error: `The crew did not call back within 60 seconds (kickoff ID ${run.kickoffId})`,
		});
		expect(resumed.output[0].error?.description).toContain(PARKED_TIMEOUT_STOP_ADVICE);
		expect(crew.service.count('stop')).toBe(0);
		expect(run.state).toBe('running');
	});

	it('leaves the parked items as they were without the option', async () => {
		const execution = await runUntilParked({
			parameters: byCallback({ timeout: 60, firstPhase: 0.2 }),
			credentials: crew.credentials,
			webhookWaitingBaseUrl: WEBHOOK_WAITING,
			typeVersion: 1.3,
		});
		expect(execution.parked[0].json.description).not.toContain(PARKED_TIMEOUT_STOP_ADVICE);
	});
});

describe('Wait By: Callback, the execution cancelled while the node watches the crews', () => {
	it('stops them at node version 1.3', async () => {
		const controller = new AbortController();
		const watcher = setInterval(() => {
			if (crew.service.runs.length >= 2) controller.abort();
		}, 5);
		try {
			await runUntilParked({
				parameters: byCallback({ pollInterval: 60, timeout: 600, firstPhase: 300 }),
				credentials: crew.credentials,
				webhookWaitingBaseUrl: WEBHOOK_WAITING,
				items: [{ json: {} }, { json: {} }],
				cancelSignal: controller.signal,
				typeVersion: 1.3,
			});
		} finally {
			clearInterval(watcher);
		}
		expect(crew.service.runs.map((run) => run.state)).toEqual(['revoked', 'revoked']);
		expect(crew.service.count('stop')).toBe(2);
	});
});
