import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';

import { isConversationalFlow } from '../../../chat/capability';
import { findSession, keepSession } from '../../../chat/sessions';
import { runTurn } from '../../../chat/turn';
import type { ChatRequests, TurnOutcome } from '../../../chat/turn';
import { getCrewConnection, isSuccess, sendCrewRequest } from '../../../transport';
import type { CrewAnswer, CrewConnection } from '../../../transport';
import { scrubSecret } from '../../../transport/crewErrors';
import { openCrewEventStream } from '../../../chat/eventStream';
import { retryPassingFailures } from '../../../transport/retryReads';
import { readServiceMessage } from '../../../transport/serviceMessage';
import type { OperationTools } from '../common/operationTools';
import { isToolCall } from '../common/toolAnswer';
import { chatStream } from '../../../chat/chatStream';

const show = { operation: ['sendMessage'] };

/** The vendor's chat template caps a message here; longer ones are refused before sending. */
export const MAX_MESSAGE_LENGTH = 32_000;

export const DEFAULT_TIMEOUT_SECONDS = 120;

/**
 * The output field naming the flow session, apart from the Chat Trigger's own `sessionId`: the
 * value a workflow keeps per chat session and hands back in Flow Session ID.
 */
export const FLOW_SESSION_FIELD = 'flow_session_id';

export const description: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '={{ $json.chatInput }}',
		required: true,
		description: 'The person\'s message. The default is what n8n\'s Chat Trigger receives.',
		displayOptions: { show: { ...show, '@tool': [false] } },
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 2 },
		// As a tool the model writes the message (n8n-core builds the tool's parameters from $fromAI).
		default: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('message', 'The message to send to the conversational flow', 'string') }}",
		required: true,
		description: 'The message the model sends to the flow',
		displayOptions: { show: { ...show, '@tool': [true] } },
	},
	{
		// n8n 2.x's queue-mode workers (n8n Cloud runs on workers) start an execution without the
		// static data, so every message would start a new flow session unless the workflow keeps the ID.
		displayName:
			'In queue mode on n8n 2.x and on n8n Cloud, n8n does not give the node back the flow sessions it remembers: keep the output\'s flow_session_id per chat session (e.g. in a Data Table) and pass it back in Options → Flow Session ID, as the example in the <a href="https://github.com/n8n-nodes-crewai/n8n-nodes-crewai/blob/main/docs/chat.md#queue-mode-and-n8n-cloud" target="_blank">chat guide</a> does',
		name: 'queueModeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, '@tool': [false] } },
	},
	{
		displayName: 'Conversation Key',
		name: 'conversationKey',
		type: 'string',
		default: '={{ $json.sessionId }}',
		description:
			'Messages with the same key go to the same flow session, which holds the conversation\'s history. The default is the Chat Trigger\'s chat session. The node remembers each key\'s session in the workflow\'s static data (not in queue mode on n8n 2.x or on n8n Cloud: see the notice above); the output\'s flow_session_id lets a workflow keep it itself.',
		displayOptions: { show },
	},
	{
		displayName: 'Options',
		name: 'conversationOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Flow Session ID',
				name: 'flowSessionId',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.flow_session_id }}',
				description:
					'Send to this flow session (the flow_session_id of an earlier output, kept by the workflow) instead of the one the node remembers for the Conversation Key. Empty: the remembered one, else a new one.',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_TIMEOUT_SECONDS,
				description: 'How long to wait for the flow\'s reply. The turn goes on after a timeout; the output of a later message, or the flow session\'s history, shows its reply.',
			},
		],
	},
];

/** A conversational flow deployment's chat API, addressed with the Crew API credential. */
function chatRequests(context: IExecuteFunctions, connection: CrewConnection, sessionId: string, message: string, tools: OperationTools): ChatRequests {
	const session = `/chat/${encodeURIComponent(sessionId)}`;
	return {
		readHistory: async () =>
			await retryPassingFailures(async () => await sendCrewRequest(context, connection, { method: 'GET', path: `${session}/history` }), tools.sleep, tools.isCancelled),
		// One attempt, whatever happens: a second POST would be a second turn.
		sendMessage: async () => await sendCrewRequest(context, connection, { method: 'POST', path: `${session}/message`, body: { message, stream: true } }),
		openStream: async (lastEventId, idleMs) =>
			await openCrewEventStream(context, connection, `${session}/stream/events?events=*&last_event_id=${encodeURIComponent(lastEventId)}`, idleMs),
	};
}

const STEP_WORDS = { inspect: 'checking the deployment', start: 'starting a flow session', history: 'reading the conversation\'s history', message: 'sending the message', stream: 'reading the flow\'s reply' } as const;
type Step = keyof typeof STEP_WORDS;

