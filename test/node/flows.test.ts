/**
 * A deployed flow, on n8n's real engine against the reference service's flow in the
 * live dialect (test/crew-service/README.md, "A deployed flow"): its inputs, its typed
 * kickoff, the restore recipe, and Wait By: Callback ended by flow_finished.
 */
import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { getCrewInputs } from '../../nodes/Crew/methods/resourceMapping';
import { INPUTS_ID_ADVICE } from '../../nodes/transport/errorAdvice';
import { useCrewService } from '../helpers/crewService';
import { callCrewTool, crewToolLoadOptionsContext } from '../helpers/crewTool';
import {
	CREW_NODE_NAME,
	crewLoadOptionsContext,
	crewWorkflow,
	items,
	runCrewNode,
	runCrewNodeExpectingError,
	triggerNode,
} from '../helpers/crewWorkflow';
import { runWorkflow } from '../helpers/n8nEngine';
import { assertTokenHidden, serializeForLeakCheck } from '../helpers/tokenHygiene';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService({ deployment: 'flow', dialect: 'live' });

/** The node as it is added today: version 1.2, Deployment Type left at Detect. */
const NEW_NODE = 1.2;

const kickoffBodies = () =>
	crew.service.requests
		.filter((request) => request.route === 'kickoff')
		.map((request) => request.body as Record<string, unknown>);

const json = (
	operation: 'kickoff' | 'kickoffAndWait',
	inputsJson: string,
	options: object = {},
) => ({
	operation,
	inputsMode: 'json',
	inputsJson,
	options:
		operation === 'kickoffAndWait' ? { pollInterval: 0.1, timeout: 20, ...options } : options,
});

