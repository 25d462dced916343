/**
 * Stopping an execution, the way n8n does it: cancelling the running
 * WorkflowExecute, which aborts the signal n8n-core hands the node
 * (getExecutionCancelSignal). Checked with both `sleep` APIs of n8n-workflow,
 * since the peer range lets either be loaded: up to 2.33 `sleep(ms)` ignores
 * any signal, later `sleep(ms, signal)` rejects when it fires.
 */
import { useCrewService } from '../helpers/crewService';
import { runCrewWorkflow } from '../helpers/crewWorkflow';

const mockSleep = { api: 'new' as 'old' | 'new', calls: 0 };

jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	const oldSleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));
	return {
		__esModule: true,
		...actual,
		sleep: async (ms: number, signal?: AbortSignal) => {
			mockSleep.calls++;
			return await (mockSleep.api === 'old' ? oldSleep(ms) : actual.sleep(ms, signal));
		},
	};
});

const crew = useCrewService();

const waitLong = { operation: 'kickoffAndWait', inputsMode: 'json', inputsJson: '{"topic": "AI"}', options: { pollInterval: 0.1, timeout: 600 } };

describe.each(['old', 'new'] as const)('stopping the execution with n8n-workflow\'s %s sleep', (api) => {
	beforeEach(() => {
		mockSleep.api = api;
		mockSleep.calls = 0;
	});

	it('ends the wait soon, naming the kickoff, and polls no more', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		const controller = new AbortController();
		const started = Date.now();
		const running = runCrewWorkflow({ parameters: waitLong, credentials: crew.credentials, cancelSignal: controller.signal });
		while (crew.service.count('status') < 2) await new Promise((resolve) => setTimeout(resolve, 20));
		controller.abort();
		const { run, error } = await running;
		const statusReadsAtReturn = crew.service.count('status');
		// Pinned as n8n-core has it: a node error after a stop makes the execution 'error', not 'canceled'
		// (processSuccessExecution says 'canceled' only for a message with "canceled" or a name with "Cancelled").
		expect(run.status).toBe('error');
		expect(error?.message).toBe(`The execution was stopped while waiting for the crew (kickoff ID ${crew.service.runs[0].kickoffId})`);
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(mockSleep.calls).toBeGreaterThan(0);
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect(crew.service.count('status')).toBe(statusReadsAtReturn);
	});

	it('without a stop, waits the crew out through the same sleep', async () => {
		crew.service.configure({ durationMs: 400 });
		const { output, run } = await runCrewWorkflow({ parameters: waitLong, credentials: crew.credentials });
		expect(run.status).toBe('success');
		expect(output[0].json.state).toBe('completed');
		expect(mockSleep.calls).toBeGreaterThan(0);
	});
});
