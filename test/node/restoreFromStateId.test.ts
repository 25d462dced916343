import type { INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { INPUTS_ID_ADVICE } from '../../nodes/transport/errorAdvice';
import { useCrewService } from '../helpers/crewService';
import {
	CREW_NODE_NAME,
	crewWorkflow,
	items,
	runCrewNode,
	runCrewNodeExpectingError,
	triggerNode,
} from '../helpers/crewWorkflow';
import type { Credentials } from '../helpers/crewWorkflow';
import { runWorkflow } from '../helpers/n8nEngine';
import { assertTokenHidden, serializeForLeakCheck } from '../helpers/tokenHygiene';
import { runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService();

const UNKNOWN_STATE_ID = '123e4567-e89b-42d3-a456-426614174000';
const OTHER_STATE_ID = '97eba64f-958c-40a0-b61c-625fe635a3c0';

const starting = (
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

/** The kickoff bodies the service received, in order. */
const kickoffBodies = () =>
	crew.service.requests
		.filter((request) => request.route === 'kickoff')
		.map((request) => request.body as Record<string, unknown>);

/** Every run is a persisted flow. */
const asFlows = () => crew.service.configure({ plan: () => ({ flow: true }) });

const SECOND_NODE_NAME = 'Crew Again';

/**
 * Manual Trigger → Crew (Kickoff and Wait) → Crew Again (Kickoff and Wait, restoring
 * from the first's state by expression), on n8n's real engine.
 */
async function runChain(credentials: Credentials, secondOptions: object) {
	const spec = crewWorkflow(
		{ parameters: starting('kickoffAndWait', '{"topic": "AI", "audience": "devs"}'), credentials },
		1,
	);
	const first = spec.nodes.find((node) => node.name === CREW_NODE_NAME) as INode;
	const second: INode = {
		...first,
		id: 'crew-again-id',
		name: SECOND_NODE_NAME,
		position: [440, 0],
		parameters: starting('kickoffAndWait', '{"topic": "Robots"}', secondOptions) as INodeParameters,
	};
	spec.nodes.push(second);
	spec.connections[CREW_NODE_NAME] = {
		main: [[{ node: SECOND_NODE_NAME, type: 'main', index: 0 }]],
	};
	const { run } = await runWorkflow(spec, triggerNode, [{ json: {} }]);
	assertTokenHidden(credentials.token, 'execution data', serializeForLeakCheck(run));
	expect(run.data.resultData.error).toBeUndefined();
	const output = (name: string) =>
		run.data.resultData.runData[name][0].data?.main[0] as INodeExecutionData[];
	return { first: output(CREW_NODE_NAME), second: output(SECOND_NODE_NAME) };
}

describe('Restore From State ID', () => {
	it('is sent at the top level of the kickoff, beside the inputs, per item by expression; empty sends none', async () => {
		const ids = [UNKNOWN_STATE_ID, '', OTHER_STATE_ID];
		const { output } = await runCrewNode({
			parameters: (itemIndex) =>
				starting('kickoff', '{"topic": "AI"}', { restoreFromStateId: ids[itemIndex] }),
			credentials: crew.credentials,
			items: items(3),
		});
		expect(output.map((item) => item.json.kickoff_id)).toEqual(
			crew.service.runs.map((run) => run.kickoffId),
		);
		expect(kickoffBodies()).toEqual([
			{ inputs: { topic: 'AI' }, restoreFromStateId: UNKNOWN_STATE_ID },
			{ inputs: { topic: 'AI' } },
			{ inputs: { topic: 'AI' }, restoreFromStateId: OTHER_STATE_ID },
		]);
	});

	it('refuses a value that is not a UUID before any request, naming the option', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: starting('kickoffAndWait', '{"topic": "AI"}', {
				restoreFromStateId: "yesterday's run",
			}),
			credentials: crew.credentials,
		});
		expect(error.message).toBe('Restore From State ID is not a UUID: "yesterday\'s run"');
		expect(error.description).toMatch(/No request was sent for this item/);
		expect(crew.service.requests).toEqual([]);
	});

	it('with Continue On Fail refuses only that item; the others run, in order', async () => {
		const ids = [UNKNOWN_STATE_ID, 'not-a-uuid', ''];
		const { output } = await runCrewNode({
			parameters: (itemIndex) =>
				starting('kickoffAndWait', `{"topic": "t${itemIndex}"}`, {
					restoreFromStateId: ids[itemIndex],
				}),
			credentials: crew.credentials,
			items: items(3),
			continueOnFail: true,
		});
		expect(output.map((item) => item.json.state ?? item.json.error)).toEqual([
			'completed',
			'Restore From State ID is not a UUID: "not-a-uuid"',
			'completed',
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		expect(kickoffBodies().map((body) => body.inputs)).toEqual([{ topic: 't0' }, { topic: 't2' }]);
	});

	it.each(['contract', 'wild'] as const)(
		'gives a fresh run for an id the service does not know, with its state in flow_state (%s shape)',
		async (recordShape) => {
			crew.service.configure({ recordShape });
			asFlows();
			const { output } = await runCrewNode({
				parameters: starting('kickoffAndWait', '{"topic": "AI"}', {
					restoreFromStateId: UNKNOWN_STATE_ID,
				}),
				credentials: crew.credentials,
			});
			const [run] = crew.service.runs;
			expect(run.flow).toMatchObject({ requestedFrom: UNKNOWN_STATE_ID, restoredFrom: null });
			expect(output[0].json).toMatchObject({
				kickoff_id: run.kickoffId,
				state: 'completed',
				flow_state: { id: run.kickoffId, topic: 'AI', run_count: 1, kickoff_ids: [run.kickoffId] },
			});
		},
	);

	it.each(['contract', 'wild'] as const)(
		"chains two Kickoff and Wait nodes: the second forks from the first's state by {{ $json.flow_state.id }} (%s shape)",
		async (recordShape) => {
			crew.service.configure({ recordShape });
			asFlows();
			const { first, second } = await runChain(crew.credentials, {
				restoreFromStateId: '={{ $json.flow_state.id }}',
			});
			const [firstRun, secondRun] = crew.service.runs;
			expect(kickoffBodies()[1]).toEqual({
				inputs: { topic: 'Robots' },
				restoreFromStateId: firstRun.kickoffId,
			});
			expect(first[0].json.flow_state).toEqual({
				topic: 'AI',
				audience: 'devs',
				run_count: 1,
				kickoff_ids: [firstRun.kickoffId],
				id: firstRun.kickoffId,
			});
			// The first run's state, with the second's inputs on top, under a fresh ID.
			expect(second[0].json.flow_state).toEqual({
				topic: 'Robots',
				audience: 'devs',
				run_count: 2,
				kickoff_ids: [firstRun.kickoffId, secondRun.kickoffId],
				id: secondRun.kickoffId,
			});
			expect(second[0].pairedItem).toEqual({ item: 0 });
		},
	);

	it('is sent by Wait By: Callback too', async () => {
		asFlows();
		const { output, waitTill } = await runUntilParked({
			parameters: {
				...starting('kickoffAndWait', '{"topic": "AI"}', {
					restoreFromStateId: UNKNOWN_STATE_ID,
					firstPhase: 5,
				}),
				waitBy: 'callback',
			},
			credentials: crew.credentials,
			// Nothing listens there: the crew ends within the first phase, so its call to the resume URL is not needed.
			webhookWaitingBaseUrl: 'http://127.0.0.1:9/webhook-waiting',
		});
		expect(waitTill).toBeUndefined();
		expect(kickoffBodies()[0]).toMatchObject({
			inputs: { topic: 'AI' },
			restoreFromStateId: UNKNOWN_STATE_ID,
		});
		expect(output[0].json).toMatchObject({
			state: 'completed',
			flow_state: { id: crew.service.runs[0].kickoffId, run_count: 1 },
		});
	});
});

describe('inputs.id, the deprecated way', () => {
	it('is sent as given, and a UUID resumes the flow under that id', async () => {
		asFlows();
		const first = await runCrewNode({
			parameters: starting('kickoffAndWait', '{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		const stateId = first.output[0].json.kickoff_id as string;
		const second = await runCrewNode({
			parameters: starting('kickoffAndWait', `{"id": "${stateId}", "topic": "Robots"}`),
			credentials: crew.credentials,
		});
		expect(kickoffBodies()[1]).toEqual({ inputs: { id: stateId, topic: 'Robots' } });
		expect(second.output[0].json.flow_state).toMatchObject({ id: stateId, run_count: 2 });
	});

	it("that is not a UUID gets the service's 422 with advice naming Restore From State ID", async () => {
		const error = await runCrewNodeExpectingError({
			parameters: starting('kickoff', '{"id": "test 1", "topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(error.message).toBe(
			"The crew service answered 422 while starting the crew: Validation Error: 'inputs.id' must be a valid UUID when provided; got 'test 1'.",
		);
		expect(error.description).toBe(INPUTS_ID_ADVICE);
		expect(kickoffBodies()).toEqual([{ inputs: { id: 'test 1', topic: 'AI' } }]);
	});
});

describe("a crew's record", () => {
	it('has no flow_state, its fields as before', async () => {
		const { output } = await runCrewNode({
			parameters: starting('kickoffAndWait', '{"topic": "AI"}'),
			credentials: crew.credentials,
		});
		expect(Object.keys(output[0].json)).toEqual([
			'kickoff_id',
			'state',
			'result',
			'result_json',
			'error',
			'task_id',
			'response',
		]);
	});
});