describe('Get Inputs on a flow', () => {
	it('detects the flow: nothing required, no id, and says it is a flow', async () => {
		const { output } = await runCrewNode({
			parameters: { operation: 'getInputs' },
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(output[0].json).toEqual({
			inputs: ['topic', 'count', 'history'],
			input_details: [
				{ name: 'topic', type: 'string', required: false },
				{ name: 'count', type: 'string', required: false },
				{ name: 'history', type: 'string', required: false },
			],
			deployment: 'flow',
		});
	});

	it('keeps the types and defaults the service lists', async () => {
		crew.service.configure({ inputsShape: 'objects' });
		const { output } = await runCrewNode({
			parameters: { operation: 'getInputs' },
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(output[0].json.input_details).toEqual([
			{ name: 'topic', type: 'str', required: false, default: 'AI agents' },
			{ name: 'count', type: 'int', required: false, default: 1 },
			{ name: 'history', type: 'list', required: false, default: [] },
		]);
	});

	it('answers as before for a node saved before Deployment Type (version 1), and for Deployment Type: Crew', async () => {
		const before = {
			inputs: ['topic', 'count', 'id', 'history'],
			input_details: ['topic', 'count', 'id', 'history'].map((name) => ({
				name,
				type: 'string',
				required: true,
			})),
		};
		expect(
			(await runCrewNode({ parameters: { operation: 'getInputs' }, credentials: crew.credentials }))
				.output[0].json,
		).toEqual(before);
		const asCrew = await runCrewNode({
			parameters: { operation: 'getInputs', deploymentType: 'crew' },
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(asCrew.output[0].json).toEqual(before);
	});

	it('reads a crew as a crew with Detect: its answer as it always was', async () => {
		crew.service.configure({ deployment: 'crew' });
		const { output } = await runCrewNode({
			parameters: { operation: 'getInputs' },
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(output[0].json).toEqual({
			inputs: ['topic', 'audience'],
			input_details: [
				{ name: 'topic', type: 'string', required: true },
				{ name: 'audience', type: 'string', required: true },
			],
		});
	});
});

describe("the editor's input fields for a flow", () => {
	it('are optional, typed where the service tells types, and offer no id', async () => {
		crew.service.configure({ inputsShape: 'objects' });
		const { fields } = await getCrewInputs.call(
			crewLoadOptionsContext(
				{ operation: 'kickoffAndWait', inputsMode: 'map' },
				crew.credentials,
				NEW_NODE,
			),
		);
		expect(fields.map(({ id, type, required }) => ({ id, type, required }))).toEqual([
			{ id: 'topic', type: 'string', required: false },
			{ id: 'count', type: 'number', required: false },
			{ id: 'history', type: 'array', required: false },
		]);
	});
});

describe('Kickoff and Wait on a flow', () => {
	it("sends JSON mode's values with their types: a number and a list reach the flow, which completes", async () => {
		const { output } = await runCrewNode({
			parameters: json('kickoffAndWait', '{"topic": "t", "count": 2, "history": ["one"]}'),
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(kickoffBodies()).toEqual([{ inputs: { topic: 't', count: 2, history: ['one'] } }]);
		const [run] = crew.service.runs;
		expect(output[0].json).toMatchObject({
			kickoff_id: run.kickoffId,
			state: 'completed',
			result: 'Flow finished: {"topic":"t","count":2,"history":["one"],"run_count":1}',
			// Live, the record carries no state: the state id is the kickoff id.
			flow_state: { id: run.kickoffId },
		});
		expect(crew.service.count('inputs')).toBe(1);
	});

	it('detects once per node run, whatever the number of items', async () => {
		const { output } = await runCrewNode({
			parameters: json('kickoff', '{"count": 2}'),
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
			items: items(3),
		});
		expect(output).toHaveLength(3);
		expect(crew.service.count('inputs')).toBe(1);
		expect(kickoffBodies()).toEqual([0, 1, 2].map(() => ({ inputs: { count: 2 } })));
	});

	it("sends only the one mapped field that is filled, with its field's type", async () => {
		crew.service.configure({ inputsShape: 'objects' });
		const { fields } = await getCrewInputs.call(
			crewLoadOptionsContext(
				{ operation: 'kickoffAndWait', inputsMode: 'map' },
				crew.credentials,
				NEW_NODE,
			),
		);
		const mapped = (value: object) => ({
			operation: 'kickoffAndWait',
			inputsMode: 'map',
			inputs: { mappingMode: 'defineBelow', value, schema: fields },
			options: { pollInterval: 0.1, timeout: 20 },
		});
		// Empty text in a number field is left out too (n8n itself would make it 0).
		const { output } = await runCrewNode({
			parameters: mapped({ topic: '', count: 3, history: null }),
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(output[0].json.state).toBe('completed');
		await runCrewNode({
			parameters: mapped({ topic: null, count: '', history: '["a", "b"]' }),
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(kickoffBodies()).toEqual([
			{ inputs: { count: 3 } },
			{ inputs: { history: ['a', 'b'] } },
		]);
		expect(crew.service.runs.map((run) => run.state)).toEqual(['completed', 'completed']);
	});

	it('parses a list typed as JSON text in a field of a names-only listing (live), so the flow does not fail on it', async () => {
		const { fields } = await getCrewInputs.call(
			crewLoadOptionsContext(
				{ operation: 'kickoffAndWait', inputsMode: 'map' },
				crew.credentials,
				NEW_NODE,
			),
		);
		const { output } = await runCrewNode({
			parameters: {
				operation: 'kickoffAndWait',
				inputsMode: 'map',
				inputs: {
					mappingMode: 'defineBelow',
					value: { topic: 'tides', history: '["one"]' },
					schema: fields,
				},
				options: { pollInterval: 0.1, timeout: 20 },
			},
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(kickoffBodies()).toEqual([{ inputs: { topic: 'tides', history: ['one'] } }]);
		expect(output[0].json.state).toBe('completed');
	});

	it("still sends an id typed into JSON mode as it is, and the service's 422 gets the advice to use Restore From State ID", async () => {
		const error = await runCrewNodeExpectingError({
			parameters: json('kickoff', '{"id": "test 1", "topic": "t"}'),
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(error.message).toBe(
			"The crew service answered 422 while starting the crew: Validation Error: 'inputs.id' must be a valid UUID when provided; got 'test 1'.",
		);
		expect(error.description).toBe(INPUTS_ID_ADVICE);
		expect(kickoffBodies()).toEqual([{ inputs: { id: 'test 1', topic: 't' } }]);
	});

	it('keeps a saved node (version 1) sending text, as before: a list then fails the flow, as it did live', async () => {
		const { output } = await runCrewNode({
			parameters: json('kickoffAndWait', '{"history": ["one"]}'),
			credentials: crew.credentials,
			continueOnFail: true,
		});
		expect(kickoffBodies()).toEqual([{ inputs: { history: '["one"]' } }]);
		expect(crew.service.count('inputs')).toBe(0);
		expect(crew.service.runs[0].state).toBe('failed');
		expect(output[0].json.error).toMatch(/The crew failed/);
	});
});

describe('Get Status of a flow', () => {
	it("gives a completed flow's state id, its kickoff id, when the record carries no state; a crew's record as before", async () => {
		crew.service.configure({ durationMs: 0 });
		const { output: started } = await runCrewNode({
			parameters: json('kickoff', '{}'),
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		const kickoffId = started[0].json.kickoff_id as string;
		const { output } = await runCrewNode({
			parameters: { operation: 'getStatus', kickoffId },
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
		});
		expect(output[0].json).toMatchObject({
			kickoff_id: kickoffId,
			state: 'completed',
			flow_state: { id: kickoffId },
		});
		const saved = await runCrewNode({
			parameters: { operation: 'getStatus', kickoffId },
			credentials: crew.credentials,
		});
		expect(saved.output[0].json).not.toHaveProperty('flow_state');
	});
});

describe('the restore recipe, two Kickoff and Wait nodes in a chain', () => {
	const SECOND = 'Crew Again';

	async function runChain(restoreFromStateId: string) {
		const spec = crewWorkflow(
			{
				parameters: json('kickoffAndWait', '{"topic": "t", "history": ["one"]}'),
				credentials: crew.credentials,
				typeVersion: NEW_NODE,
			},
			1,
		);
		const first = spec.nodes.find((node) => node.name === CREW_NODE_NAME) as INode;
		const second: INode = {
			...first,
			id: 'crew-again-id',
			name: SECOND,
			position: [440, 0],
			parameters: json('kickoffAndWait', '{"count": 5}', { restoreFromStateId }) as INodeParameters,
		};
		spec.nodes.push(second);
		spec.connections[CREW_NODE_NAME] = { main: [[{ node: SECOND, type: 'main', index: 0 }]] };
		const { run } = await runWorkflow(spec, triggerNode, [{ json: {} }]);
		assertTokenHidden(crew.credentials.token, 'execution data', serializeForLeakCheck(run));
		expect(run.data.resultData.error).toBeUndefined();
		return (name: string) =>
			run.data.resultData.runData[name][0].data?.main[0] as INodeExecutionData[];
	}

	it.each(['={{ $json.flow_state.id }}', '={{ $json.kickoff_id }}'])(
		"continues from the first run's state with %s",
		async (recipe) => {
			const output = await runChain(recipe);
			const [firstRun, secondRun] = crew.service.runs;
			expect(kickoffBodies()[1]).toEqual({
				inputs: { count: 5 },
				restoreFromStateId: firstRun.kickoffId,
			});
			// The first run's topic and history, the second's count, run twice.
			expect(output(SECOND)[0].json).toMatchObject({
				kickoff_id: secondRun.kickoffId,
				state: 'completed',
				result: 'Flow finished: {"topic":"t","count":5,"history":["one"],"run_count":2}',
				flow_state: { id: secondRun.kickoffId },
			});
			expect(output(SECOND)[0].pairedItem).toEqual({ item: 0 });
		},
	);
});

describe('Wait By: Callback on a flow', () => {
	const receiver = useResumeReceiver();
	const eventTypes = () =>
		receiver.calls.map((call) =>
			(call.body as { events: Array<{ type: string }> }).events.map((event) => event.type),
		);

	const byCallback = (itemIndex: number) => ({
		operation: 'kickoffAndWait',
		waitBy: 'callback',
		inputsMode: 'json',
		inputsJson: JSON.stringify({ topic: `f${itemIndex}`, history: [`h${itemIndex}`] }),
		options: { pollInterval: 0.1, timeout: 60, firstPhase: 0.3 },
	});

	it.each([1, 3])(
		'parks %i flow item(s) and is resumed by flow_finished, with the records polling gives',
		async (count) => {
			crew.service.configure({ durationMs: 1_500 });
			const execution = await runUntilParked({
				parameters: byCallback,
				credentials: crew.credentials,
				typeVersion: NEW_NODE,
				items: items(count),
				webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
			});
			if (execution.error) throw execution.error;
			expect(execution.waitTill).toBeDefined();
			receiver.park(execution);
			// The stream asked for is the flow's end, not a crew's (crews inside a flow send their own).
			expect(crew.service.runs.map((run) => run.callbacks.stream?.events)).toEqual(
				crew.service.runs.map(() => ['flow_finished', 'flow_failed', 'method_execution_failed']),
			);
			const [resumed] = await receiver.untilResumed();
			expect(
				eventTypes()
					.flat()
					.every((type) => type === 'flow_finished'),
			).toBe(true);
			const output = resumed.result.workflowData?.[0] ?? [];
			expect(output).toEqual(
				crew.service.runs.map((run, item) => ({
					json: expect.objectContaining({
						kickoff_id: run.kickoffId,
						state: 'completed',
						result: `Flow finished: {"topic":"f${item}","count":1,"history":["h${item}"],"run_count":1}`,
						flow_state: { id: run.kickoffId },
					}),
					pairedItem: { item },
				})),
			);
			expect(resumed.resumed?.run.status).toBe('success');
			expect(kickoffBodies().map((body) => body.inputs)).toEqual(
				crew.service.runs.map((_, item) => ({ topic: `f${item}`, history: [`h${item}`] })),
			);
		},
	);

	it("ends a failing flow's item with polling's error, from flow_failed or method_execution_failed", async () => {
		crew.service.configure({
			durationMs: 1_500,
			plan: () => ({ outcome: 'failure', error: 'write_report failed: quota' }),
		});
		const execution = await runUntilParked({
			parameters: byCallback,
			credentials: crew.credentials,
			typeVersion: NEW_NODE,
			continueOnFail: true,
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		});
		if (execution.error) throw execution.error;
		receiver.park(execution);
		const [resumed] = await receiver.untilResumed();
		const [item] = resumed.result.workflowData?.[0] ?? [];
		expect(item.json).toMatchObject({
			kickoff_id: crew.service.runs[0].kickoffId,
			error: expect.stringContaining(
				`The crew failed (kickoff ID ${crew.service.runs[0].kickoffId})`,
			),
		});
	});
});

describe("a flow as an AI agent's tool", () => {
	/** The tool as the README recommends it, Deployment Type at Detect, with the fields the editor loads for it. */
	async function toolSetup(): Promise<INodeParameters> {
		const parameters = {
			operation: 'kickoffAndWait',
			inputsMode: 'map',
			deploymentType: 'detect',
			options: { pollInterval: 0.1, timeout: 20 },
		} as INodeParameters;
		const { fields } = await getCrewInputs.call(
			crewToolLoadOptionsContext(parameters, crew.credentials),
		);
		const value = Object.fromEntries(fields.map((field) => [field.id, field.defaultValue]));
		return {
			...parameters,
			inputs: { mappingMode: 'defineBelow', value, matchingColumns: [], schema: fields },
		} as unknown as INodeParameters;
	}

	const answerOf = (answer: { answer?: string; error?: string }) =>
		(JSON.parse(answer.answer ?? `["${answer.error}"]`) as IDataObject[])[0];

	it('offers the state fields, none required and no id; a call with only a list sends that list, once, with no 422', async () => {
		crew.service.configure({ inputsShape: 'objects' });
		const { parameters, answers } = await callCrewTool(await toolSetup(), crew.credentials, [
			{ history: '["one", "two"]' },
		]);
		const optional = (description: string) => ({
			type: 'string',
			description: `The flow's state field ${description} (optional: leave it out to keep the flow's default)`,
			required: false,
		});
		expect(parameters).toEqual({
			topic: optional('"topic"'),
			count: optional('"count", a number'),
			history: optional('"history", a JSON list such as ["a", "b"]'),
		});
		expect(kickoffBodies()).toEqual([{ inputs: { history: ['one', 'two'] } }]);
		expect(crew.service.requests.filter((request) => request.status === 422)).toEqual([]);
		expect(answerOf(answers[0])).toMatchObject({
			state: 'completed',
			result:
				'Flow finished: {"topic":"AI agents","count":1,"history":["one","two"],"run_count":1}',
		});
	});

	it('sends a list the model gives as JSON text for a field of a names-only listing (live) as a list', async () => {
		const { parameters } = await callCrewTool(await toolSetup(), crew.credentials, [
			{ topic: 'tides', history: '["one"]' },
		]);
		expect(Object.keys(parameters)).toEqual(['topic', 'count', 'history']);
		expect(kickoffBodies()).toEqual([{ inputs: { topic: 'tides', history: ['one'] } }]);
	});

	it('reads a number the model gives as text as a number, for a field the service types', async () => {
		crew.service.configure({ inputsShape: 'objects' });
		await callCrewTool(await toolSetup(), crew.credentials, [{ count: '3' }]);
		expect(kickoffBodies()).toEqual([{ inputs: { count: 3 } }]);
	});
});
