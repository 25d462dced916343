import type { CrewStatus } from '../../../nodes/status/crewStatus';
import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { watchFirstPhase } from '../../../nodes/waiting/firstPhase';
import {
	judgeNotFound,
	NOTHING_READ,
	pausedFromNotFound,
	rememberRead,
	pauseOfHumanInputCall,
} from '../../../nodes/status/notFound';
import { REGISTRATION_WINDOW_MS } from '../../../nodes/status/registrationWindow';
import { createPollPolicy } from '../../../nodes/waiting/pollPolicy';
import { waitForCompletion } from '../../../nodes/waiting/waitForCompletion';
import type {
	RunningKickoff,
	StatusReading,
	WaitDependencies,
} from '../../../nodes/waiting/waitForCompletion';

const NOT_FOUND = { state: 'NOT FOUND' };
const status = (record: object, kickoffId = 'k0') => readCrewStatus(kickoffId, record);

const TASK = '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f';
/** A live human-input call's task, as parkedBatch.ts reads it. */
const CALL = {
	task_id: TASK,
	task_output: 'Research notes for topic=AI',
	task_name: null,
	task_description: null,
};

describe('what a NOT FOUND read means', () => {
	/** The verdicts on a run never seen that reads NOT FOUND every `intervalMs` after its kickoff, up to the window's end. */
	const verdictsEvery = (intervalMs: number) => {
		let memory = NOTHING_READ;
		const verdicts: string[] = [];
		for (let at = intervalMs; at <= REGISTRATION_WINDOW_MS; at += intervalMs) {
			memory = rememberRead(memory, status(NOT_FOUND));
			verdicts.push(judgeNotFound(memory, at));
		}
		return verdicts;
	};

	it('tolerates NOT FOUND for the registration window after the kickoff, then says the service knows no such run', () => {
		// The default 2 s Poll Interval: the reads at 2, 4 and 6 s wait, the read at 8 s ends the item, as ever.
		expect(verdictsEvery(2_000)).toEqual(['tolerate', 'tolerate', 'tolerate', 'unknownRun']);
		expect(judgeNotFound({ seen: false, notFoundReads: 1 }, REGISTRATION_WINDOW_MS - 1)).toBe(
			'tolerate',
		);
	});

	it("gives a run the same time however often it is read: at 0.1 s, 79 reads wait and the one at the window's end ends it", () => {
		const verdicts = verdictsEvery(100);
		expect(verdicts).toEqual([
			...Array(REGISTRATION_WINDOW_MS / 100 - 1).fill('tolerate'),
			'unknownRun',
		]);
		expect(verdicts).toHaveLength(80);
	});

	it('reads NOT FOUND after the run was seen as a pause for human input, at once, however young the run', () => {
		const seen = rememberRead(
			rememberRead(NOTHING_READ, status(NOT_FOUND)),
			status({ state: 'RUNNING' }),
		);
		expect(judgeNotFound(rememberRead(seen, status(NOT_FOUND)), 300)).toBe('paused');
		expect(judgeNotFound(rememberRead(seen, status(NOT_FOUND)), REGISTRATION_WINDOW_MS * 10)).toBe(
			'paused',
		);
	});

	it('gives the paused record: state paused, the kickoff ID, the task when known, what to do', () => {
		const paused = pausedFromNotFound(status(NOT_FOUND, 'k-9'));
		expect(paused).toMatchObject({
			kickoff_id: 'k-9',
			state: 'paused',
			task_id: null,
			result: null,
			error: null,
			response: NOT_FOUND,
		});
		expect(paused.next_step).toMatch(/Resume operation, kickoff ID k-9.*dashboard/);
		expect(
			pausedFromNotFound(status(NOT_FOUND, 'k-9'), { task_id: 'uuid-task' }).next_step,
		).toContain('task ID uuid-task');
	});
});

