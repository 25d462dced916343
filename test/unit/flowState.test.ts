import type { INode } from 'n8n-workflow';

import { adviceFor, crewAnswerError, INPUTS_ID_ADVICE } from '../../nodes/Crew/transport/crewErrors';
import { readCrewStatus, readFlowState } from '../../nodes/records/crewStatus';
import { buildKickoffBody, InvalidParameterError, readRestoreFromStateId } from '../../nodes/records/kickoffBody';
import { isStateId } from '../../nodes/records/stateId';

const STATE_ID = '123e4567-e89b-42d3-a456-426614174000';
const node: INode = { id: '1', name: 'Crew', type: 'n8n-nodes-crewai.crew', typeVersion: 1, position: [0, 0], parameters: {} };

describe('isStateId', () => {
	it('takes a UUID in canonical text form, any case and version, and nothing else', () => {
		expect([STATE_ID, STATE_ID.toUpperCase(), '97eba64f-958c-40a0-b61c-625fe635a3c0'].map(isStateId)).toEqual([true, true, true]);
		const others = ['test 1', `{${STATE_ID}}`, ` ${STATE_ID}`, STATE_ID.replace(/-/g, ''), 'abcd1234-5678-90ef-ghij-klmnopqrstuv', '', 42, null, { id: STATE_ID }];
		expect(others.map(isStateId)).toEqual(others.map(() => false));
	});
});

describe('readRestoreFromStateId', () => {
	it('gives the trimmed id, and undefined for empty, null or absent', () => {
		expect(readRestoreFromStateId(`  ${STATE_ID}\n`)).toBe(STATE_ID);
		expect([undefined, null, '', '   '].map(readRestoreFromStateId)).toEqual([undefined, undefined, undefined, undefined]);
	});

	it('refuses anything else naming the option, showing the value, and saying nothing was sent', () => {
		const refusal = (value: unknown) => {
			try {
				readRestoreFromStateId(value);
			} catch (error) {
				return error as InvalidParameterError;
			}
			throw new Error(`accepted ${String(value)}`);
		};
		const text = refusal('test 1');
		expect(text).toBeInstanceOf(InvalidParameterError);
		expect(text.message).toBe('Restore From State ID is not a UUID: "test 1"');
		expect(text.description).toMatch(/UUID such as .*No request was sent for this item\.$/);
		expect(refusal(42).message).toBe('Restore From State ID is not a UUID: a number');
		expect(refusal({ id: STATE_ID }).message).toBe('Restore From State ID is not a UUID: an object');
		expect(refusal('x'.repeat(500)).message.length).toBeLessThan(140);
	});
});

describe('buildKickoffBody with Restore From State ID', () => {
	it('sends the id at the top level beside inputs, never inside them', () => {
		expect(buildKickoffBody({ topic: 'AI' }, { restoreFromStateId: STATE_ID })).toEqual({ inputs: { topic: 'AI' }, restoreFromStateId: STATE_ID });
	});

	it('leaves it out when empty, and sends an input named id as given (the user\'s data)', () => {
		expect(buildKickoffBody({ id: 'test 1' }, { restoreFromStateId: '' })).toEqual({ inputs: { id: 'test 1' } });
	});

	it('throws for an invalid id before building anything', () => {
		expect(() => buildKickoffBody({}, { restoreFromStateId: 'last run' })).toThrow(InvalidParameterError);
	});
});

describe('readFlowState', () => {
	const state = { id: STATE_ID, counter: 2 };

	it('finds a flow\'s final state where a finished flow\'s record holds it', () => {
		expect(readFlowState({ state: 'SUCCESS', result: state, result_json: state })).toBe(state);
		expect(readFlowState({ state: 'SUCCESS', result: 'done', result_json: state })).toBe(state);
		expect(readFlowState({ status: 'completed', result: { output: 'done', state } })).toBe(state);
	});

	it('takes no object without a UUID id for a state: a crew\'s structured output stays only result_json', () => {
		expect(readFlowState({ state: 'SUCCESS', result: 'done', result_json: { id: 7, score: 1 } })).toBeUndefined();
		expect(readFlowState({ status: 'completed', result: { output: 'done', tasks: [] } })).toBeUndefined();
	});

	it('adds flow_state to a completed record only, so a crew\'s record keeps its fields exactly', () => {
		const flow = readCrewStatus('k1', { state: 'SUCCESS', result: state, result_json: state });
		expect(flow).toMatchObject({ state: 'completed', result_json: state, flow_state: state });
		const crew = readCrewStatus('k2', { state: 'SUCCESS', result: 'Final report', result_json: { score: 7 } });
		expect(Object.keys(crew)).toEqual(['kickoff_id', 'state', 'result', 'result_json', 'error', 'task_id', 'response']);
		expect(readCrewStatus('k3', { state: 'RUNNING', result: state })).not.toHaveProperty('flow_state');
	});
});

describe('the advice for a 422 about inputs.id', () => {
	const message = "'inputs.id' must be a valid UUID when provided; got 'test 1'.";

	it('names Restore From State ID, in the documented and in FastAPI\'s shape', () => {
		expect(INPUTS_ID_ADVICE).toMatch(/Restore From State ID/);
		const documented = crewAnswerError(node, { kind: 'http', statusCode: 422, body: { error: 'Validation Error', message } }, { action: 'kickoff', itemIndex: 0 });
		expect(documented.message).toBe(`The crew service answered 422 while starting the crew: Validation Error: ${message}`);
		expect(documented.description).toBe(INPUTS_ID_ADVICE);
		const fastApi = { detail: [{ loc: ['body', 'inputs', 'id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }] };
		expect(crewAnswerError(node, { kind: 'http', statusCode: 422, body: fastApi }, { action: 'kickoff', itemIndex: 0 }).description).toBe(INPUTS_ID_ADVICE);
	});

	it('leaves every other 422 its advice', () => {
		expect(adviceFor('kickoff', 422, [], 'Missing required inputs')).toBe(adviceFor('kickoff', 422));
		expect(adviceFor('kickoff', 422, ['id'], message)).toBe('Give values for: id. Get Inputs lists every input the crew expects.');
		expect(adviceFor('getStatus', 422, [], message)).toBe(adviceFor('getStatus', 422));
		expect(adviceFor('kickoff', 400, [], message)).toBe(adviceFor('kickoff', 400));
	});
});
