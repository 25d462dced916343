/**
 * Conversation → Send Message through n8n's real engine against the reference
 * service's conversational flow (test/crew-service/chatApi.js): one flow session per
 * conversation key, kept in the workflow's static data as n8n keeps it; a turn
 * read from its frames, resumed after a cut, never sent twice; the reply from
 * the flow's history.
 */
import type { IDataObject, INodeExecutionData, StructuredChunk } from 'n8n-workflow';

import { STREAM_RETRY_WAIT_MS } from '../../nodes/chat/turn';
import { Crew } from '../../nodes/Crew/Crew.node';
import { FLOW_SESSION_FIELD } from '../../nodes/Crew/actions/conversation/sendMessage.operation';
import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewWorkflow } from '../helpers/crewWorkflow';
import type { StreamingSetup } from '../helpers/crewWorkflow';

const crew = useCrewService({ chat: {} });

/** What n8n's Chat Trigger hands the next node. */
const chatItem = (chatInput: string, sessionId = 'chat-session-A'): INodeExecutionData => ({
	json: { sessionId, action: 'sendMessage', chatInput },
});

const sendMessage = (options: IDataObject = {}) => ({
	resource: 'conversation',
	operation: 'sendMessage',
	message: '={{ $json.chatInput }}',
	conversationKey: '={{ $json.sessionId }}',
	conversationOptions: { timeout: 20, ...options },
});

/** The workflow's saved static data, as n8n keeps it in the database between executions. */
const newWorkflowStore = () => ({ value: {} as IDataObject });

const messagePosts = () =>
	crew.service.requests.filter((entry) => entry.route === 'chatMessage').length;

async function send(
	store: { value: IDataObject },
	chatInput: string,
	sessionId?: string,
	extra: { options?: IDataObject; streaming?: StreamingSetup; continueOnFail?: boolean } = {},
) {
	return await runCrewWorkflow({
		parameters: sendMessage(extra.options),
		credentials: crew.credentials,
		items: [chatItem(chatInput, sessionId)],
		savedStaticData: store,
		continueOnFail: extra.continueOnFail,
		streaming: extra.streaming,
	});
}

function streamingChat(onChunk: (chunk: StructuredChunk) => void = () => {}): {
	streaming: StreamingSetup;
	chunks: StructuredChunk[];
} {
	const chunks: StructuredChunk[] = [];
	return {
		chunks,
		streaming: {
			streamingEnabled: true,
			mode: 'webhook',
			onChunk: (chunk) => {
				chunks.push(chunk);
				onChunk(chunk);
			},
		},
	};
}

/** A turn's frames: started, a runtime event, one per word of the reply, completed. */
const framesOf = (reply: unknown) => String(reply).split(/\s+/).length + 3;

const textOf = (chunks: StructuredChunk[]) =>
	chunks
		.filter((chunk) => chunk.type === 'item')
		.map((chunk) => chunk.content)
		.join('');

beforeEach(() => {
	crew.service.configure({ chat: {} });
});