/** Simulated time: sleeping moves the clock. A crew's records follow its script, one per read. */
function scriptedWorld(scripts: Record<string, object[]>) {
	let clock = 0;
	const reads: Record<string, number> = {};
	const shown: Array<{ kickoffId: string; state: string }> = [];
	const dependencies: WaitDependencies = {
		now: () => clock,
		sleep: async (ms: number) => {
			clock += ms;
		},
		isCancelled: () => false,
		maxConcurrentReads: 20,
		readStatus: async (kickoff: RunningKickoff): Promise<StatusReading> => {
			const script = scripts[kickoff.kickoffId];
			const index = Math.min(reads[kickoff.kickoffId] ?? 0, script.length - 1);
			reads[kickoff.kickoffId] = (reads[kickoff.kickoffId] ?? 0) + 1;
			return { kind: 'status', status: status(script[index], kickoff.kickoffId) };
		},
		onStatus: async (kickoff, crewStatus: CrewStatus) =>
			void shown.push({ kickoffId: kickoff.kickoffId, state: crewStatus.state }),
	};
	return { dependencies, reads, shown, now: () => clock };
}

const kickoff = (kickoffId: string): RunningKickoff => ({
	itemIndex: Number(kickoffId.slice(1)),
	kickoffId,
	startedAt: 0,
});
const RUNNING = { state: 'RUNNING', status: 'Task is Running' };
const SUCCESS = {
	state: 'SUCCESS',
	result: 'done',
	usage_metrics: { total_tokens: 3, prompt_tokens: 2, completion_tokens: 1 },
};

describe('waiting on the live service: NOT FOUND', () => {
	it('ends a crew paused for human input on the first NOT FOUND after running, long before the timeout', async () => {
		const world = scriptedWorld({ k0: [RUNNING, RUNNING, NOT_FOUND, RUNNING] });
		const [outcome] = await waitForCompletion(
			[kickoff('k0')],
			createPollPolicy(1_000),
			600_000,
			world.dependencies,
		);
		expect(outcome).toMatchObject({
			kind: 'paused',
			status: { state: 'paused', kickoff_id: 'k0', task_id: null },
		});
		expect(world.reads.k0).toBe(3);
		// Within one poll of that read: the clock stopped where it was read.
		expect(world.now()).toBe(3_000);
		expect(world.shown.map((entry) => entry.state)).toEqual(['running', 'running', 'paused']);
	});

	it('completes normally after a few NOT FOUND reads right after the kickoff, showing none of them', async () => {
		const world = scriptedWorld({ k0: [NOT_FOUND, NOT_FOUND, NOT_FOUND, RUNNING, SUCCESS] });
		const [outcome] = await waitForCompletion(
			[kickoff('k0')],
			createPollPolicy(1_000),
			600_000,
			world.dependencies,
		);
		expect(outcome).toMatchObject({
			kind: 'completed',
			status: { result: 'done', usage: { total_tokens: 3 } },
		});
		expect(world.shown.map((entry) => entry.state)).toEqual(['running', 'completed']);
	});

	it('ends a run never seen once NOT FOUND outlasts the registration, not at the timeout', async () => {
		const world = scriptedWorld({ k0: [NOT_FOUND] });
		const [outcome] = await waitForCompletion(
			[kickoff('k0')],
			createPollPolicy(1_000),
			600_000,
			world.dependencies,
		);
		// Read every second from 1 s: the read at the window's end is the first past it.
		expect(outcome).toMatchObject({ kind: 'notFound', reads: REGISTRATION_WINDOW_MS / 1_000 });
		expect(world.now()).toBe(REGISTRATION_WINDOW_MS);
	});

	it('at a 0.1 s interval waits out a registration 3 s late, and completes', async () => {
		const world = scriptedWorld({ k0: [...Array(30).fill(NOT_FOUND), RUNNING, SUCCESS] });
		const [outcome] = await waitForCompletion(
			[kickoff('k0')],
			createPollPolicy(100),
			600_000,
			world.dependencies,
		);
		expect(outcome).toMatchObject({ kind: 'completed', status: { result: 'done' } });
		expect(world.reads.k0).toBe(32);
	});

	it("counts the window from the kickoff's answer, not from the wait's start: a run an earlier try started long ago is unknown at its first NOT FOUND", async () => {
		const world = scriptedWorld({ k0: [NOT_FOUND] });
		const [outcome] = await waitForCompletion(
			[{ ...kickoff('k0'), startedAt: -REGISTRATION_WINDOW_MS }],
			createPollPolicy(1_000),
			600_000,
			world.dependencies,
		);
		expect(outcome).toMatchObject({ kind: 'notFound', reads: 1 });
		expect(world.now()).toBe(0);
	});

	it('ends every other crew of a batch normally when one pauses', async () => {
		const world = scriptedWorld({
			k0: [RUNNING, RUNNING, RUNNING, SUCCESS],
			k1: [RUNNING, NOT_FOUND],
			k2: [NOT_FOUND, RUNNING, RUNNING, RUNNING, RUNNING, SUCCESS],
		});
		const outcomes = await waitForCompletion(
			['k0', 'k1', 'k2'].map(kickoff),
			createPollPolicy(1_000),
			600_000,
			world.dependencies,
		);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['completed', 'paused', 'completed']);
	});

	it('the first phase of Wait By: Callback reads a pause the same way', async () => {
		const world = scriptedWorld({ k0: [NOT_FOUND, RUNNING, NOT_FOUND], k1: [SUCCESS] });
		const outcomes = await watchFirstPhase(
			['k0', 'k1'].map(kickoff),
			createPollPolicy(1_000),
			60_000,
			world.dependencies,
		);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['paused', 'completed']);
	});

	it('the first phase ends a run never seen as not found, once the registration window has passed', async () => {
		const world = scriptedWorld({ k0: [NOT_FOUND] });
		const [outcome] = await watchFirstPhase(
			[kickoff('k0')],
			createPollPolicy(1_000),
			60_000,
			world.dependencies,
		);
		expect(outcome.kind).toBe('notFound');
		expect(world.now()).toBe(REGISTRATION_WINDOW_MS);
	});

	it('the first phase at 0.1 s waits out a registration 3 s late', async () => {
		const world = scriptedWorld({ k0: [...Array(30).fill(NOT_FOUND), SUCCESS] });
		const [outcome] = await watchFirstPhase(
			[kickoff('k0')],
			createPollPolicy(100),
			60_000,
			world.dependencies,
		);
		expect(outcome.kind).toBe('completed');
	});
});