function stepAdvice(step: Step, answer: CrewAnswer): string {
	if (answer.kind === 'network') {
		if (step === 'message') return 'The message may or may not have reached the flow; it was not sent again. Read the flow session\'s history before sending it again.';
		return 'Check the Base URL in the Crew API credential, and that the deployment is reachable from n8n. Run again later.';
	}
	const code = answer.statusCode;
	if (code === 401) return 'Check the bearer token in the Crew API credential. Copy the current token from the deployment\'s Status tab: resetting a token there stops the old one at once.';
	if (code === 403) return 'The token was accepted but may not chat. Use the deployment\'s Bearer Token (organization level) from its Status tab.';
	if (code === 404 && (step === 'history' || step === 'message' || step === 'stream')) return 'The flow knows no session with this ID. Clear the Flow Session ID option (or use another Conversation Key) to start a new session.';
	if (code === 404) return 'Check the Base URL in the Crew API credential: it must be the deployment\'s own API address, with no path after it.';
	if (code === 409 && step === 'message') return 'The flow session is still answering an earlier message. Send this one after that turn has ended.';
	if (code === 422 || code === 400) return 'The flow refused the message. Check that Message is a non-empty text.';
	if (code === 429) return 'The service is limiting requests. Wait a moment and send again.';
	if (code >= 500 && step === 'message') return 'The service failed; the message may or may not have reached the flow, and it was not sent again. Read the flow session\'s history before sending it again.';
	if (code >= 500) return 'The service failed. Run again later, and contact the service\'s support if this persists.';
	return 'The service answered in a way the node does not expect. Check the Base URL and the token in the Crew API credential.';
}

function chatError(context: IExecuteFunctions, connection: CrewConnection, step: Step, answer: CrewAnswer, itemIndex: number, sessionId?: string): NodeApiError {
	const where = sessionId ? ` (flow session ${sessionId})` : '';
	let summary: string;
	if (answer.kind === 'network') summary = `The connection to the flow at ${connection.baseUrl} failed while ${STEP_WORDS[step]}${where} (${answer.code})`;
	else {
		const said = readServiceMessage(answer.body);
		summary = `The flow answered ${answer.statusCode} while ${STEP_WORDS[step]}${where}${said ? `: ${said}` : ''}`;
	}
	const message = scrubSecret(summary, connection.secret);
	const error = new NodeApiError(context.getNode(), { message } as JsonObject, {
		message,
		description: stepAdvice(step, answer),
		itemIndex,
		...(answer.kind === 'http' ? { httpCode: String(answer.statusCode) } : {}),
	});
	error.message = message;
	error.description = stepAdvice(step, answer);
	return error;
}

/** Refuses a deployment that is not a conversational flow, before any message is sent. */
async function checkConversational(context: IExecuteFunctions, connection: CrewConnection, itemIndex: number, tools: OperationTools) {
	const answer = await retryPassingFailures(async () => await sendCrewRequest(context, connection, { method: 'GET', path: '/inspect' }), tools.sleep, tools.isCancelled);
	const notConversational = () =>
		new NodeOperationError(context.getNode(), 'This deployment is not a conversational flow; use Kickoff', {
			itemIndex,
			description: `The deployment at ${connection.baseUrl} does not report flow.chat.conversational and flow.chat.handle_turn in its /inspect. Crews and other flows run with the Crew resource's Kickoff or Kickoff and Wait; for chat, deploy a conversational flow and use its Base URL.`,
		});
	if (answer.kind === 'http' && answer.statusCode === 404) throw notConversational();
	if (!isSuccess(answer)) throw chatError(context, connection, 'inspect', answer, itemIndex);
	if (!isConversationalFlow(answer.body)) throw notConversational();
}

async function startSession(context: IExecuteFunctions, connection: CrewConnection, itemIndex: number): Promise<string> {
	// A session no message has reached yet costs nothing if lost, so a failed start is simply reported.
	const answer = await sendCrewRequest(context, connection, { method: 'POST', path: '/chat/start', body: {} });
	if (!isSuccess(answer)) throw chatError(context, connection, 'start', answer, itemIndex);
	const sessionId = (answer.body as IDataObject | undefined)?.session_id;
	if (typeof sessionId !== 'string' || sessionId === '') {
		throw new NodeOperationError(context.getNode(), 'The flow started a session but gave no session_id', {
			itemIndex,
			description: 'The service answered in a way the node does not expect. Check the Base URL in the Crew API credential.',
		});
	}
	return sessionId;
}

function readMessage(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('message', itemIndex, '') as unknown;
	const message = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
	if (message.trim() === '') {
		throw new NodeOperationError(context.getNode(), 'Message is empty', {
			itemIndex,
			description: 'Set Message to the text to send, e.g. {{ $json.chatInput }} after a Chat Trigger. Nothing was sent.',
		});
	}
	if (message.length > MAX_MESSAGE_LENGTH) {
		throw new NodeOperationError(context.getNode(), `Message is ${message.length} characters long; the limit is ${MAX_MESSAGE_LENGTH}`, {
			itemIndex,
			description: 'Shorten the message (the vendor\'s chat client caps it at 32,000 characters). Nothing was sent.',
		});
	}
	return message;
}

