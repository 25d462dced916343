import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { crewAnswerError, scrubSecret } from '../../nodes/Crew/transport/crewErrors';

const node: INode = { id: '1', name: 'Crew', type: 'n8n-nodes-crewai.crew', typeVersion: 1, position: [0, 0], parameters: {} };
const secret = 'tok-SECRET-123456';

function httpError(statusCode: number, body: unknown, action: 'getInputs' | 'kickoff' | 'getStatus' = 'kickoff', kickoffId?: string) {
	return crewAnswerError(node, { kind: 'http', statusCode, body }, { action, itemIndex: 2, kickoffId, secret });
}

describe('crewAnswerError', () => {
	it('gives the status code, the service message and the item index', () => {
		const error = httpError(400, { detail: 'inputs must be strings' });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe('The crew service answered 400 while starting the crew: inputs must be strings');
		expect(error.description).toMatch(/format of the inputs/);
		expect(error.context.itemIndex).toBe(2);
	});

	it('tells a 401 to check and renew the token', () => {
		expect(httpError(401, { error: 'Unauthorized', message: 'bad token' }).description).toMatch(/token.*Status tab.*reset/is);
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
		const error = httpError(422, { error: 'Validation Error', message: 'Missing required inputs', details: { missing_inputs: ['budget', 'age'] } });
		expect(error.message).toContain('missing inputs budget, age');
		expect(error.description).toContain('budget, age');
	});

	it('warns that a failed kickoff may have started the crew', () => {
		expect(httpError(500, 'Internal Server Error').description).toMatch(/may or may not have started/);
		expect(httpError(500, 'Internal Server Error', 'getStatus').description).toMatch(/support/);
	});

	it('keeps its own message even for network codes that NodeApiError would replace', () => {
		const error = crewAnswerError(node, { kind: 'network', code: 'ECONNRESET', message: 'socket hang up' }, { action: 'getStatus', itemIndex: 0, baseUrl: 'http://h' });
		expect(error.message).toContain('The connection to the crew service at http://h failed');
		expect(error.message).toContain('ECONNRESET');
		const refused = crewAnswerError(node, { kind: 'network', code: 'ECONNREFUSED', message: 'connect' }, { action: 'getInputs', itemIndex: 0 });
		expect(refused.message).toMatch(/Could not connect/);
		expect(refused.description).toMatch(/Base URL/);
	});

	it('says a kickoff that got no answer was not sent again', () => {
		const error = crewAnswerError(node, { kind: 'network', code: 'ECONNRESET', message: 'reset' }, { action: 'kickoff', itemIndex: 0 });
		expect(error.description).toMatch(/not sent again/);
	});

	it('hides the token wherever the service echoed it', () => {
		const error = httpError(502, `<html><title>Bad gateway for Authorization: Bearer ${secret}</title></html>`);
		const stored = JSON.stringify({ ...error, message: error.message, description: error.description });
		expect(stored).not.toContain(secret);
		expect(error.message).toContain('[token hidden]');
	});
});

describe('scrubSecret', () => {
	it('replaces every occurrence and leaves text without it alone', () => {
		expect(scrubSecret('a SECRET b SECRET', 'SECRET')).toBe('a [token hidden] b [token hidden]');
		expect(scrubSecret('plain', 'SECRET')).toBe('plain');
		expect(scrubSecret('plain', undefined)).toBe('plain');
	});
});
