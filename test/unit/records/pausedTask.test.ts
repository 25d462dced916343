import {
	NO_PAUSED_TASK,
	pausedTaskFieldsOf,
	readPausedTask,
	withMissingFrom,
} from '../../../nodes/records/pausedTask';

describe('readPausedTask', () => {
	it('reads the live human-input call: task_id and task_output, no name or description', () => {
		const call = {
			kickoff_id: 'k',
			execution_id: 'k',
			task_id: '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f',
			task_output: 'Research notes',
			meta: null,
		};
		expect(readPausedTask(call)).toEqual({
			task_id: '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f',
			task_output: 'Research notes',
			task_name: null,
			task_description: null,
		});
	});

	it('reads the documented call and other spellings: output, camelCase, a nested task', () => {
		expect(
			readPausedTask({ execution_id: 'k', task_id: 'analysis_task', output: 'Draft' }),
		).toMatchObject({ task_id: 'analysis_task', task_output: 'Draft' });
		expect(
			readPausedTask({ taskId: 7, taskOutput: 'o', taskName: 'n', taskDescription: 'd' }),
		).toEqual({ task_id: '7', task_output: 'o', task_name: 'n', task_description: 'd' });
		expect(
			readPausedTask({ task: { name: 'research', raw: 'r', description: 'Research it' } }),
		).toEqual({
			task_id: 'research',
			task_output: 'r',
			task_name: 'research',
			task_description: 'Research it',
		});
	});

	it('keeps an output that is no text as the service sent it', () => {
		expect(readPausedTask({ task_output: { score: 7, notes: ['a'] } }).task_output).toEqual({
			score: 7,
			notes: ['a'],
		});
	});

	it('gives null for what the body does not say, an empty text included', () => {
		expect(readPausedTask({})).toEqual(NO_PAUSED_TASK);
		expect(readPausedTask({ task_id: '', task_output: '', task_name: '  ' })).toEqual(
			NO_PAUSED_TASK,
		);
	});
});

describe('withMissingFrom', () => {
	it('keeps what the first source says and takes only what it lacks from the second', () => {
		const record = {
			task_id: 'research_task',
			task_output: null,
			task_name: null,
			task_description: null,
		};
		expect(
			withMissingFrom(record, {
				task_id: 'uuid',
				task_output: 'notes',
				task_name: null,
				task_description: null,
			}),
		).toEqual({
			task_id: 'research_task',
			task_output: 'notes',
			task_name: null,
			task_description: null,
		});
	});

	it("reads a record's own fields, null where it has none", () => {
		expect(pausedTaskFieldsOf({ task_id: 't' })).toEqual({ ...NO_PAUSED_TASK, task_id: 't' });
	});
});
