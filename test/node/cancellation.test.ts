/**
 * Stopping an execution, the way n8n does it: cancelling the running
 * WorkflowExecute, which aborts the signal n8n-core hands the node
 * (getExecutionCancelSignal). Checked with both `sleep` APIs of n8n-workflow,
 * since the peer range lets either be loaded: up to 2.33 `sleep(ms)` ignores
 * any signal, later `sleep(ms, signal)` rejects when it fires.
 */
import { useCrewService } from '../helpers/crewService';
import { runCrewWorkflow } from '../helpers/crewWorkflow';

/** Which sleep the node gets, how often it slept, and a hook run as each sleep begins. */
const mockSleep = {
	api: 'new' as 'old' | 'new',
	calls: 0,
	onSleep: undefined as (() => void) | undefined,
};

jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	const oldSleep = async (ms: number) =>
		await new Promise<void>((resolve) => setTimeout(resolve, ms));
	return {
		__esModule: true,
		...actual,
		sleep: async (ms: number, signal?: AbortSignal) => {
			mockSleep.calls++;
			mockSleep.onSleep?.();
			return await (mockSleep.api === 'old' ? oldSleep(ms) : actual.sleep(ms, signal));
		},
	};
});

const crew = useCrewService();

/**
 * A poll interval long enough that a stop lands in the middle of a sleep: the
 * node must wake from it, not wait for the next status read to notice. Long
 * beside any delay of a loaded machine, so "woke before the sleep would have
 * ended" is about the node, never about the machine's speed.
 */
const POLL_INTERVAL_S = 60;
const waitLong = {
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options: { pollInterval: POLL_INTERVAL_S, timeout: 600 },
};

describe.each(['old', 'new'] as const)(
	"stopping the execution with n8n-workflow's %s sleep",
	(api) => {
		beforeEach(() => {
			mockSleep.api = api;
			mockSleep.calls = 0;
			mockSleep.onSleep = undefined;
		});

		it(
			'ends the wait in the middle of a sleep, naming the kickoff, and polls no more',
			async () => {
				crew.service.configure({ plan: () => ({ outcome: 'never' }) });
				const controller = new AbortController();
				let stoppedAt = 0;
				// The stop comes as the node falls asleep after the kickoff, before its first status read
				// (which a 60 s interval puts a minute away), never during a request.
				mockSleep.onSleep = () => {
					if (crew.service.runs.length < 1 || controller.signal.aborted) return;
					stoppedAt = Date.now();
					controller.abort();
				};
				const { run, error } = await runCrewWorkflow({
					parameters: waitLong,
					credentials: crew.credentials,
					cancelSignal: controller.signal,
				});
				expect(error?.message).toBe(
					`The execution was stopped while waiting for the crew (kickoff ID ${crew.service.runs[0].kickoffId})`,
				);
				// Woke from the sleep: it ended well before the poll interval it would have slept.
				expect(Date.now() - stoppedAt).toBeLessThan((POLL_INTERVAL_S * 1000) / 2);
				// Pinned as n8n-core has it: a node error after a stop makes the execution 'error', not 'canceled'
				// (processSuccessExecution says 'canceled' only for a message with "canceled" or a name with "Cancelled").
				expect(run.status).toBe('error');
				expect(mockSleep.calls).toBeGreaterThan(0);
				await new Promise((resolve) => setTimeout(resolve, 400));
				expect(crew.service.count('status')).toBe(0);
				// A node that slept the whole interval fails the assertion above rather than jest's timeout.
			},
			POLL_INTERVAL_S * 1000 + 30_000,
		);

		it('without a stop, waits the crew out through the same sleep', async () => {
			crew.service.configure({ durationMs: 300 });
			const { output, run } = await runCrewWorkflow({
				parameters: { ...waitLong, options: { pollInterval: 0.1, timeout: 30 } },
				credentials: crew.credentials,
			});
			expect(run.status).toBe('success');
			expect(output[0].json.state).toBe('completed');
			expect(mockSleep.calls).toBeGreaterThan(0);
		});
	},
);