function outcomeError(context: IExecuteFunctions, connection: CrewConnection, outcome: Exclude<TurnOutcome, { kind: 'replied' }>, itemIndex: number, sessionId: string, timeoutSeconds: number): Error {
	const node = context.getNode();
	switch (outcome.kind) {
		case 'failed':
			return new NodeOperationError(node, `The flow's turn failed (flow session ${sessionId}): ${outcome.reason}`, {
				itemIndex,
				description: 'The flow could not answer this message. Fix the cause the flow gave, then send the message again: the session keeps the conversation.',
			});
		case 'timeout':
			return new NodeOperationError(node, `The flow did not reply within ${timeoutSeconds} seconds (flow session ${sessionId})`, {
				itemIndex,
				description: `The turn may still finish. Its reply will be the last assistant message of GET /chat/${sessionId}/history; the next message to this session first waits for it. Raise the Timeout option for longer turns.`,
			});
		case 'uncertainSend':
			return chatError(context, connection, 'message', outcome.answer, itemIndex, sessionId);
		case 'refused':
			return chatError(context, connection, outcome.step, outcome.answer, itemIndex, sessionId);
		case 'unreadableHistory':
			return new NodeOperationError(node, `The flow's history could not be read (flow session ${sessionId})`, {
				itemIndex,
				description: 'The service answered in a way the node does not expect. Check the Base URL in the Crew API credential: it must be a conversational flow\'s own API address.',
			});
		case 'cancelled':
			return new NodeOperationError(node, `The execution was stopped while the flow answered (flow session ${sessionId})`, {
				itemIndex,
				description: 'The turn may still finish in the flow session.',
			});
	}
}

/**
 * Sends one message to a conversational flow and returns its reply: the
 * deployment is checked first; the conversation's session is the one given,
 * else the one remembered for its key, else a new one; the turn streams its
 * text when n8n streams the execution.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const message = readMessage(this, itemIndex);
	const options = this.getNodeParameter('conversationOptions', itemIndex, {}) as { flowSessionId?: string; timeout?: number };
	const keyValue = this.getNodeParameter('conversationKey', itemIndex, '') as unknown;
	const conversationKey = typeof keyValue === 'string' || typeof keyValue === 'number' ? String(keyValue).trim() : '';
	const givenSession = String(options.flowSessionId ?? '').trim();
	const forTool = isToolCall(this.getNode().type, typeof this.isToolExecution === 'function' && this.isToolExecution());
	if (conversationKey === '' && givenSession === '' && !forTool) {
		throw new NodeOperationError(this.getNode(), 'Conversation Key is empty', {
			itemIndex,
			description:
				'Set Conversation Key to what tells conversations apart, e.g. {{ $json.sessionId }} after a Chat Trigger, or give the Flow Session ID option. Without either, the flow would forget the conversation. Nothing was sent.',
		});
	}
	const timeoutSeconds = options.timeout && options.timeout > 0 ? options.timeout : DEFAULT_TIMEOUT_SECONDS;
	const connection = await getCrewConnection(this, itemIndex);
	await checkConversational(this, connection, itemIndex, tools);

	// Kept with the workflow by n8n, which hands it to new executions only in its main process
	// (docs/development.md, "Where a conversation's flow session is kept").
	const staticData = this.getWorkflowStaticData('node');
	const remembers = givenSession === '' && conversationKey !== '';
	const remembered = remembers ? findSession(staticData, conversationKey, connection.baseUrl) : undefined;
	let sessionId = givenSession !== '' ? givenSession : (remembered ?? (await startSession(this, connection, itemIndex)));
	const remember = () => {
		if (remembers) keepSession(staticData, conversationKey, { sessionId, baseUrl: connection.baseUrl, usedAt: tools.now() });
	};
	remember();

	const stream = chatStream(this, itemIndex);
	let told = false;
	const onText = async (text: string) => {
		told = true;
		await stream.text(text);
	};
	const deadline = tools.now() + timeoutSeconds * 1000;
	const turn = async () => await runTurn(chatRequests(this, connection, sessionId, message, tools), message, { deadline, clock: tools, onText });
	let outcome = await turn();
	const known = remembered !== undefined || givenSession !== '';
	if (known && outcome.kind === 'refused' && outcome.step === 'history' && outcome.answer.kind === 'http' && outcome.answer.statusCode === 404) {
		// The flow no longer knows the session, remembered or kept by the workflow (nothing was sent to
		// it): the conversation starts anew, and the output's flow_session_id names the new session.
		sessionId = await startSession(this, connection, itemIndex);
		remember();
		outcome = await turn();
	}
	if (outcome.kind === 'replied') {
		// A turn that was over before the node could attach to its frames (a fast flow, a busy
		// worker) told the person nothing yet: the reply from the history is told whole.
		if (!told) await stream.text(outcome.reply);
		await stream.end();
		return { output: outcome.reply, [FLOW_SESSION_FIELD]: sessionId, frame_count: outcome.frameCount };
	}
	const error = outcomeError(this, connection, outcome, itemIndex, sessionId, timeoutSeconds);
	await stream.end(`${error.message}\n`);
	throw error;
}
