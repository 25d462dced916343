import { readCrewStatus } from '../../nodes/records/crewStatus';
import { callbackHumanInputField, hashCallbackToken } from '../../nodes/waiting/callbackWait';
import { createEndedCrews } from '../../nodes/waiting/endedCrews';
import { pausedFromNotFound, pauseOfHumanInputCall } from '../../nodes/waiting/notFound';
import { readHumanInputCall } from '../../nodes/waiting/parkedBatch';
import type { ParkedEntry } from '../../nodes/waiting/parkedBatch';

// The pure parts of hearing the live service's human-input call at a parked batch's resume URL.

const awaited = (itemIndex: number): ParkedEntry & { kind: 'awaited' } => ({ kind: 'awaited', itemIndex, kickoffId: `k${itemIndex}`, tokenHash: hashCallbackToken(`token-${itemIndex}`) });
const batch = [awaited(0), awaited(2)];
const TASK = '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f';
const liveCall = (kickoffId: string) => ({ kickoff_id: kickoffId, execution_id: kickoffId, task_id: TASK, task_output: 'Analysis of …', meta: null });

describe('readHumanInputCall', () => {
	it('finds the awaited crew a live human-input call names, with its task id', () => {
		expect(readHumanInputCall(liveCall('k2'), batch)).toEqual({ kind: 'awaited', caller: batch[1], taskId: TASK });
	});

	it('reads the documented call, which names the kickoff only as execution_id', () => {
		expect(readHumanInputCall({ execution_id: 'k0', task_id: 'analysis_task', output: 'x' }, batch)).toEqual({ kind: 'awaited', caller: batch[0], taskId: 'analysis_task' });
	});

	it('says a human-input call about no crew of the batch is unknown', () => {
		expect(readHumanInputCall(liveCall('k1'), batch)).toEqual({ kind: 'unknownKickoff' });
		expect(readHumanInputCall(liveCall('k0'), [])).toEqual({ kind: 'unknownKickoff' });
	});

	it('is not a human-input call: a stream call, a body without a kickoff id or a task, not an object', () => {
		expect(readHumanInputCall({ events: [{ type: 'crew_kickoff_completed', execution_id: 'k0' }], task_id: TASK }, batch)).toBeUndefined();
		expect(readHumanInputCall({ type: 'crew_kickoff_completed', kickoff_id: 'k0', task_id: TASK }, batch)).toBeUndefined();
		expect(readHumanInputCall({ task_id: TASK }, batch)).toBeUndefined();
		expect(readHumanInputCall({ kickoff_id: 'k0' }, batch)).toBeUndefined();
		expect(readHumanInputCall('k0', batch)).toBeUndefined();
	});

	it('takes a call without a task id value as one whose task is unknown', () => {
		expect(readHumanInputCall({ kickoff_id: 'k0', task_id: null }, batch)).toEqual({ kind: 'awaited', caller: batch[0], taskId: null });
	});
});

describe('pauseOfHumanInputCall', () => {
	const notFound = readCrewStatus('k0', { state: 'NOT FOUND' });

	it('reads NOT FOUND as the pause the call names, with its task id in the record and the advice', () => {
		const paused = pauseOfHumanInputCall(notFound, TASK);
		expect(paused).toMatchObject({ kickoff_id: 'k0', state: 'paused', task_id: TASK, result: null, response: { state: 'NOT FOUND' } });
		expect(paused.next_step).toContain(`kickoff ID k0 and task ID ${TASK}`);
	});

	it('gives a pause read from NOT FOUND without a task the call\'s task', () => {
		expect(pauseOfHumanInputCall(pausedFromNotFound(notFound), TASK)).toEqual(pauseOfHumanInputCall(notFound, TASK));
	});

	it('keeps the service\'s own paused record, and its task when it names one', () => {
		const documented = readCrewStatus('k0', { state: 'PENDING_HUMAN_INPUT', task_id: 'analysis_task' });
		expect(documented.state).toBe('paused');
		expect(pauseOfHumanInputCall(documented, TASK)).toBe(documented);
	});

	it('believes the service over the call: running stays running, an end stays the end', () => {
		const running = readCrewStatus('k0', { state: 'RUNNING', status: 'Task is Running' });
		const completed = readCrewStatus('k0', { state: 'SUCCESS', result: 'done' });
		expect(pauseOfHumanInputCall(running, TASK)).toBe(running);
		expect(pauseOfHumanInputCall(completed, TASK)).toBe(completed);
	});
});

describe('callbackHumanInputField', () => {
	const resumeUrl = 'https://n8n.example.com/webhook-waiting/42?signature=abc';

	it('hands a crew the resume URL as humanInputWebhookUrl, without auth', () => {
		expect(callbackHumanInputField({ inputs: {} }, resumeUrl)).toEqual({ humanInputWebhookUrl: resumeUrl });
	});

	it('leaves the user\'s own Human Input Webhook URL in place, and adds nothing for a flow', () => {
		expect(callbackHumanInputField({ humanInputWebhookUrl: 'https://n8n.example.com/webhook/trigger' }, resumeUrl)).toEqual({});
		expect(callbackHumanInputField({ inputs: {} }, resumeUrl, 'flow')).toEqual({});
	});
});

describe('createEndedCrews.remember', () => {
	it('replaces an ended crew\'s outcome, and ignores an outcome that is no end', async () => {
		const crews = createEndedCrews(() => 0);
		const status = pausedFromNotFound(readCrewStatus('k0', { state: 'NOT FOUND' }));
		await crews.outcomeOf('k0', 0, async () => ({ kind: 'paused', status }));
		const named = { kind: 'paused' as const, status: pauseOfHumanInputCall(status, TASK) };
		crews.remember('k0', named);
		crews.remember('k0', { kind: 'error', error: new Error('passing') });
		expect(crews.ended('k0')).toEqual(named);
	});
});
