'use strict';
// Chat with a conversational flow in a real n8n: the example workflow
// (examples/chat-with-a-conversational-flow.json: a public Chat Trigger, streaming → Crew,
// Conversation → Send Message) published, driven over n8n's public chat endpoint as n8n's chat
// widget does (POST /webhook/<webhookId>/chat {action: "sendMessage", sessionId, chatInput}),
// against the reference service's conversational flow (test/crew-service/chat.js).
//
//   node test/e2e/run.js --only chat [--n8n 2|1|all]
//
// Per major, on the shared n8n: the example (its credential placeholder set to the organization
// credential) and a copy whose Chat Trigger answers "When Last Node Finishes", and:
//   streamed: the flow's turn is held by the service until the person has received its whole
//     text, so the text chunks provably arrive before the turn ends; the whole reply after;
//   a second message in the same chat session continues the flow session ("Reply 2");
//   streaming off: the response's `output` is the reply, and another chat gets its own session;
//   n8n restarted between two messages of one chat: the same flow session answers;
//   a person's second "yes" while the first "yes" is still being answered: a second message, sent
//     once the first turn ended (the turn held until the second execution waits on it);
//   no token in what the clients received or in n8n's logs.

const { waitForWebhook } = require('../lib/webhookReady');
const { sleep, until } = require('../lib/until');
const { postAndReadLines } = require('../lib/lines');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { CREDENTIALS, EXAMPLES_DIR } = require('../lib/fixtures');
const { say } = require('../lib/report');
const { assertNoToken, assertNoTokenInN8n } = require('../lib/tokens');

const EXAMPLE_FILE = path.join(EXAMPLES_DIR, 'chat-with-a-conversational-flow.json');
const CREW_NODE = 'Send Message to the Flow';

const replyTo = (n, message) =>
	`Reply ${n} to "${message}": this session has ${n} message${n === 1 ? '' : 's'} from you.`;

/** The example as a user imports it, with a credential chosen; and a copy answering with the last node. */
function loadWorkflows() {
	const streaming = JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8'));
	const crewNode = streaming.nodes.find((n) => n.type === 'n8n-nodes-crewai.crew');
	assert.equal(
		crewNode.credentials.crewApi.id,
		'REPLACE_WITH_YOUR_CREW_API_CREDENTIAL',
		'the example keeps its credential placeholder',
	);
	crewNode.credentials.crewApi = { ...CREDENTIALS.organization };
	// The examples suite publishes the example itself on the same n8n: this copy listens under a
	// webhookId of its own, or the second Chat Trigger to go live would clash with the first.
	streaming.nodes[0].webhookId = `${streaming.nodes[0].webhookId.slice(0, -4)}5c0e`;
	const lastNode = JSON.parse(JSON.stringify(streaming));
	lastNode.id = `${streaming.id.slice(0, -2)}n1`;
	lastNode.name = `${streaming.name} (When Last Node Finishes)`;
	lastNode.nodes[0].parameters.options.responseMode = 'lastNode';
	lastNode.nodes[0].webhookId = `${streaming.nodes[0].webhookId.slice(0, -4)}0ff1`;
	for (const n of lastNode.nodes) n.id = `${n.id.slice(0, -2)}n1`;
	return { streaming, lastNode };
}

/** POSTs a chat message as n8n's chat widget does, reading the answer line by line as it arrives. */
function sendChat(baseUrl, workflow, sessionId, chatInput, onLine) {
	return postAndReadLines(
		`${baseUrl}/webhook/${workflow.nodes[0].webhookId}/chat`,
		{ action: 'sendMessage', sessionId, chatInput },
		{ onLine },
	);
}

const parseChunks = (lines) =>
	lines.map(({ at, line }) => {
		try {
			return { at, ...JSON.parse(line) };
		} catch {
			return { at, type: 'unparsed', content: line };
		}
	});

