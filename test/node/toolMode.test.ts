import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { getCrewInputs } from '../../nodes/Crew/methods/resourceMapping';
import { useCrewService } from '../helpers/crewService';
import {
	callCrewTool,
	callCrewToolThroughEngine,
	crewToolLoadOptionsContext,
} from '../helpers/crewTool';
import { runCrewNode } from '../helpers/crewWorkflow';

const crew = useCrewService();

const THREE_INPUTS = [{ name: 'topic' }, { name: 'audience' }, { name: 'current_year' }];
const options = { pollInterval: 0.1, timeout: 20 };

/**
 * What n8n's editor does with the loaded fields: it keeps them with the node as
 * the resource mapper's schema, as they came, and fills each new field with its
 * defaultValue.
 */
async function loadFields(
	parameters: INodeParameters,
	values: IDataObject | null,
): Promise<INodeParameters> {
	const { fields } = await getCrewInputs.call(
		crewToolLoadOptionsContext(parameters, crew.credentials),
	);
	const value = values ?? Object.fromEntries(fields.map((field) => [field.id, field.defaultValue]));
	return {
		...parameters,
		inputs: { mappingMode: 'defineBelow', value, matchingColumns: [], schema: fields },
	} as unknown as INodeParameters;
}

/** The tool node as the README recommends it: Map Each Input, with the fields the editor loads for a Crew tool just added. */
async function recommendedSetup(operation = 'kickoffAndWait'): Promise<INodeParameters> {
	return await loadFields({ operation, inputsMode: 'map', options }, null);
}

/** The user changes some values, then Refresh Input List (or opening the node again) loads the fields anew. */
async function changeValuesAndRefresh(
	parameters: INodeParameters,
	changes: IDataObject,
): Promise<INodeParameters> {
	const inputs = parameters.inputs as IDataObject;
	const changed = {
		...parameters,
		inputs: { ...inputs, value: { ...(inputs.value as IDataObject), ...changes } },
	} as INodeParameters;
	return await loadFields(changed, (changed.inputs as IDataObject).value as IDataObject);
}

/** The model's answer from the tool: n8n-core hands it the output items' JSON, as text. */
function answerOf(answer: { answer?: string; error?: string }): IDataObject {
	if (answer.answer === undefined) throw new Error(`The tool call failed: ${answer.error}`);
	const items = JSON.parse(answer.answer) as IDataObject[];
	expect(items).toHaveLength(1);
	return items[0];
}

const modelValues = { topic: 'tides', audience: 'sailors', current_year: '2026' };

describe("the Crew node as an AI agent's tool", () => {
	beforeEach(() => crew.service.configure({ inputs: THREE_INPUTS }));

	it('offers the model every input the crew lists, by name, required, with a description', async () => {
		const { name, parameters } = await callCrewTool(await recommendedSetup(), crew.credentials, []);
		expect(name).toBe('Crew_Research');
		expect(parameters).toEqual({
			topic: { type: 'string', description: 'The crew\'s input "topic"', required: true },
			audience: { type: 'string', description: 'The crew\'s input "audience"', required: true },
			current_year: {
				type: 'string',
				description: 'The crew\'s input "current_year"',
				required: true,
			},
		});
	});

	it('does not offer an input the user fixed, once the fields are loaded again', async () => {
		const parameters = await changeValuesAndRefresh(await recommendedSetup(), {
			audience: 'engineers',
		});
		const { parameters: offered, answers } = await callCrewTool(parameters, crew.credentials, [
			{ topic: 'tides', current_year: '2026' },
		]);
		expect(Object.keys(offered)).toEqual(['topic', 'current_year']);
		answerOf(answers[0]);
		expect(crew.service.runs[0].inputs).toEqual({
			topic: 'tides',
			audience: 'engineers',
			current_year: '2026',
		});
	});

	it('offers the description the user wrote, once the fields are loaded again', async () => {
		const described = "={{ $fromAI('topic', 'One subject, a few words', 'string') }}";
		const parameters = await changeValuesAndRefresh(await recommendedSetup(), { topic: described });
		const { parameters: offered } = await callCrewTool(parameters, crew.credentials, []);
		expect(offered.topic).toEqual({
			type: 'string',
			description: 'One subject, a few words',
			required: true,
		});
	});

	it("starts the crew at the first call with the model's values, and answers in short", async () => {
		const { answers } = await callCrewTool(await recommendedSetup(), crew.credentials, [
			modelValues,
		]);
		expect(crew.service.count('kickoff', 'POST')).toBe(1);
		expect(crew.service.requests.filter((request) => request.status === 422)).toEqual([]);
		const [run] = crew.service.runs;
		expect(run.inputs).toEqual(modelValues);
		const result = 'Crew finished: topic=tides; audience=sailors; current_year=2026';
		expect(answerOf(answers[0])).toEqual({ kickoff_id: run.kickoffId, state: 'completed', result });
		expect((answers[0].answer ?? '').length).toBeLessThanOrEqual(1.5 * result.length + 200);
	});

	it('gives a workflow the whole record as before', async () => {
		const { output } = await runCrewNode({
			parameters: {
				operation: 'kickoffAndWait',
				inputsMode: 'json',
				inputsJson: JSON.stringify(modelValues),
				options,
			},
			credentials: crew.credentials,
		});
		expect(Object.keys(output[0].json)).toEqual(
			expect.arrayContaining(['kickoff_id', 'state', 'result', 'response', 'error', 'task_id']),
		);
	});

	it('starts one crew per call', async () => {
		const calls = [modelValues, { ...modelValues, topic: 'winds' }];
		const { answers } = await callCrewTool(await recommendedSetup(), crew.credentials, calls);
		expect(crew.service.runs.map((run) => run.inputs.topic)).toEqual(['tides', 'winds']);
		expect(answers.map((answer) => answerOf(answer).kickoff_id)).toEqual(
			crew.service.runs.map((run) => run.kickoffId),
		);
	});

	it('puts what to do into the message when the crew fails', async () => {
		crew.service.configure({
			plan: () => ({ outcome: 'failure', error: 'Task execution failed: invalid API key' }),
		});
		const { answers } = await callCrewTool(await recommendedSetup(), crew.credentials, [
			modelValues,
		]);
		const [run] = crew.service.runs;
		expect(answers[0].error).toMatch(
			new RegExp(
				`^The crew failed \\(kickoff ID ${run.kickoffId}\\): Task execution failed: invalid API key\\. The crew ran and reported a failure\\. Fix its cause`,
			),
		);
	});

	it('names the credential to fix when the token is wrong', async () => {
		const parameters = await recommendedSetup();
		const { answers } = await callCrewTool(
			parameters,
			{ ...crew.credentials, token: 'reset-token-DISTINCT-1' },
			[modelValues],
		);
		expect(answers[0].error).toMatch(
			/answered 401 while starting the crew.*Check the bearer token in the Crew API credential/s,
		);
		expect(answers[0].error).not.toContain('reset-token-DISTINCT-1');
	});

	it('says on a timeout that the crew still runs, its kickoff ID, and to read it with Get Status', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		const parameters = {
			...(await recommendedSetup()),
			options: { pollInterval: 0.1, timeout: 0.6 },
		};
		const { answers } = await callCrewTool(parameters, crew.credentials, [modelValues]);
		const [run] = crew.service.runs;
		expect(answers[0].error).toContain(
			`(kickoff ID ${run.kickoffId}); it was last running. The crew was not stopped and may still finish. Read its result later with the Get Status operation and kickoff ID ${run.kickoffId}`,
		);
	});

	it('names the missing inputs of a 422 in the message', async () => {
		const parameters = {
			operation: 'kickoffAndWait',
			inputsMode: 'json',
			inputsJson: "={{ $fromAI('inputs', 'The crew inputs as an object', 'json') }}",
			options,
		};
		const { answers } = await callCrewTool(parameters, crew.credentials, [
			{ inputs: { topic: 'tides' } },
		]);
		expect(answers[0].error).toMatch(
			/answered 422 while starting the crew: missing inputs audience, current_year\. Give values for: audience, current_year\./,
		);
	});

	it('reads a kickoff by the ID the model gives, in short', async () => {
		const kickoff = await callCrewTool(await recommendedSetup(), crew.credentials, [modelValues]);
		const kickoffId = answerOf(kickoff.answers[0]).kickoff_id;
		const parameters = {
			operation: 'getStatus',
			kickoffId:
				"={{ $fromAI('kickoff_id', 'The kickoff_id a Kickoff and Wait answered', 'string') }}",
		};
		const { parameters: offered, answers } = await callCrewTool(parameters, crew.credentials, [
			{ kickoff_id: kickoffId },
		]);
		expect(Object.keys(offered)).toEqual(['kickoff_id']);
		expect(answerOf(answers[0])).toEqual({
			kickoff_id: kickoffId,
			state: 'completed',
			result: expect.stringContaining('topic=tides'),
		});
	});
});

