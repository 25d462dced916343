import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';
import type { Credentials } from '../helpers/crewWorkflow';

const crew = useCrewService();

async function kickoffOne(credentials: Credentials): Promise<string> {
	const { output } = await runCrewNode({
		parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
		credentials,
	});
	return output[0].json.kickoff_id as string;
}

const getStatus = (kickoffId: string) => ({ operation: 'getStatus', kickoffId });

describe('Get Status', () => {
	it.each(['contract', 'wild'] as const)(
		'reads a running and then a completed crew in the %s record shape',
		async (recordShape) => {
			crew.service.configure({ recordShape, durationMs: 0 });
			crew.service.configure({
				plan: ({ index }) => (index === 0 ? { durationMs: 60_000 } : { durationMs: 0 }),
			});
			const running = await kickoffOne(crew.credentials);
			const done = await kickoffOne(crew.credentials);
			const { output } = await runCrewNode({
				parameters: (itemIndex) => getStatus(itemIndex === 0 ? running : done),
				credentials: crew.credentials,
				items: items(2),
			});
			expect(output[0]).toMatchObject({
				json: {
					kickoff_id: running,
					state: expect.stringMatching(/pending|running/),
					result: null,
				},
				pairedItem: { item: 0 },
			});
			expect(output[1]).toMatchObject({
				json: {
					kickoff_id: done,
					state: 'completed',
					result: 'Crew finished: topic=AI',
					error: null,
				},
				pairedItem: { item: 1 },
			});
			if (recordShape === 'wild')
				expect(output[1].json.result_json).toEqual({ inputs: { topic: 'AI' }, kickoffNumber: 2 });
			expect(output[1].json.response).toEqual(
				expect.objectContaining(
					recordShape === 'wild' ? { state: 'SUCCESS' } : { status: 'completed' },
				),
			);
		},
	);

	it.each(['contract', 'wild'] as const)(
		'reads a failed crew in the %s shape as a record, not an error',
		async (recordShape) => {
			crew.service.configure({
				recordShape,
				durationMs: 0,
				plan: () => ({ outcome: 'failure', error: 'Task execution failed: bad key' }),
			});
			const kickoffId = await kickoffOne(crew.credentials);
			const { output } = await runCrewNode({
				parameters: getStatus(kickoffId),
				credentials: crew.credentials,
			});
			expect(output[0].json).toMatchObject({
				state: 'failed',
				result: null,
				error: 'Task execution failed: bad key',
			});
		},
	);

	it("reports an unknown kickoff ID with the service's own not-found message and the ID", async () => {
		const error = await runCrewNodeExpectingError({
			parameters: getStatus('no-such-kickoff'),
			credentials: crew.credentials,
		});
		expect(error.httpCode).toBe('404');
		expect(error.message).toBe(
			"The crew service answered 404 while reading the crew's status (kickoff ID no-such-kickoff): Execution not found: No execution found with ID: no-such-kickoff",
		);
		expect(error.description).toMatch(/Check the kickoff ID/);
		// Both spellings are served here, so the first answer is already the status route's own.
		expect(crew.service.count('status')).toBe(1);
	});

	it('encodes a kickoff ID with slashes and spaces so it cannot reach another path', async () => {
		await runCrewNodeExpectingError({
			parameters: getStatus('../inputs x/y'),
			credentials: crew.credentials,
		});
		expect(crew.service.requests.map((request) => request.kickoffId)).toEqual(['../inputs x/y']);
		expect(crew.service.count('inputs')).toBe(0);
	});

	it('refuses an empty kickoff ID without a request', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: getStatus('  '),
			credentials: crew.credentials,
		});
		expect(error.message).toBe('Kickoff ID is empty');
		expect(crew.service.requests).toHaveLength(0);
	});

	it('rides out a 503 by reading again', async () => {
		crew.service.configure({ durationMs: 0 });
		const kickoffId = await kickoffOne(crew.credentials);
		crew.service.injectFault({
			route: 'status',
			kind: 'status',
			status: 503,
			headers: { 'Retry-After': '1' },
		});
		const { output } = await runCrewNode({
			parameters: getStatus(kickoffId),
			credentials: crew.credentials,
		});
		expect(output[0].json.state).toBe('completed');
	});
});