async function run(t) {
	const { check } = t;
	const stack = { n8n: t.n8n, crew: t.crew, workflows: t.workflows, tokens: t.tokens };
	const ctx = { baseUrl: t.baseUrl };
	const webhooksServed = async () => {
		for (const workflow of Object.values(stack.workflows)) {
			// n8n 1.x answers readiness before all its routes are up, and may drop a connection meanwhile.
			const deadline = Date.now() + 120000;
			for (;;) {
				try {
					await waitForWebhook(
						ctx.baseUrl,
						`${workflow.nodes[0].webhookId}/chat`,
						'POST',
						stack.n8n.server.proc,
					);
					break;
				} catch (err) {
					if (!/fetch failed/.test(String(err && err.message)) || Date.now() > deadline) throw err;
					await sleep(500);
				}
			}
		}
	};
	const ready = await check(
		'the example chat workflow (streaming) and its "When Last Node Finishes" copy published on the shared n8n',
		async () => {
			for (const key of Object.keys(stack.workflows)) await t.publish(key);
			await webhooksServed();
		},
	);
	if (!ready) return;
	const { crew, workflows, tokens } = stack;
	const admin = async (method, route, body) => {
		const res = await fetch(`${crew.url}/_reference/${route}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return await res.json();
	};
	const sessions = () => admin('GET', 'chat/sessions');

	await check(
		'streamed: the text chunks reach the person before the turn ends, the whole reply after',
		async () => {
			await crew.configure({ chat: { hold: true } });
			const seen = [];
			let released = false;
			const answer = await sendChat(
				ctx.baseUrl,
				workflows.streaming,
				'chat-one',
				'Hello flow',
				async (line, lines) => {
					const chunk = JSON.parse(line);
					if (chunk.type !== 'item' || chunk.metadata?.nodeName !== CREW_NODE) return;
					const [session] = await sessions();
					seen.push({ content: chunk.content, turnActive: session.activeKickoffId !== null });
					const told = parseChunks(lines)
						.filter((c) => c.type === 'item' && c.metadata?.nodeName === CREW_NODE)
						.map((c) => c.content)
						.join('');
					// The turn ends only now, once the person has the whole text.
					if (!released && told === replyTo(1, 'Hello flow')) {
						released = true;
						await admin('POST', 'chat/release', {});
					}
				},
			);
			assert.equal(answer.status, 200, answer.text.slice(0, 300));
			assertNoToken(answer.text, tokens, 'the streamed chat response');
			const crewChunks = parseChunks(answer.lines).filter(
				(c) => c.metadata?.nodeName === CREW_NODE,
			);
			assert.equal(crewChunks[0]?.type, 'begin', answer.text.slice(0, 500));
			assert.equal(crewChunks.at(-1).type, 'end');
			assert.ok(seen.length >= 5, `only ${seen.length} text chunks`);
			assert.ok(
				seen.every((s) => s.turnActive),
				"every text chunk arrived while the flow's turn was still running",
			);
			assert.equal(seen.map((s) => s.content).join(''), replyTo(1, 'Hello flow'));
			const [session] = await sessions();
			assert.equal(session.activeKickoffId, null, 'the turn ended');
			assert.equal(session.messages.at(-1).content, replyTo(1, 'Hello flow'));
			ctx.firstSession = session.id;
			say(
				`    ${seen.length} text chunks while the turn ran, then the turn's end; the reply: ${JSON.stringify(seen.map((s) => s.content).join(''))}`,
			);
		},
	);

	await check('a second message in the same chat session continues the flow session', async () => {
		await crew.configure({ chat: {} });
		const answer = await sendChat(ctx.baseUrl, workflows.streaming, 'chat-one', 'Second message');
		const told = parseChunks(answer.lines)
			.filter((c) => c.type === 'item' && c.metadata?.nodeName === CREW_NODE)
			.map((c) => c.content)
			.join('');
		assert.equal(told, replyTo(2, 'Second message'));
		const all = await sessions();
		assert.equal(all.length, 1, 'one flow session');
		assert.equal(all[0].id, ctx.firstSession);
		assert.deepEqual(
			all[0].messages.filter((m) => m.role === 'user').map((m) => m.content),
			['Hello flow', 'Second message'],
		);
		const posts = (await crew.requests()).filter((r) => r.route === 'chatMessage');
		assert.equal(posts.length, 2, 'each message sent once');
	});

	await check(
		'streaming off ("When Last Node Finishes"): the response\'s output is the reply; another chat gets its own session',
		async () => {
			const answer = await sendChat(ctx.baseUrl, workflows.lastNode, 'chat-two', 'No streaming');
			assert.equal(answer.status, 200, answer.text.slice(0, 300));
			assertNoToken(answer.text, tokens, 'the chat response');
			const body = JSON.parse(answer.text);
			assert.equal(body.output, replyTo(1, 'No streaming'));
			assert.notEqual(body.flow_session_id, ctx.firstSession);
			assert.equal(typeof body.frame_count, 'number');
			ctx.secondSession = body.flow_session_id;
			assert.equal((await sessions()).length, 2);
		},
	);

	await check(
		'n8n restarted between two messages of one chat: the same flow session answers',
		async () => {
			await t.restartN8n();
			await webhooksServed();
			const answer = await sendChat(
				ctx.baseUrl,
				workflows.lastNode,
				'chat-two',
				'After the restart',
			);
			assert.equal(answer.status, 200, answer.text.slice(0, 300));
			const body = JSON.parse(answer.text);
			assert.equal(body.flow_session_id, ctx.secondSession);
			assert.equal(body.output, replyTo(2, 'After the restart'));
			assert.equal((await sessions()).length, 2, 'no new flow session');
		},
	);

	await check(
		'a second "yes" while the first "yes" is still being answered: sent as a second message, after the first turn',
		async () => {
			await crew.configure({ chat: {} });
			const opened = await sendChat(ctx.baseUrl, workflows.lastNode, 'chat-yes', 'Start');
			const sessionId = JSON.parse(opened.text).flow_session_id;
			const session = async () => (await sessions()).find((each) => each.id === sessionId);
			const streams = async () =>
				(await crew.requests()).filter((r) => r.route === 'chatStream').length;
			await crew.configure({ chat: { hold: true } });
			const firstYes = sendChat(ctx.baseUrl, workflows.lastNode, 'chat-yes', 'yes');
			await until(
				'the first "yes" being answered',
				async () => (await session()).activeKickoffId !== null,
				30000,
				100,
			);
			const attached = (await streams()) + 1;
			const secondYes = sendChat(ctx.baseUrl, workflows.lastNode, 'chat-yes', 'yes');
			// The second execution found the first turn running and waits on it: only then does that turn end.
			await until(
				'the second execution waiting on the first turn',
				async () => (await streams()) >= attached,
				30000,
				100,
			);
			await crew.configure({ chat: {} });
			await admin('POST', 'chat/release', {});
			const [first, second] = await Promise.all([firstYes, secondYes]);
			assert.equal(JSON.parse(first.text).output, replyTo(2, 'yes'), first.text.slice(0, 300));
			assert.equal(JSON.parse(second.text).output, replyTo(3, 'yes'), second.text.slice(0, 300));
			assert.deepEqual(
				(await session()).messages.filter((m) => m.role === 'user').map((m) => m.content),
				['Start', 'yes', 'yes'],
			);
		},
	);

	await check("no token in clear in n8n's logs", async () => {
		assertNoTokenInN8n(stack.n8n, tokens);
	});
}

module.exports = {
	name: 'chat',
	title: 'Chat with a conversational flow',
	majors: ['1', '2'],
	seconds: 25,
	needs: { server: true },
	workflows: () => loadWorkflows(),
	run,
};