describe("the Crew node run by n8n 2.x's AI Agent (engine requests)", () => {
	beforeEach(() => crew.service.configure({ inputs: THREE_INPUTS }));

	it('answers each call in short, one crew per call', async () => {
		const { outputs } = await callCrewToolThroughEngine(
			await recommendedSetup(),
			crew.credentials,
			[modelValues, { ...modelValues, topic: 'winds' }],
		);
		const runs = crew.service.runs;
		expect(runs.map((run) => run.inputs)).toEqual([
			modelValues,
			{ ...modelValues, topic: 'winds' },
		]);
		expect(outputs).toEqual(
			runs.map((run) => [
				{
					kickoff_id: run.kickoffId,
					state: 'completed',
					result: `Crew finished: topic=${run.inputs.topic}; audience=sailors; current_year=2026`,
				},
			]),
		);
	});

	it('hands the model the credential to fix when the token is wrong', async () => {
		const parameters = await recommendedSetup();
		const { outputs } = await callCrewToolThroughEngine(
			parameters,
			{ ...crew.credentials, token: 'reset-token-DISTINCT-2' },
			[modelValues],
		);
		expect(outputs).toEqual([
			[
				{
					error: expect.stringMatching(
						/answered 401 while starting the crew.*\. Check the bearer token in the Crew API credential/,
					),
				},
			],
		]);
	});

	it('answers a failed call with the message and the kickoff ID when On Error is Continue', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'failure', error: 'boom' }) });
		const { outputs } = await callCrewToolThroughEngine(
			await recommendedSetup(),
			crew.credentials,
			[modelValues],
			'continueRegularOutput',
		);
		const [run] = crew.service.runs;
		expect(outputs).toEqual([
			[
				{
					error: expect.stringMatching(
						new RegExp(
							`^The crew failed \\(kickoff ID ${run.kickoffId}\\): boom\\. The crew ran and reported a failure\\.`,
						),
					),
					kickoff_id: run.kickoffId,
				},
			],
		]);
	});

	it('hands the model an error message that says what to do', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		const parameters = {
			...(await recommendedSetup()),
			options: { pollInterval: 0.1, timeout: 0.6 },
		};
		const { outputs } = await callCrewToolThroughEngine(parameters, crew.credentials, [
			modelValues,
		]);
		const [run] = crew.service.runs;
		expect(outputs).toEqual([
			[
				{
					error: expect.stringContaining(
						`Read its result later with the Get Status operation and kickoff ID ${run.kickoffId}`,
					),
				},
			],
		]);
	});
});
