import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { chatError, outcomeError, stepAdvice } from '../../../nodes/chat/chatErrors';
import type { ChatStep } from '../../../nodes/chat/chatErrors';
import type { CrewAnswer } from '../../../nodes/transport';
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
const connection = { baseUrl: 'https://flow.example.com', secret, secrets: [secret] };
const SESSION = '0b6f3c1e-5a4d-4c4e-9a57-1f2d3c4b5a69';

const http = (statusCode: number, body: unknown = undefined): CrewAnswer => ({
	kind: 'http',
	statusCode,
	body,
});
const network: CrewAnswer = {
	kind: 'network',
	code: 'ECONNREFUSED',
	message: 'connect ECONNREFUSED',
};

describe('stepAdvice', () => {
	it('says a message cut off by the network or a 5xx may have reached the flow and was not sent again', () => {
		expect(stepAdvice('message', network)).toBe(
			"The message may or may not have reached the flow; it was not sent again. Read the flow session's history before sending it again.",
		);
		expect(stepAdvice('message', http(503))).toMatch(
			/may or may not have reached the flow, and it was not sent again/,
		);
		for (const step of ['inspect', 'start', 'history', 'stream'] as ChatStep[]) {
			expect(stepAdvice(step, network)).toMatch(/^Check the Base URL .*reachable from n8n/);
			expect(stepAdvice(step, http(500))).toBe(
				"The service failed. Run again later, and contact the service's support if this persists.",
			);
		}
	});

	it("tells a 404 on a session's step to send again (the node starts a new session itself), and elsewhere to check the Base URL", () => {
		for (const step of ['history', 'message', 'stream'] as ChatStep[])
			expect(stepAdvice(step, http(404))).toMatch(
				/^The flow knows no session with this ID\. Send the message again: the node then starts a new session/,
			);
		for (const step of ['inspect', 'start'] as ChatStep[])
			expect(stepAdvice(step, http(404))).toMatch(/^Check the Base URL .*no path after it\.$/);
	});

	it("names the token for 401 and 403, the earlier turn for a message's 409, the message for 400 and 422, the pace for 429", () => {
		expect(stepAdvice('start', http(401))).toMatch(/bearer token .*Status tab/);
		expect(stepAdvice('start', http(403))).toMatch(/accepted but may not chat/);
		expect(stepAdvice('message', http(409))).toMatch(/still answering an earlier message/);
		expect(stepAdvice('stream', http(409))).toMatch(/not expect/);
		expect(stepAdvice('message', http(422))).toBe(
			'The flow refused the message. Check that Message is a non-empty text.',
		);
		expect(stepAdvice('message', http(400))).toBe(stepAdvice('message', http(422)));
		expect(stepAdvice('history', http(429))).toMatch(/limiting requests/);
		expect(stepAdvice('history', http(302))).toBe(
			'The service answered in a way the node does not expect. Check the Base URL and the token in the Crew API credential.',
		);
	});
});

describe('chatError', () => {
	it("says the code, the step, the flow session and the service's own message, with the item and the advice", () => {
		const error = chatError(
			node,
			connection,
			'history',
			http(502, { detail: 'Bad gateway upstream' }),
			3,
			SESSION,
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`The flow answered 502 while reading the conversation's history (flow session ${SESSION}): Bad gateway upstream`,
		);
		expect(error.httpCode).toBe('502');
		expect(error.context.itemIndex).toBe(3);
		expect(error.description).toBe(stepAdvice('history', http(502)));
	});

	it("names the flow's address and the network's code when there is no answer, and leaves out a session not yet known", () => {
		const error = chatError(node, connection, 'start', network, 0);
		expect(error.message).toBe(
			'The connection to the flow at https://flow.example.com failed while starting a flow session (ECONNREFUSED)',
		);
		expect(error.httpCode).toBeNull();
	});

	it('keeps the token out of the message, even when the service echoes it', () => {
		// As the transport gives the answer: with the request's secrets hidden.
		const error = chatError(
			node,
			connection,
			'inspect',
			new Redactor(connection.secrets).answer(
				http(401, { detail: `token ${secret} is not valid` }),
			),
			0,
		);
		expect(error.message).toBe(
			'The flow answered 401 while checking the deployment: token [token hidden] is not valid',
		);
		expect(JSON.stringify(error)).not.toContain(secret);
	});
});

describe('outcomeError', () => {
	const of = (outcome: Parameters<typeof outcomeError>[2]) =>
		outcomeError(node, connection, outcome, 1, SESSION, 30);

	it('names the flow session in every outcome, with what to do next', () => {
		expect(of({ kind: 'failed', reason: 'Tool crashed', frameCount: 2, sent: true }).message).toBe(
			`The flow's turn failed (flow session ${SESSION}): Tool crashed`,
		);
		const timeout = of({ kind: 'timeout', frameCount: 0, sent: true }) as NodeOperationError;
		expect(timeout.message).toBe(
			`The flow did not reply within 30 seconds (flow session ${SESSION})`,
		);
		expect(timeout.description).toContain(`GET /chat/${SESSION}/history`);
		expect(of({ kind: 'unreadableHistory', body: 'text' }).message).toBe(
			`The flow's history could not be read (flow session ${SESSION})`,
		);
		const cancelled = of({ kind: 'cancelled' }) as NodeOperationError;
		expect(cancelled.message).toBe(
			`The execution was stopped while the flow answered (flow session ${SESSION})`,
		);
		expect(cancelled.description).toBe('The turn may still finish in the flow session.');
		expect(cancelled.context.itemIndex).toBe(1);
	});

	it('reports an uncertain send as the message step, and a refusal as the step refused', () => {
		expect(of({ kind: 'uncertainSend', answer: network }).message).toMatch(
			/failed while sending the message \(flow session /,
		);
		const refused = of({ kind: 'refused', step: 'stream', answer: http(404) }) as NodeApiError;
		expect(refused.message).toBe(
			`The flow answered 404 while reading the flow's reply (flow session ${SESSION})`,
		);
		expect(refused.description).toMatch(/^The flow knows no session with this ID/);
	});
});
