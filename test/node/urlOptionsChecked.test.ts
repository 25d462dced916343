/**
 * URL options are checked before any request: a value the service could not
 * call is that item's error, naming the option and showing the value, instead
 * of a kickoff the service refuses with a misleading "missing inputs" 422.
 */

import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/executeFunctions';

const crew = useCrewService();

const starting = (operation: 'kickoff' | 'kickoffAndWait', options: object) => ({
	operation,
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options: { pollInterval: 0.1, timeout: 20, ...options },
});

const resume = (options: object) => ({
	operation: 'resume',
	kickoffId: 'k-1',
	taskId: 'research_task',
	isApprove: true,
	humanFeedback: '',
	options,
});

describe.each(['kickoff', 'kickoffAndWait'] as const)('%s', (operation) => {
	it.each([
		['crewWebhookUrl', 'Crew Webhook URL', 'not a url'],
		['stepWebhookUrl', 'Step Webhook URL', 'hooks.example/step'],
		['taskWebhookUrl', 'Task Webhook URL', 'ftp://hooks.example/task'],
	])(
		'%s set to something that is not an http(s) URL: an item error naming it, and no request',
		async (name, label, value) => {
			const error = await runCrewNodeExpectingError({
				parameters: starting(operation, { [name]: value }),
				credentials: crew.credentials,
			});
			// n8n stores the node's error as a copy of its fields: the class shows in its name.
			expect(error.name).toBe('NodeOperationError');
			expect(error.message).toBe(`${label} is not an absolute http(s) URL: "${value}"`);
			expect(error.description).toMatch(/starting with https:\/\//);
			expect(error.context).toMatchObject({ itemIndex: 0 });
			expect(crew.service.requests).toHaveLength(0);
		},
	);

	it('with Continue On Fail, only the item with the bad URL is held back; empty means not set', async () => {
		const { output } = await runCrewNode({
			parameters: (itemIndex) =>
				starting(operation, {
					crewWebhookUrl: itemIndex === 1 ? 'not a url' : '',
					taskWebhookUrl: '  ',
				}),
			credentials: crew.credentials,
			items: items(2),
			continueOnFail: true,
		});
		expect(output[0].json.kickoff_id).toBe(crew.service.runs[0].kickoffId);
		expect(output[1].json.error).toBe(
			'Crew Webhook URL is not an absolute http(s) URL: "not a url"',
		);
		expect(crew.service.count('kickoff', 'POST')).toBe(1);
		expect(crew.service.requests.find((request) => request.route === 'kickoff')?.body).toEqual({
			inputs: { topic: 'AI' },
		});
	});
});

describe('resume', () => {
	it('a bad webhook URL is an item error naming it, and no request', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: resume({ stepWebhookUrl: 'http:/127.0.0.1/step' }),
			credentials: crew.credentials,
		});
		// n8n stores the node's error as a copy of its fields: the class shows in its name.
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toBe(
			'Step Webhook URL is not an absolute http(s) URL: "http:/127.0.0.1/step"',
		);
		expect(error.context).toMatchObject({ itemIndex: 0 });
		expect(crew.service.requests).toHaveLength(0);
	});

	it('good URLs are sent as they are', async () => {
		await runCrewNodeExpectingError({
			parameters: resume({ crewWebhookUrl: 'http://127.0.0.1:9/crew' }),
			credentials: crew.credentials,
		});
		expect(crew.service.requests.map((request) => [request.route, request.status])).toEqual([
			['resume', 404],
		]);
		expect(crew.service.requests[0].body).toMatchObject({
			crewWebhookUrl: 'http://127.0.0.1:9/crew',
		});
	});
});