describe('one flow session per conversation', () => {
	it('two messages with one conversation key reach one flow session, whose history holds both', async () => {
		const store = newWorkflowStore();
		const first = await send(store, 'Hello');
		const second = await send(store, 'And again');
		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();

		const [session] = crew.service.chatSessions;
		expect(crew.service.chatSessions).toHaveLength(1);
		expect(first.output).toEqual([
			{
				json: {
					output: 'Reply 1 to "Hello": this session has 1 message from you.',
					flow_session_id: session.id,
					frame_count: expect.any(Number),
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(second.output[0].json).toEqual({
			output: 'Reply 2 to "And again": this session has 2 messages from you.',
			flow_session_id: session.id,
			frame_count: expect.any(Number),
		});
		expect(session.messages.map((message) => [message.role, message.content])).toEqual([
			['user', 'Hello'],
			['assistant', 'Reply 1 to "Hello": this session has 1 message from you.'],
			['user', 'And again'],
			['assistant', 'Reply 2 to "And again": this session has 2 messages from you.'],
		]);
		expect(crew.service.count('chatStart')).toBe(1);
		expect(messagePosts()).toBe(2);
		// Every frame of the turn counted once.
		expect(second.output[0].json.frame_count).toBe(framesOf(second.output[0].json.output));
		expect(second.output[0].json.frame_count).toBe(15);
	});

	it('a second conversation key gets its own session; the first keeps its own', async () => {
		const store = newWorkflowStore();
		const a1 = await send(store, 'Hi from A', 'chat-A');
		const b1 = await send(store, 'Hi from B', 'chat-B');
		const a2 = await send(store, 'A again', 'chat-A');
		expect(crew.service.chatSessions).toHaveLength(2);
		expect(b1.output[0].json.flow_session_id).not.toBe(a1.output[0].json.flow_session_id);
		expect(a2.output[0].json.flow_session_id).toBe(a1.output[0].json.flow_session_id);
		expect(b1.output[0].json.output).toBe(
			'Reply 1 to "Hi from B": this session has 1 message from you.',
		);
		expect(a2.output[0].json.output).toBe(
			'Reply 2 to "A again": this session has 2 messages from you.',
		);
	});

	it("the session is kept in the workflow's saved static data: a new process (n8n restarted) loading it continues the conversation", async () => {
		const store = newWorkflowStore();
		const first = await send(store, 'Before the restart');
		// All a restarted n8n has is the workflow's row: a copy of the saved static data.
		const afterRestart = { value: JSON.parse(JSON.stringify(store.value)) as IDataObject };
		const second = await send(afterRestart, 'After the restart');
		expect(second.output[0].json.flow_session_id).toBe(first.output[0].json.flow_session_id);
		expect(second.output[0].json.output).toMatch(/^Reply 2 /);
	});

	it('without saved static data (nothing kept), each execution starts a new session', async () => {
		const first = await send(newWorkflowStore(), 'One');
		const second = await send(newWorkflowStore(), 'Two');
		expect(second.output[0].json.flow_session_id).not.toBe(first.output[0].json.flow_session_id);
	});

	it('Flow Session ID sends to that session, whatever the conversation key', async () => {
		const first = await send(newWorkflowStore(), 'First');
		const sessionId = first.output[0].json.flow_session_id as string;
		const second = await send(newWorkflowStore(), 'Second', 'another-chat', {
			options: { flowSessionId: sessionId },
		});
		expect(second.output[0].json).toEqual({
			output: 'Reply 2 to "Second": this session has 2 messages from you.',
			flow_session_id: sessionId,
			frame_count: 14,
		});
		expect(crew.service.count('chatStart')).toBe(1);
	});

	it('a remembered session the flow no longer knows: a new session, the message sent once', async () => {
		const store = newWorkflowStore();
		await send(store, 'First');
		crew.service.reset();
		crew.service.configure({ chat: {} });
		const second = await send(store, 'After the flow forgot');
		expect(second.error).toBeUndefined();
		expect(second.output[0].json.output).toBe(
			'Reply 1 to "After the flow forgot": this session has 1 message from you.',
		);
		expect(messagePosts()).toBe(1);
	});
});

describe('the flow session kept by the workflow (queue mode, n8n Cloud)', () => {
	// A queue-mode worker runs each new execution without the workflow's saved static data, as a
	// fresh store here; the workflow keeps the output's flow_session_id (a Data Table row in the
	// chat guide's example) and hands it back in Flow Session ID.
	it('each message with nothing remembered, the kept flow_session_id handed back: one flow session holds the whole conversation', async () => {
		const kept: Record<string, string> = {};
		const message = async (chatInput: string, chat: string) => {
			const { output, error } = await send(newWorkflowStore(), chatInput, chat, {
				options: { flowSessionId: kept[chat] ?? '' },
			});
			expect(error).toBeUndefined();
			kept[chat] = output[0].json.flow_session_id as string;
			return output[0].json;
		};
		const a1 = await message('First from A', 'chat-A');
		const b1 = await message('First from B', 'chat-B');
		const a2 = await message('Second from A', 'chat-A');
		expect(a2).toEqual({
			output: 'Reply 2 to "Second from A": this session has 2 messages from you.',
			flow_session_id: a1.flow_session_id,
			frame_count: expect.any(Number),
		});
		expect(b1.flow_session_id).not.toBe(a1.flow_session_id);
		expect(crew.service.chatSessions).toHaveLength(2);
		expect(crew.service.count('chatStart')).toBe(2);
		expect(
			crew.service.chatSessions
				.find((session) => session.id === a1.flow_session_id)
				?.messages.filter((m) => m.role === 'user')
				.map((m) => m.content),
		).toEqual(['First from A', 'Second from A']);
	});

	it('an empty Flow Session ID (an expression on a chat with no kept row) falls back to what the node remembers', async () => {
		const store = newWorkflowStore();
		const first = await send(store, 'One', 'chat-A', {
			options: { flowSessionId: '={{ $json.nothingKept }}' },
		});
		const second = await send(store, 'Two', 'chat-A', { options: { flowSessionId: '' } });
		expect(second.output[0].json.flow_session_id).toBe(first.output[0].json.flow_session_id);
		expect(second.output[0].json.output).toMatch(/^Reply 2 /);
	});

	it('a kept Flow Session ID the flow no longer knows: a new session, named in flow_session_id, the message sent once', async () => {
		const first = await send(newWorkflowStore(), 'First');
		const gone = first.output[0].json.flow_session_id as string;
		crew.service.reset();
		crew.service.configure({ chat: {} });
		const second = await send(newWorkflowStore(), 'After the flow forgot', 'chat-A', {
			options: { flowSessionId: gone },
		});
		expect(second.error).toBeUndefined();
		const [session] = crew.service.chatSessions;
		expect(second.output[0].json).toEqual({
			output: 'Reply 1 to "After the flow forgot": this session has 1 message from you.',
			flow_session_id: session.id,
			frame_count: expect.any(Number),
		});
		expect(session.id).not.toBe(gone);
		expect(messagePosts()).toBe(1);
	});
});

describe('a turn read from its frames', () => {
	it('a turn over before the node could attach to its stream (every attach answered 409): the reply from the history is streamed whole, once', async () => {
		crew.service.injectFault({ route: 'chatStream', kind: 'status', status: 409, times: 1000 });
		const { streaming, chunks } = streamingChat();
		const { output, error } = await send(newWorkflowStore(), 'Too fast', undefined, { streaming });
		expect(error).toBeUndefined();
		const reply = 'Reply 1 to "Too fast": this session has 1 message from you.';
		expect(output[0].json).toMatchObject({ output: reply, frame_count: 0 });
		expect(chunks.map((chunk) => chunk.type)).toEqual(['begin', 'item', 'end']);
		expect(textOf(chunks)).toBe(reply);
		expect(messagePosts()).toBe(1);
	});

	it('a stream cut mid-turn is resumed from its last frame id: no text lost or repeated, the message sent once', async () => {
		crew.service.configure({ chat: { cutStreamAfterFrames: 5 } });
		const { streaming, chunks } = streamingChat();
		const { output, error } = await send(newWorkflowStore(), 'Cut me', undefined, { streaming });
		expect(error).toBeUndefined();
		const reply = 'Reply 1 to "Cut me": this session has 1 message from you.';
		expect(output[0].json.output).toBe(reply);
		expect(textOf(chunks)).toBe(reply);
		expect(messagePosts()).toBe(1);
		const streams = crew.service.requests.filter((entry) => entry.route === 'chatStream');
		expect(streams).toHaveLength(2);
		// From the last frame that came through before the cut (the fifth, unless the cut swallowed it), not from the start.
		expect(streams[1].path).toMatch(/last_event_id=1-[45]$/);
		expect(output[0].json.frame_count).toBe(framesOf(reply));
	});

	it('a resumed stream that sends the last frame again: the repeat is dropped', async () => {
		crew.service.configure({ chat: { cutStreamAfterFrames: 7, inclusiveResume: true } });
		const { streaming, chunks } = streamingChat();
		const { output } = await send(newWorkflowStore(), 'Repeat once', undefined, { streaming });
		expect(textOf(chunks)).toBe(output[0].json.output);
		expect(output[0].json.frame_count).toBe(framesOf(output[0].json.output));
		expect(crew.service.requests.filter((entry) => entry.route === 'chatStream')).toHaveLength(2);
	});

	it('a stream that closes with nothing in it is asked again after a pause, not at once; the message sent once', async () => {
		crew.service.configure({ chat: { hold: true } });
		crew.service.injectFault({ route: 'chatStream', kind: 'emptyBody', times: 2 });
		const streamRequests = () =>
			crew.service.requests.filter((entry) => entry.route === 'chatStream').length;
		// The turn runs on (held) until the node's third stream request, which then reads it to the end.
		const releasing = (async () => {
			while (streamRequests() < 3) await new Promise((resolve) => setImmediate(resolve));
			crew.service.releaseTurns();
		})();
		const { output, error } = await send(newWorkflowStore(), 'Empty streams');
		await releasing;
		expect(error).toBeUndefined();
		expect(output[0].json.output).toBe(
			'Reply 1 to "Empty streams": this session has 1 message from you.',
		);
		const streams = crew.service.requests.filter((entry) => entry.route === 'chatStream');
		expect(streams).toHaveLength(3);
		// The service's log clock is real time here: the node waited STREAM_RETRY_WAIT_MS between the empty streams.
		expect(streams[1].at - streams[0].at).toBeGreaterThanOrEqual(STREAM_RETRY_WAIT_MS - 50);
		expect(streams[2].at - streams[1].at).toBeGreaterThanOrEqual(STREAM_RETRY_WAIT_MS - 50);
		expect(messagePosts()).toBe(1);
	});

	it('token and llm_stream_chunk in one turn: the text is told once', async () => {
		crew.service.configure({ chat: { textFrames: 'both' } });
		const { streaming, chunks } = streamingChat();
		const { output } = await send(newWorkflowStore(), 'Both kinds', undefined, { streaming });
		expect(output[0].json.output).toBe(
			'Reply 1 to "Both kinds": this session has 1 message from you.',
		);
		expect(textOf(chunks)).toBe(output[0].json.output);
	});

	it.each(['llm_stream_chunk', 'token'] as const)(
		'only %s frames: the reply streams and is returned',
		async (textFrames) => {
			crew.service.configure({ chat: { textFrames } });
			const { streaming, chunks } = streamingChat();
			const { output } = await send(newWorkflowStore(), 'One kind', undefined, { streaming });
			expect(textOf(chunks)).toBe(output[0].json.output);
		},
	);

	it('text only at the end of the turn (as the vendor saw live): the reply still comes from the history', async () => {
		crew.service.configure({ chat: { textAtEnd: true } });
		const { output } = await send(newWorkflowStore(), 'Late text');
		expect(output[0].json.output).toBe(
			'Reply 1 to "Late text": this session has 1 message from you.',
		);
	});

	it("a failing turn is an error item naming the flow's reason", async () => {
		crew.service.configure({ chat: { failTurn: 'LLM provider rejected the API key' } });
		const { output } = await send(newWorkflowStore(), 'Fail please', undefined, {
			continueOnFail: true,
		});
		const sessionId = crew.service.chatSessions[0].id;
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json.error).toBe(
			`The flow's turn failed (flow session ${sessionId}): LLM provider rejected the API key`,
		);
		expect(messagePosts()).toBe(1);
	});

	it('a failing turn stops the workflow without Continue On Fail, with the reason and what to do', async () => {
		crew.service.configure({ chat: { failTurn: 'Tool crashed' } });
		const { error } = await send(newWorkflowStore(), 'Fail please');
		expect(error?.message).toContain('Tool crashed');
		expect(error?.description).toContain('send the message again');
	});

	it('a timeout says the turn may still finish and where its reply will be', async () => {
		crew.service.configure({ chat: { hold: true } });
		const { error } = await send(newWorkflowStore(), 'Slow', undefined, {
			options: { timeout: 1 },
		});
		const sessionId = crew.service.chatSessions[0].id;
		expect(error?.message).toBe(
			`The flow did not reply within 1 seconds (flow session ${sessionId})`,
		);
		expect(error?.description).toContain('may still finish');
		expect(error?.description).toContain(`/chat/${sessionId}/history`);
		crew.service.releaseTurns();
	});

	it('the next message waits for a turn still running (after a timeout) and is then sent: one turn at a time', async () => {
		crew.service.configure({ chat: { hold: true } });
		const store = newWorkflowStore();
		await send(store, 'Slow', undefined, { options: { timeout: 1 } });
		crew.service.configure({ chat: {} });
		// The held turn ends once the next execution is attached to it (its stream request is the second).
		const streamRequests = () =>
			crew.service.requests.filter((entry) => entry.route === 'chatStream').length;
		const releasing = (async () => {
			while (streamRequests() < 2) await new Promise((resolve) => setImmediate(resolve));
			crew.service.releaseTurns();
		})();
		const next = await send(store, 'Next');
		await releasing;
		expect(next.error).toBeUndefined();
		expect(next.output[0].json.output).toBe(
			'Reply 2 to "Next": this session has 2 messages from you.',
		);
		expect(messagePosts()).toBe(2);
	});
});

describe('a repeated execution is known by the execution, not by the text', () => {
	const streamRequests = () =>
		crew.service.requests.filter((entry) => entry.route === 'chatStream').length;
	/** Ends the held turn once `count` stream requests came: the next execution or try is attached to it by then. */
	const releaseAtStream = async (count: number) => {
		while (streamRequests() < count) await new Promise((resolve) => setImmediate(resolve));
		crew.service.releaseTurns();
	};

	it('a person\'s second "yes" while the first "yes"\'s turn still runs is sent as a second message, after that turn ends', async () => {
		crew.service.configure({ chat: { hold: true } });
		const store = newWorkflowStore();
		await send(store, 'yes', undefined, { options: { timeout: 1 } });
		crew.service.configure({ chat: {} });
		const releasing = releaseAtStream(2);
		const second = await send(store, 'yes');
		await releasing;
		expect(second.error).toBeUndefined();
		expect(second.output[0].json.output).toBe(
			'Reply 2 to "yes": this session has 2 messages from you.',
		);
		expect(messagePosts()).toBe(2);
	});

	it("Retry On Fail's next try of the same execution follows the turn its first try sent, without sending it again", async () => {
		crew.service.configure({ chat: { hold: true } });
		const releasing = releaseAtStream(2);
		const { output, error } = await runCrewWorkflow({
			parameters: sendMessage({ timeout: 1 }),
			credentials: crew.credentials,
			items: [chatItem('yes')],
			savedStaticData: newWorkflowStore(),
			retryOnFail: { maxTries: 2 },
		});
		await releasing;
		expect(error).toBeUndefined();
		expect(output[0].json.output).toBe('Reply 1 to "yes": this session has 1 message from you.');
		expect(messagePosts()).toBe(1);
	});
});

describe('sending', () => {
	it('a send whose answer was lost but which the flow received: not sent again, the reply read as usual', async () => {
		crew.service.injectFault({ route: 'chatMessage', kind: 'reset', afterProcessing: true });
		const { output, error } = await send(newWorkflowStore(), 'Lost answer');
		expect(error).toBeUndefined();
		expect(output[0].json.output).toBe(
			'Reply 1 to "Lost answer": this session has 1 message from you.',
		);
		expect(messagePosts()).toBe(1);
	});

	it('a send that may not have arrived is reported, not retried', async () => {
		crew.service.injectFault({ route: 'chatMessage', kind: 'reset' });
		const { error } = await send(newWorkflowStore(), 'Never arrived');
		expect(error?.message).toMatch(
			/^The connection to the flow at .* failed while sending the message \(flow session [0-9a-f-]+\)/,
		);
		expect(error?.description).toContain('it was not sent again');
		expect(messagePosts()).toBe(1);
	});

	it("a 5xx on send: reported with the service's words, not retried", async () => {
		crew.service.injectFault({
			route: 'chatMessage',
			kind: 'status',
			status: 502,
			body: '{"detail": "Bad gateway upstream"}',
		});
		const { error } = await send(newWorkflowStore(), 'Gateway');
		expect(error?.message).toContain('The flow answered 502 while sending the message');
		expect(error?.message).toContain('Bad gateway upstream');
		expect(messagePosts()).toBe(1);
	});

	it('history reads ride out a flaky network', async () => {
		crew.service.injectFault({ route: 'chatHistory', kind: 'status', status: 503 });
		const { output, error } = await send(newWorkflowStore(), 'Flaky');
		expect(error).toBeUndefined();
		expect(output[0].json.output).toMatch(/^Reply 1 /);
	});

	it('an empty message is refused before anything is sent', async () => {
		const { error } = await send(newWorkflowStore(), '   ');
		expect(error?.message).toBe('Message is empty');
		expect(crew.service.requests).toHaveLength(0);
	});
});

describe('a deployment that is not a conversational flow', () => {
	it('no /inspect (a crew): refused before any message is sent', async () => {
		crew.service.configure({ chat: null });
		const { error } = await send(newWorkflowStore(), 'Hello crew');
		expect(error?.message).toBe('This deployment is not a conversational flow; use Kickoff');
		expect(crew.service.requests.map((entry) => entry.route)).toEqual(['inspect']);
	});

	it('/inspect without conversational and handle_turn: refused before any message is sent', async () => {
		crew.service.configure({ chat: { conversational: false } });
		const { error } = await send(newWorkflowStore(), 'Hello flow');
		expect(error?.message).toBe('This deployment is not a conversational flow; use Kickoff');
		expect(crew.service.requests.map((entry) => entry.route)).toEqual(['inspect']);
	});

	it('a wrong token: 401 with what to do', async () => {
		const { error } = await runCrewWorkflow({
			parameters: sendMessage(),
			credentials: { ...crew.credentials, token: 'wrong-token-1234' },
			items: [chatItem('Hi')],
		});
		expect(error?.message).toContain('The flow answered 401 while checking the deployment');
		expect(error?.description).toContain('bearer token');
	});
});

describe('streaming', () => {
	it('the text reaches the person before the turn ends; the whole reply is the output', async () => {
		crew.service.configure({ chat: { hold: true } });
		const seenWhileRunning: boolean[] = [];
		const { streaming, chunks } = streamingChat((chunk) => {
			if (chunk.type !== 'item') return;
			const [session] = crew.service.chatSessions;
			seenWhileRunning.push(session.activeKickoffId !== null);
			// The turn is held until its text has been seen here: nothing depends on speed.
			if (textOf(chunks).endsWith('from you.')) crew.service.releaseTurns();
		});
		const { output } = await send(newWorkflowStore(), 'Stream it', undefined, { streaming });
		expect(chunks[0].type).toBe('begin');
		expect(chunks.at(-1)?.type).toBe('end');
		expect(seenWhileRunning.length).toBeGreaterThan(5);
		expect(seenWhileRunning.every(Boolean)).toBe(true);
		expect(textOf(chunks)).toBe(output[0].json.output);
		expect(
			chunks.every((chunk) => chunk.metadata.nodeName === 'Crew' && chunk.metadata.itemIndex === 0),
		).toBe(true);
	});

	it('without streaming nothing is sent as chunks and the output is the same', async () => {
		const { output } = await runCrewNode({
			parameters: sendMessage(),
			credentials: crew.credentials,
			items: [chatItem('Quiet')],
			withoutStreaming: true,
		});
		expect(output[0].json.output).toBe('Reply 1 to "Quiet": this session has 1 message from you.');
	});
});

describe('the panel says the limit where people meet it', () => {
	const properties = new Crew().description.properties;
	it('Send Message shows a notice naming the output field to keep and the option to hand it back, outside the tool variant', () => {
		const notice = properties.find(
			(p) => p.type === 'notice' && p.displayOptions?.show?.operation?.includes('sendMessage'),
		);
		expect(notice?.displayName).toContain('queue mode on n8n 2.x and on n8n Cloud');
		expect(notice?.displayName).toContain(FLOW_SESSION_FIELD);
		expect(notice?.displayName).toContain('Flow Session ID');
		expect(notice?.displayOptions?.show?.['@tool']).toEqual([false]);
	});

	it('the output field the notice names is the one a reply carries', async () => {
		const { output } = await send(newWorkflowStore(), 'Name it');
		expect(Object.keys(output[0].json)).toEqual(['output', FLOW_SESSION_FIELD, 'frame_count']);
		expect(output[0].json[FLOW_SESSION_FIELD]).toBe(crew.service.chatSessions[0].id);
	});
});
