import { buildResumeBody, readResumedRunId } from '../../../nodes/records/resumeBody';

describe('buildResumeBody', () => {
	it("sends every field in both spellings (the documents' snake_case, the live service's camelCase), and the webhook URLs again", () => {
		expect(
			buildResumeBody({
				kickoffId: 'k1',
				taskId: 'research_task',
				humanFeedback: 'Looks good',
				isApprove: false,
				crewWebhookUrl: 'https://h/crew',
				taskWebhookUrl: '',
				humanInputWebhookUrl: ' https://h/human ',
			}),
		).toEqual({
			executionId: 'k1',
			execution_id: 'k1',
			taskId: 'research_task',
			task_id: 'research_task',
			humanFeedback: 'Looks good',
			human_feedback: 'Looks good',
			isApprove: false,
			is_approve: false,
			crewWebhookUrl: 'https://h/crew',
			humanInputWebhookUrl: 'https://h/human',
		});
		expect(
			buildResumeBody({
				kickoffId: 'k1',
				taskId: 't',
				humanFeedback: '',
				isApprove: true,
				humanInputWebhookUrl: '  ',
			}),
		).not.toHaveProperty('humanInputWebhookUrl');
	});
});

describe('readResumedRunId', () => {
	it("reads the live answer's new kickoff id; the documented answer names none", () => {
		expect(readResumedRunId({ kickoff_id: 'new-1' })).toBe('new-1');
		expect(readResumedRunId({ kickoffId: ' new-2 ' })).toBe('new-2');
		for (const answer of [
			{ status: 'resumed', message: 'Execution resumed successfully' },
			{ kickoff_id: '' },
			{ kickoff_id: 7 },
			'text',
			null,
		]) {
			expect(readResumedRunId(answer)).toBeUndefined();
		}
	});
});
