import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import type { CrewAnswer, CrewConnection } from '../transport';
import { readServiceMessage } from '../transport/serviceMessage';
import type { TurnOutcome } from './turn';

/** Each request of a chat as an error names it: "... while reading the flow's reply". */
const STEP_WORDS = {
	inspect: 'checking the deployment',
	start: 'starting a flow session',
	history: "reading the conversation's history",
	message: 'sending the message',
	stream: "reading the flow's reply",
} as const;
export type ChatStep = keyof typeof STEP_WORDS;

/**
 * What to do after a chat request failed, by its step. A message that may have
 * reached the flow is never advised to be sent again blindly: it would be a second turn.
 */
export function stepAdvice(step: ChatStep, answer: CrewAnswer): string {
	if (answer.kind === 'network') {
		if (step === 'message')
			return "The message may or may not have reached the flow; it was not sent again. Read the flow session's history before sending it again.";
		return 'Check the Base URL in the Crew API credential, and that the deployment is reachable from n8n. Run again later.';
	}
	const code = answer.statusCode;
	if (code === 401)
		return "Check the bearer token in the Crew API credential. Copy the current token from the deployment's Status tab: resetting a token there stops the old one at once.";
	if (code === 403)
		return "The token was accepted but may not chat. Use the deployment's Bearer Token (organization level) from its Status tab.";
	// The node itself starts a new session when the history of a given or remembered one answers 404:
	// sending again is enough.
	if (code === 404 && (step === 'history' || step === 'message' || step === 'stream'))
		return "The flow knows no session with this ID. Send the message again: the node then starts a new session, named in the output's flow_session_id.";
	if (code === 404)
		return "Check the Base URL in the Crew API credential: it must be the deployment's own API address, with no path after it.";
	if (code === 409 && step === 'message')
		return 'The flow session is still answering an earlier message. Send this one after that turn has ended.';
	if (code === 422 || code === 400)
		return 'The flow refused the message. Check that Message is a non-empty text.';
	if (code === 429) return 'The service is limiting requests. Wait a moment and send again.';
	if (code >= 500 && step === 'message')
		return "The service failed; the message may or may not have reached the flow, and it was not sent again. Read the flow session's history before sending it again.";
	if (code >= 500)
		return "The service failed. Run again later, and contact the service's support if this persists.";
	return 'The service answered in a way the node does not expect. Check the Base URL and the token in the Crew API credential.';
}

/**
 * A failed chat request as the item's error: the status or network code, the step, the flow session
 * and the service's own message, from an answer the transport gave with every secret hidden.
 */
export function chatError(
	node: INode,
	connection: CrewConnection,
	step: ChatStep,
	answer: CrewAnswer,
	itemIndex: number,
	sessionId?: string,
): NodeApiError {
	const where = sessionId ? ` (flow session ${sessionId})` : '';
	let summary: string;
	if (answer.kind === 'network')
		summary = `The connection to the flow at ${connection.baseUrl} failed while ${STEP_WORDS[step]}${where} (${answer.code})`;
	else {
		const said = readServiceMessage(answer.body);
		summary = `The flow answered ${answer.statusCode} while ${STEP_WORDS[step]}${where}${said ? `: ${said}` : ''}`;
	}
	const message = summary;
	const error = new NodeApiError(node, { message } as JsonObject, {
		message,
		description: stepAdvice(step, answer),
		itemIndex,
		...(answer.kind === 'http' ? { httpCode: String(answer.statusCode) } : {}),
	});
	error.message = message;
	error.description = stepAdvice(step, answer);
	return error;
}

/** A turn that ended without a reply, as the item's error, naming its flow session. */
export function outcomeError(
	node: INode,
	connection: CrewConnection,
	outcome: Exclude<TurnOutcome, { kind: 'replied' }>,
	itemIndex: number,
	sessionId: string,
	timeoutSeconds: number,
): Error {
	switch (outcome.kind) {
		case 'failed':
			return new NodeOperationError(
				node,
				`The flow's turn failed (flow session ${sessionId}): ${outcome.reason}`,
				{
					itemIndex,
					description:
						'The flow could not answer this message. Fix the cause the flow gave, then send the message again: the session keeps the conversation.',
				},
			);
		case 'timeout':
			return new NodeOperationError(
				node,
				`The flow did not reply within ${timeoutSeconds} seconds (flow session ${sessionId})`,
				{
					itemIndex,
					description: `The turn may still finish. Its reply will be the last assistant message of GET /chat/${sessionId}/history; the next message to this session first waits for it. Raise the Timeout option for longer turns.`,
				},
			);
		case 'uncertainSend':
			return chatError(node, connection, 'message', outcome.answer, itemIndex, sessionId);
		case 'refused':
			return chatError(node, connection, outcome.step, outcome.answer, itemIndex, sessionId);
		case 'unreadableHistory':
			return new NodeOperationError(
				node,
				`The flow's history could not be read (flow session ${sessionId})`,
				{
					itemIndex,
					description:
						"The service answered in a way the node does not expect. Check the Base URL in the Crew API credential: it must be a conversational flow's own API address.",
				},
			);
		case 'cancelled':
			return new NodeOperationError(
				node,
				`The execution was stopped while the flow answered (flow session ${sessionId})`,
				{
					itemIndex,
					description: 'The turn may still finish in the flow session.',
				},
			);
	}
}
