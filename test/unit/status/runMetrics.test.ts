import { readProgress, readUsage } from '../../../nodes/status/runMetrics';

describe('readUsage', () => {
	it("reads the live record's usage_metrics", () => {
		expect(
			readUsage({
				usage_metrics: { total_tokens: 1200, prompt_tokens: 1000, completion_tokens: 200 },
			}),
		).toEqual({
			total_tokens: 1200,
			prompt_tokens: 1000,
			completion_tokens: 200,
		});
	});

	it("reads the crew webhook's token_usage when there is no usage_metrics", () => {
		expect(readUsage({ token_usage: { total_tokens: 5 } })).toEqual({
			total_tokens: 5,
			prompt_tokens: null,
			completion_tokens: null,
		});
	});

	it('is undefined for a record without counts, or with nothing countable in them', () => {
		expect(readUsage({ state: 'SUCCESS' })).toBeUndefined();
		expect(readUsage({ usage_metrics: null })).toBeUndefined();
		expect(
			readUsage({ usage_metrics: { total_tokens: 'many', prompt_tokens: -1 } }),
		).toBeUndefined();
	});
});

describe('readProgress', () => {
	it("reads a crew's live progress: tasks, the current task and agent", () => {
		const record = {
			state: 'RUNNING',
			progress: {
				unit: 'task',
				completed: 1,
				total: 3,
				remaining: 2,
				current: 'analysis_task',
				current_agent: 'Analyst',
				started_at: 'x',
			},
		};
		expect(readProgress(record)).toEqual({
			unit: 'task',
			completed: 1,
			total: 3,
			current: 'analysis_task',
			current_agent: 'Analyst',
		});
	});

	it("reads a flow's steps as a count with no total, even if a total were sent", () => {
		expect(
			readProgress({
				progress: { unit: 'step', completed: 4, total: 9, remaining: null, current: 'write_draft' },
			}),
		).toEqual({
			unit: 'step',
			completed: 4,
			total: null,
			current: 'write_draft',
			current_agent: null,
		});
	});

	it('reads the documented shape: completed_tasks, total_tasks and current_task', () => {
		expect(
			readProgress({
				status: 'running',
				current_task: 'research_task',
				progress: { completed_tasks: 1, total_tasks: 3 },
			}),
		).toEqual({
			unit: 'task',
			completed: 1,
			total: 3,
			current: 'research_task',
			current_agent: null,
		});
	});

	it('is undefined when the record tells nothing about progress', () => {
		expect(readProgress({ state: 'RUNNING', progress: null })).toBeUndefined();
		expect(readProgress({ state: 'RUNNING', status: 'Task is Running' })).toBeUndefined();
	});
});
