import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { outcomeError } from '../../../chat/chatErrors';
import { chatRequests, checkConversational, startSession } from '../../../chat/chatRequests';
import { chatStream } from '../../../chat/chatStream';
import { findSession, keepSession } from '../../../chat/sessions';
import { runTurn } from '../../../chat/turn';
import { rememberSending, sentEarlier, turnMemoryOf } from '../../../chat/turnMemory';
import { getCrewConnection } from '../../../transport';
import type { OperationTools } from '../../../execution/operationTools';
import { runsAsTool } from '../../../execution/toolCall';

const show = { operation: ['sendMessage'] };

/** The vendor's chat template caps a message here; longer ones are refused before sending. */
export const MAX_MESSAGE_LENGTH = 32_000;

export const DEFAULT_TIMEOUT_SECONDS = 120;

/**
 * The output field naming the flow session, apart from the Chat Trigger's own `sessionId`: the
 * value a workflow keeps per chat session and hands back in Flow Session ID.
 */
export const FLOW_SESSION_FIELD = 'flow_session_id';

/**
 * The Message field: one for a workflow's message and one, shown only when the node is a tool, for
 * the model's.
 */
function messageField(asTool: boolean, defaultValue: string, description: string): INodeProperties {
	return {
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 2 },
		default: defaultValue,
		required: true,
		description,
		displayOptions: { show: { ...show, '@tool': [asTool] } },
	};
}

export const description: INodeProperties[] = [
	messageField(
		false,
		'={{ $json.chatInput }}',
		"The person's message. The default is what n8n's Chat Trigger receives.",
	),
	// As a tool the model writes the message (n8n-core builds the tool's parameters from $fromAI).
	messageField(
		true,
		"={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('message', 'The message to send to the conversational flow', 'string') }}",
		'The message the model sends to the flow',
	),
	{
		// n8n 2.x's queue-mode workers (n8n Cloud runs on workers) start an execution without the
		// static data, so every message would start a new flow session unless the workflow keeps the
		// ID.
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
			"Messages with the same key go to the same flow session, which holds the conversation's history. The default is the Chat Trigger's chat session. The node remembers each key's session in the workflow's static data (not in queue mode on n8n 2.x or on n8n Cloud: see the notice above); the output's flow_session_id lets a workflow keep it itself.",
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
				description:
					"How long to wait for the flow's reply. The turn goes on after a timeout; the output of a later message, or the flow session's history, shows its reply.",
			},
		],
	},
];

function readMessage(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('message', itemIndex, '') as unknown;
	const message =
		typeof value === 'string'
			? value
			: value === undefined || value === null
				? ''
				: JSON.stringify(value);
	if (message.trim() === '') {
		throw new NodeOperationError(context.getNode(), 'Message is empty', {
			itemIndex,
			description:
				'Set Message to the text to send, e.g. {{ $json.chatInput }} after a Chat Trigger. Nothing was sent.',
		});
	}
	if (message.length > MAX_MESSAGE_LENGTH) {
		throw new NodeOperationError(
			context.getNode(),
			`Message is ${message.length} characters long; the limit is ${MAX_MESSAGE_LENGTH}`,
			{
				itemIndex,
				description:
					"Shorten the message (the vendor's chat client caps it at 32,000 characters). Nothing was sent.",
			},
		);
	}
	return message;
}

/**
 * Sends one message to a conversational flow and returns its reply: the
 * deployment is checked first; the conversation's session is the one given,
 * else the one remembered for its key, else a new one; the turn streams its
 * text when n8n streams the execution.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	tools: OperationTools,
): Promise<IDataObject> {
	const message = readMessage(this, itemIndex);
	const options = this.getNodeParameter('conversationOptions', itemIndex, {}) as {
		flowSessionId?: string;
		timeout?: number;
	};
	const keyValue = this.getNodeParameter('conversationKey', itemIndex, '') as unknown;
	const conversationKey =
		typeof keyValue === 'string' || typeof keyValue === 'number' ? String(keyValue).trim() : '';
	const givenSession = String(options.flowSessionId ?? '').trim();
	const forTool = runsAsTool(this);
	if (conversationKey === '' && givenSession === '' && !forTool) {
		throw new NodeOperationError(this.getNode(), 'Conversation Key is empty', {
			itemIndex,
			description:
				'Set Conversation Key to what tells conversations apart, e.g. {{ $json.sessionId }} after a Chat Trigger, or give the Flow Session ID option. Without either, the flow would forget the conversation. Nothing was sent.',
		});
	}
	const timeoutSeconds =
		options.timeout && options.timeout > 0 ? options.timeout : DEFAULT_TIMEOUT_SECONDS;
	const connection = await getCrewConnection(this, itemIndex);
	await checkConversational(this, connection, itemIndex, tools);

	// Kept with the workflow by n8n, which hands it to new executions only in its main process
	// (docs/development.md, "Where a conversation's flow session is kept").
	const staticData = this.getWorkflowStaticData('node');
	const remembers = givenSession === '' && conversationKey !== '';
	const remembered = remembers
		? findSession(staticData, conversationKey, connection.baseUrl)
		: undefined;
	let sessionId =
		givenSession !== ''
			? givenSession
			: (remembered ?? (await startSession(this, connection, itemIndex)));
	const remember = () => {
		if (remembers)
			keepSession(staticData, conversationKey, {
				sessionId,
				baseUrl: connection.baseUrl,
				usedAt: tools.now(),
			});
	};
	remember();

	const stream = chatStream(this, itemIndex);
	let told = false;
	const onText = async (text: string) => {
		told = true;
		await stream.text(text);
	};
	const deadline = tools.now() + timeoutSeconds * 1000;
	// What an earlier try of this execution sent: a repeated execution is known by the execution, not
	// by the message's text.
	const memory = turnMemoryOf(this, itemIndex);
	const turn = async () =>
		await runTurn(chatRequests(this, connection, sessionId, message, tools), message, {
			deadline,
			clock: tools,
			onText,
			sentEarlier: memory && sentEarlier(memory.nodeContext, memory.key, sessionId),
			onSending: memory
				? (sent) => rememberSending(memory.nodeContext, memory.key, sessionId, sent)
				: undefined,
		});
	let outcome = await turn();
	const known = remembered !== undefined || givenSession !== '';
	if (
		known &&
		outcome.kind === 'refused' &&
		outcome.step === 'history' &&
		outcome.answer.kind === 'http' &&
		outcome.answer.statusCode === 404
	) {
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
		return {
			output: outcome.reply,
			[FLOW_SESSION_FIELD]: sessionId,
			frame_count: outcome.frameCount,
		};
	}
	const error = outcomeError(
		this.getNode(),
		connection,
		outcome,
		itemIndex,
		sessionId,
		timeoutSeconds,
	);
	await stream.end(`${error.message}\n`);
	throw error;
}
