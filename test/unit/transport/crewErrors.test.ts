import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { crewAnswerError } from '../../../nodes/transport/crewErrors';
import {
	ADVICE,
	adviceCode,
	adviceFor,
	INPUTS_ID_ADVICE,
} from '../../../nodes/transport/errorAdvice';
import type { CrewAction } from '../../../nodes/transport/errorAdvice';
import { Redactor } from '../../../nodes/transport/redactor';

const node: INode = {
	id: '1',
	name: 'Crew',
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const secret = 'tok-SECRET-123456';

/** The error for an answer as the transport gives it: with the token hidden by the request's redactor. */
function httpError(
	statusCode: number,
	body: unknown,
	action: CrewAction = 'kickoff',
	kickoffId?: string,
) {
	return crewAnswerError(node, new Redactor([secret]).answer({ kind: 'http', statusCode, body }), {
		action,
		itemIndex: 2,
		kickoffId,
	});
}

describe('crewAnswerError', () => {
	it('gives the status code, the service message and the item index', () => {
		const error = httpError(400, { detail: 'inputs must be strings' });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe(
			'The crew service answered 400 while starting the crew: inputs must be strings',
		);
		expect(error.description).toMatch(/every input must be a text value/);
		expect(error.context.itemIndex).toBe(2);
	});

	it('tells a 401 to check and renew the token', () => {
		expect(httpError(401, { error: 'Unauthorized', message: 'bad token' }).description).toMatch(
			/token.*Status tab.*reset/is,
		);
	});

	it('tells a status 404 to check the kickoff ID, and names it', () => {
		const error = httpError(404, { detail: 'Not Found' }, 'getStatus', 'abc-123');
		expect(error.message).toContain('kickoff ID abc-123');
		expect(error.description).toMatch(/kickoff ID/);
	});

	it('tells an inputs 404 to check the base URL', () => {
		expect(httpError(404, '', 'getInputs').description).toMatch(/Base URL/);
	});

	it('names the missing inputs of a 422', () => {
		const error = httpError(422, {
			error: 'Validation Error',
			message: 'Missing required inputs',
			details: { missing_inputs: ['budget', 'age'] },
		});
		expect(error.message).toContain('missing inputs budget, age');
		expect(error.description).toContain('budget, age');
	});

	it('warns that a failed kickoff may have started the crew', () => {
		expect(httpError(500, 'Internal Server Error').description).toMatch(
			/may or may not have started/,
		);
		expect(httpError(500, 'Internal Server Error', 'getStatus').description).toMatch(/support/);
	});

	it('keeps its own message even for network codes that NodeApiError would replace', () => {
		const error = crewAnswerError(
			node,
			{ kind: 'network', code: 'ECONNRESET', message: 'socket hang up' },
			{ action: 'getStatus', itemIndex: 0, baseUrl: 'http://h' },
		);
		expect(error.message).toContain('The connection to the crew service at http://h failed');
		expect(error.message).toContain('ECONNRESET');
		const refused = crewAnswerError(
			node,
			{ kind: 'network', code: 'ECONNREFUSED', message: 'connect' },
			{ action: 'getInputs', itemIndex: 0 },
		);
		expect(refused.message).toMatch(/Could not connect/);
		expect(refused.description).toMatch(/Base URL/);
	});

	it('says a kickoff that got no answer was not sent again', () => {
		const error = crewAnswerError(
			node,
			{ kind: 'network', code: 'ECONNRESET', message: 'reset' },
			{ action: 'kickoff', itemIndex: 0 },
		);
		expect(error.description).toMatch(/not sent again/);
	});

	it('hides the token wherever the service echoed it', () => {
		const error = httpError(
			502,
			`<html><title>Bad gateway for Authorization: Bearer ${secret}</title></html>`,
		);
		const stored = JSON.stringify({
			...error,
			message: error.message,
			description: error.description,
		});
		expect(stored).not.toContain(secret);
		expect(error.message).toContain('[token hidden]');
	});
});

/**
 * The advice each operation gives for the codes the vendor's API reference
 * lists (400 bad input, 401 bad token, 404 not found, 422 validation, 500
 * server error): one phrase per cell that only that advice carries.
 */
const PINNED: Array<[CrewAction, number, RegExp]> = [
	['getInputs', 400, /request for the crew's inputs.*Base URL/],
	['getInputs', 401, /bearer token.*Status tab/],
	['getInputs', 404, /Base URL.*this crew's own API address/],
	['getInputs', 422, /takes no parameters.*Base URL/],
	['getInputs', 500, /service failed\. Run again later/],
	['kickoff', 400, /every input must be a text value and Meta a JSON object/],
	['kickoff', 401, /bearer token.*Status tab/],
	['kickoff', 404, /Base URL.*this crew's own API address/],
	['kickoff', 422, /inputs the crew requires are missing or invalid/],
	['kickoff', 500, /may or may not have started/],
	['getStatus', 400, /refused the kickoff ID.*exactly as a Kickoff returned it/],
	['getStatus', 401, /bearer token.*Status tab/],
	['getStatus', 404, /Check the kickoff ID.*crew that ran it/],
	['getStatus', 422, /refused the kickoff ID.*exactly as a Kickoff returned it/],
	['getStatus', 500, /failed to read the status; the crew itself may still be running/],
	['resume', 400, /Only a crew paused for human input can be resumed.*task it waits on/],
	['resume', 401, /bearer token.*Status tab/],
	['resume', 404, /no execution with this kickoff ID/],
	['resume', 422, /Kickoff ID of the paused crew and the Task ID it waits on/],
	['resume', 500, /may or may not have been resumed/],
];

describe('advice per operation and status code', () => {
	it.each(PINNED)('%s %i', (action, statusCode, advice) => {
		expect(adviceFor(action, statusCode)).toMatch(advice);
		expect(httpError(statusCode, undefined, action, 'k-1').description).toBe(
			adviceFor(action, statusCode),
		);
	});

	it("never gives a kickoff's inputs advice for another operation", () => {
		for (const action of ['getInputs', 'getStatus', 'resume'] as const) {
			for (const code of [400, 422])
				expect(adviceFor(action, code)).not.toMatch(
					/inputs the crew (requires|expects)|text value/,
				);
		}
	});

	it('names the missing inputs only on a kickoff', () => {
		expect(adviceFor('kickoff', 422, ['budget'])).toBe(
			'Give values for: budget. Get Inputs lists every input the crew expects.',
		);
		const body = { detail: [{ loc: ['body', 'task_id'], msg: 'Field required', type: 'missing' }] };
		const resumeError = crewAnswerError(
			node,
			{ kind: 'http', statusCode: 422, body },
			{ action: 'resume', itemIndex: 0, kickoffId: 'k-1' },
		);
		expect(resumeError.message).toBe(
			'The crew service answered 422 while resuming the crew (kickoff ID k-1): task_id: Field required',
		);
		expect(resumeError.description).toBe(ADVICE.resume[422]);
	});

	it('files every code under one column of the table', () => {
		expect([400, 401, 403, 404, 409, 422, 429].map(adviceCode)).toEqual([
			400, 401, 403, 404, 409, 422, 429,
		]);
		expect([500, 502, 503, 599].map(adviceCode)).toEqual(Array(4).fill('serverError'));
		expect([302, 405, 410, 600].map(adviceCode)).toEqual(Array(4).fill('other'));
	});
});

describe("a 4xx that quotes the token past the 300 characters of the service's words", () => {
	it('shows no part of it: the token is hidden before the words are shortened', () => {
		const long = `tok-${'a1b2c3d4'.repeat(40)}`;
		const answer = new Redactor([long]).answer({
			kind: 'http',
			statusCode: 400,
			body: { detail: `${'x'.repeat(250)} Authorization: Bearer ${long}` },
		});
		const error = crewAnswerError(node, answer, { action: 'getInputs', itemIndex: 0 });
		expect(error.message).not.toContain(long.slice(0, 12));
	});
});

describe("the live service's errors", () => {
	it('names the inputs of a 422 whose detail is the string "Missing inputs: a, b"', () => {
		const error = httpError(422, { detail: 'Missing inputs: audience, topic' });
		expect(error.message).toBe(
			'The crew service answered 422 while starting the crew: missing inputs audience, topic',
		);
		expect(error.description).toBe(
			'Give values for: audience, topic. Get Inputs lists every input the crew expects.',
		);
	});

	it('says the token is empty for a 401 "Not authenticated", and to check it for a wrong one', () => {
		for (const action of ['getInputs', 'kickoff', 'getStatus', 'resume'] as const) {
			expect(httpError(401, { detail: 'Not authenticated' }, action).description).toMatch(
				/without a token: the Crew API credential's Bearer Token is empty/,
			);
			expect(
				httpError(401, { detail: 'Invalid or missing authentication credentials' }, action)
					.description,
			).toBe(ADVICE[action][401]);
		}
	});

	it('says a kickoff that timed out may have started, and was not sent again', () => {
		const error = crewAnswerError(
			node,
			{ kind: 'network', code: 'ECONNABORTED', message: 'timeout of 300000ms exceeded' },
			{ action: 'kickoff', itemIndex: 0, baseUrl: 'https://crew.example' },
		);
		expect(error.message).toBe(
			'The crew service at https://crew.example did not answer the kickoff in time; the crew may have started',
		);
		expect(error.description).toMatch(
			/not sent again.*Before running again, check whether it started: the crew's executions in the dashboard \(or Get Status/,
		);
	});
});

describe('the advice for a 422 about inputs.id', () => {
	const message = "'inputs.id' must be a valid UUID when provided; got 'test 1'.";

	it("names Restore From State ID, in the documented and in FastAPI's shape", () => {
		expect(INPUTS_ID_ADVICE).toMatch(/Restore From State ID/);
		const documented = crewAnswerError(
			node,
			{ kind: 'http', statusCode: 422, body: { error: 'Validation Error', message } },
			{ action: 'kickoff', itemIndex: 0 },
		);
		expect(documented.message).toBe(
			`The crew service answered 422 while starting the crew: Validation Error: ${message}`,
		);
		expect(documented.description).toBe(INPUTS_ID_ADVICE);
		const fastApi = {
			detail: [
				{
					loc: ['body', 'inputs', 'id'],
					msg: 'Input should be a valid UUID',
					type: 'uuid_parsing',
				},
			],
		};
		expect(
			crewAnswerError(
				node,
				{ kind: 'http', statusCode: 422, body: fastApi },
				{ action: 'kickoff', itemIndex: 0 },
			).description,
		).toBe(INPUTS_ID_ADVICE);
	});

	it('leaves every other 422 its advice', () => {
		expect(adviceFor('kickoff', 422, [], 'Missing required inputs')).toBe(
			adviceFor('kickoff', 422),
		);
		expect(adviceFor('kickoff', 422, ['id'], message)).toBe(
			'Give values for: id. Get Inputs lists every input the crew expects.',
		);
		expect(adviceFor('getStatus', 422, [], message)).toBe(adviceFor('getStatus', 422));
		expect(adviceFor('kickoff', 400, [], message)).toBe(adviceFor('kickoff', 400));
	});
});
