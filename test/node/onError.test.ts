/**
 * The node's On Error settings as n8n's engine applies them. What the node
 * returns for a failing item is not what the workflow sees: n8n-core keeps
 * only the error's message in the item's json (WorkflowExecute's
 * normalizeNodeErrors), and with "Continue (using error output)" routes the
 * item by its `error` and its pairedItem (handleNodeErrorOutput).
 */
import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';

const crew = useCrewService();

/** Item 1 has inputs that are not JSON, so it fails before any request. */
const secondItemBroken = (itemIndex: number) => ({
	operation: 'kickoff',
	inputsMode: 'json',
	inputsJson: itemIndex === 1 ? 'not json' : `{"topic": "item ${itemIndex}"}`,
});

describe('On Error, as n8n-core applies it', () => {
	it("Stop Workflow: the execution fails with the item's error, and no later crew is started", async () => {
		const error = await runCrewNodeExpectingError({
			parameters: secondItemBroken,
			credentials: crew.credentials,
			items: items(3),
			onError: 'stopWorkflow',
		});
		expect(error.message).toMatch(/not valid JSON/);
		expect(error.context).toMatchObject({ itemIndex: 1 });
		expect(crew.service.runs).toHaveLength(1);
	});

	it('Continue: one item per input, in order, the failing one with its message and advice as fields', async () => {
		const { outputs } = await runCrewNode({
			parameters: secondItemBroken,
			credentials: crew.credentials,
			items: items(3),
			onError: 'continueRegularOutput',
		});
		const [first, third] = crew.service.runs;
		expect(outputs).toHaveLength(1);
		expect(outputs[0].map((item) => item.json)).toEqual([
			{ kickoff_id: first.kickoffId },
			{
				error: expect.stringMatching(/not valid JSON/),
				description: expect.stringMatching(/JSON object/),
			},
			{ kickoff_id: third.kickoffId },
		]);
		expect(outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('Continue (using error output): the failing item goes to the error output, each output paired with its own inputs', async () => {
		const { outputs } = await runCrewNode({
			parameters: secondItemBroken,
			credentials: crew.credentials,
			items: items(3),
			onError: 'continueErrorOutput',
		});
		const [first, third] = crew.service.runs;
		expect(outputs).toHaveLength(2);
		expect(outputs[0].map((item) => item.json)).toEqual([
			{ kickoff_id: first.kickoffId },
			{ kickoff_id: third.kickoffId },
		]);
		expect(outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		// n8n routes an item whose json holds only `error` there, so the details sit inside it; n8n then adds the input's fields.
		expect(outputs[1].map((item) => item.json)).toEqual([
			{
				error: {
					message: expect.stringMatching(/not valid JSON/),
					description: expect.stringMatching(/JSON object/),
				},
				index: 1,
			},
		]);
		expect(outputs[1].map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
	});

	it('Continue (using error output) with Kickoff and Wait: a failed crew goes to the error output, with its kickoff ID', async () => {
		crew.service.configure({
			plan: ({ inputs }) =>
				inputs.topic === 'item 0'
					? { outcome: 'failure', error: 'boom', durationMs: 100 }
					: { durationMs: 200 },
		});
		const { outputs } = await runCrewNode({
			parameters: (itemIndex) => ({
				operation: 'kickoffAndWait',
				inputsMode: 'json',
				inputsJson: `{"topic": "item ${itemIndex}"}`,
				options: { pollInterval: 0.1, timeout: 20 },
			}),
			credentials: crew.credentials,
			items: items(2),
			onError: 'continueErrorOutput',
		});
		const failed = crew.service.runs.find((run) => run.inputs.topic === 'item 0');
		expect(outputs[0].map((item) => [item.json.result, item.pairedItem])).toEqual([
			['Crew finished: topic=item 1', { item: 1 }],
		]);
		const message = `The crew failed (kickoff ID ${failed?.kickoffId}): boom`;
		expect(outputs[1].map((item) => [item.json, item.pairedItem])).toEqual([
			[
				{
					error: {
						message,
						description: expect.stringMatching(/reported a failure/),
						kickoff_id: failed?.kickoffId,
					},
					index: 0,
				},
				{ item: 0 },
			],
		]);
	});
});
