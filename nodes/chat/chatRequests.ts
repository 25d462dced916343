import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isSuccess, sendCrewRequest } from '../transport';
import type { CrewConnection } from '../transport';
import type { Sleep } from '../execution/cancellableSleep';
import { retryPassingFailures } from '../transport/retryReads';
import { isConversationalFlow } from './capability';
import { chatError } from './chatErrors';
import { openCrewEventStream } from './eventStream';
import type { ChatRequests } from './turn';

/**
 * What a read of the chat API needs to be sent again: a sleep, and whether the execution was
 * stopped.
 */
export interface ReadRetry {
	sleep: Sleep;
	isCancelled: () => boolean;
}

/** A conversational flow deployment's chat API, addressed with the Crew API credential. */
export function chatRequests(
	context: IExecuteFunctions,
	connection: CrewConnection,
	sessionId: string,
	message: string,
	tools: ReadRetry,
): ChatRequests {
	const session = `/chat/${encodeURIComponent(sessionId)}`;
	return {
		readHistory: async () =>
			await retryPassingFailures(
				async () =>
					await sendCrewRequest(context, connection, { method: 'GET', path: `${session}/history` }),
				tools.sleep,
				tools.isCancelled,
			),
		// One attempt, whatever happens: a second POST would be a second turn.
		sendMessage: async () =>
			await sendCrewRequest(context, connection, {
				method: 'POST',
				path: `${session}/message`,
				body: { message, stream: true },
			}),
		openStream: async (lastEventId, idleMs) =>
			await openCrewEventStream(
				context,
				connection,
				`${session}/stream/events?events=*&last_event_id=${encodeURIComponent(lastEventId)}`,
				idleMs,
			),
	};
}

/** Refuses a deployment that is not a conversational flow, before any message is sent. */
export async function checkConversational(
	context: IExecuteFunctions,
	connection: CrewConnection,
	itemIndex: number,
	tools: ReadRetry,
) {
	const answer = await retryPassingFailures(
		async () => await sendCrewRequest(context, connection, { method: 'GET', path: '/inspect' }),
		tools.sleep,
		tools.isCancelled,
	);
	const notConversational = () =>
		new NodeOperationError(
			context.getNode(),
			'This deployment is not a conversational flow; use Kickoff',
			{
				itemIndex,
				description: `The deployment at ${connection.baseUrl} does not report flow.chat.conversational and flow.chat.handle_turn in its /inspect. Crews and other flows run with the Crew resource's Kickoff or Kickoff and Wait; for chat, deploy a conversational flow and use its Base URL.`,
			},
		);
	if (answer.kind === 'http' && answer.statusCode === 404) throw notConversational();
	if (!isSuccess(answer))
		throw chatError(context.getNode(), connection, 'inspect', answer, itemIndex);
	if (!isConversationalFlow(answer.body)) throw notConversational();
}

/** A new flow session's ID, as the flow gives it. */
export async function startSession(
	context: IExecuteFunctions,
	connection: CrewConnection,
	itemIndex: number,
): Promise<string> {
	// A session no message has reached yet costs nothing if lost, so a failed start is simply
	// reported.
	const answer = await sendCrewRequest(context, connection, {
		method: 'POST',
		path: '/chat/start',
		body: {},
	});
	if (!isSuccess(answer))
		throw chatError(context.getNode(), connection, 'start', answer, itemIndex);
	const sessionId = (answer.body as IDataObject | undefined)?.session_id;
	if (typeof sessionId !== 'string' || sessionId === '') {
		throw new NodeOperationError(
			context.getNode(),
			'The flow started a session but gave no session_id',
			{
				itemIndex,
				description:
					'The service answered in a way the node does not expect. Check the Base URL in the Crew API credential.',
			},
		);
	}
	return sessionId;
}