describe('pauseOfHumanInputCall', () => {
	const notFound = readCrewStatus('k0', { state: 'NOT FOUND' });

	it('reads NOT FOUND as the pause the call names, with its task id in the record and the advice', () => {
		const paused = pauseOfHumanInputCall(notFound, CALL);
		expect(paused).toMatchObject({
			kickoff_id: 'k0',
			state: 'paused',
			task_id: TASK,
			result: null,
			response: { state: 'NOT FOUND' },
		});
		expect(paused.next_step).toContain(`kickoff ID k0 and task ID ${TASK}`);
	});

	it("gives a pause read from NOT FOUND without a task the call's task", () => {
		expect(pauseOfHumanInputCall(pausedFromNotFound(notFound), CALL)).toEqual(
			pauseOfHumanInputCall(notFound, CALL),
		);
	});

	it("keeps the service's own paused record, and its task when it names one; the call adds only what the record lacks", () => {
		const documented = readCrewStatus('k0', {
			state: 'PENDING_HUMAN_INPUT',
			task_id: 'analysis_task',
			result: 'Analysis of topic=AI',
		});
		expect(documented.state).toBe('paused');
		expect(pauseOfHumanInputCall(documented, CALL)).toBe(documented);
		const withoutOutput = readCrewStatus('k0', {
			state: 'PENDING_HUMAN_INPUT',
			task_id: 'analysis_task',
		});
		expect(pauseOfHumanInputCall(withoutOutput, CALL)).toEqual({
			...withoutOutput,
			task_id: 'analysis_task',
			task_output: CALL.task_output,
		});
	});

	it('believes the service over the call: running stays running, an end stays the end', () => {
		const running = readCrewStatus('k0', { state: 'RUNNING', status: 'Task is Running' });
		const completed = readCrewStatus('k0', { state: 'SUCCESS', result: 'done' });
		expect(pauseOfHumanInputCall(running, CALL)).toBe(running);
		expect(pauseOfHumanInputCall(completed, CALL)).toBe(completed);
	});
});
