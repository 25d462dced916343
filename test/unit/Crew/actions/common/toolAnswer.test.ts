import { isToolCall } from '../../../../../nodes/execution/toolCall';
import {
	messageForModel,
	toolAnswer,
	toolErrorAnswer,
} from '../../../../../nodes/Crew/actions/common/toolAnswer';

const record = {
	kickoff_id: 'k-1',
	state: 'completed',
	result: 'The report',
	result_json: null,
	error: null,
	task_id: null,
	response: {
		state: 'SUCCESS',
		result: 'The report',
		last_executed_task: { output: 'The report' },
	},
};

describe('the answer a model gets', () => {
	it('knows a tool by n8n\'s "Tool" type name or by isToolExecution', () => {
		expect(isToolCall('n8n-nodes-crewai.crewTool', false)).toBe(true);
		expect(isToolCall('n8n-nodes-crewai.crew', true)).toBe(true);
		expect(isToolCall('n8n-nodes-crewai.crew', false)).toBe(false);
	});

	it('keeps state, result and kickoff ID of a status record, without the record the service sent', () => {
		expect(toolAnswer('kickoffAndWait', record)).toEqual({
			kickoff_id: 'k-1',
			state: 'completed',
			result: 'The report',
		});
		expect(toolAnswer('getStatus', { ...record, result_json: { score: 3 } })).toEqual({
			kickoff_id: 'k-1',
			state: 'completed',
			result: 'The report',
			result_json: { score: 3 },
		});
	});

	it('adds the reason of a failure and the task a paused crew waits on', () => {
		expect(
			toolAnswer('getStatus', { ...record, state: 'failed', result: null, error: 'boom' }),
		).toEqual({ kickoff_id: 'k-1', state: 'failed', result: null, error: 'boom' });
		expect(
			toolAnswer('getStatus', {
				...record,
				state: 'paused',
				result: null,
				task_id: 'analysis_task',
			}),
		).toEqual({
			kickoff_id: 'k-1',
			state: 'paused',
			result: null,
			task_id: 'analysis_task',
		});
	});

	it('a stopped run: its state, no result, no failure', () => {
		expect(
			toolAnswer('getStatus', {
				...record,
				state: 'stopped',
				result: null,
				response: { state: 'REVOKED' },
			}),
		).toEqual({ kickoff_id: 'k-1', state: 'stopped', result: null });
	});

	it('Resume: the waited-for record in short, naming the resumed run too; without the wait, the answer as it is', () => {
		expect(
			toolAnswer('resume', { ...record, kickoff_id: 'k-2', resumed_kickoff_id: 'k-1' }),
		).toEqual({
			kickoff_id: 'k-2',
			state: 'completed',
			result: 'The report',
			resumed_kickoff_id: 'k-1',
		});
		expect(toolAnswer('resume', { kickoff_id: 'k-2', resumed_kickoff_id: 'k-1' })).toEqual({
			kickoff_id: 'k-2',
			resumed_kickoff_id: 'k-1',
		});
		expect(toolAnswer('getStatus', record)).not.toHaveProperty('resumed_kickoff_id');
	});

	it("leaves the other operations' answers as they are", () => {
		expect(toolAnswer('kickoff', { kickoff_id: 'k-1', status: 'queued' })).toEqual({
			kickoff_id: 'k-1',
			status: 'queued',
		});
		expect(toolAnswer('getInputs', { inputs: ['topic'] })).toEqual({ inputs: ['topic'] });
	});

	it('puts the advice into the message, once', () => {
		const error = Object.assign(
			new Error('The crew service answered 401 while starting the crew'),
			{ description: 'Check the bearer token in the Crew API credential.' },
		);
		expect(messageForModel(error)).toBe(
			'The crew service answered 401 while starting the crew. Check the bearer token in the Crew API credential.',
		);
		expect(messageForModel(Object.assign(new Error('Done.'), { description: 'Go on.' }))).toBe(
			'Done. Go on.',
		);
		expect(
			messageForModel(Object.assign(new Error('Already says: Go on.'), { description: 'Go on.' })),
		).toBe('Already says: Go on.');
		expect(messageForModel(new Error('Alone'))).toBe('Alone');
	});

	it('gives a failed item with Continue On Fail as the message and the kickoff ID', () => {
		const error = Object.assign(new Error('The crew failed (kickoff ID k-1): boom'), {
			description: 'Fix its cause.',
		});
		expect(toolErrorAnswer({ error, kickoffId: 'k-1' })).toEqual({
			error: 'The crew failed (kickoff ID k-1): boom. Fix its cause.',
			kickoff_id: 'k-1',
		});
	});
});
