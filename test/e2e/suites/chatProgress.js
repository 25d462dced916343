'use strict';
// Live progress as a person reads it in n8n's own hosted chat page: a public Chat Trigger
// (hosted chat, response mode Streaming) → Kickoff and Wait on a 6 s crew of three tasks,
// driven in Debian's Chromium. The page loads n8n's chat widget (@n8n/chat) from a CDN this
// machine cannot reach; lib/chatWidget.js serves a pinned release of it instead.
//
//   node test/e2e/run.js --only chatProgress [--n8n 2|1|all] [--docs]
//
//   --docs  also writes docs/chat-progress.png from n8n 2.x's run
//
// Per major, on the shared n8n: workflows/chat/chat-progress.json published, the hosted chat
// page opened, a message typed and sent, and in the rendered page:
//   progress lines appear while the crew runs, before its answer;
//   the crew's message ends as two paragraphs: the progress, one line per thing (the kickoff ID
//     once, on the first line; each task finished once, by name; no "Task is Running"), each
//     line drawn below the one before; then the crew's answer, last, below the progress;
//   no token in the page.
// Screenshots in test/e2e/screenshots/.
//
// Needs: apt-get install -y chromium; npm ci --prefix test/e2e (playwright-core); the npm
// registry once, for the pinned @n8n/chat (kept in the e2e cache).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { waitForWebhook } = require('../lib/webhookReady');
const { WORKFLOWS_DIR } = require('../lib/fixtures');
const { serveChatWidget, CHAT } = require('../lib/chatWidget');
const { say } = require('../lib/report');
const { assertNoToken } = require('../lib/tokens');

const WORKFLOW_FILE = path.join(WORKFLOWS_DIR, 'chat', 'chat-progress.json');
const SHOTS = path.join(__dirname, '..', 'screenshots');
const DOCS = path.join(__dirname, '..', '..', '..', 'docs');
const TOPIC = 'AI agents in customer support';
// What the workflow's meta asks the reference crew to answer.
const ANSWER = `Report on ${TOPIC}: three findings, each with its source.`;
const UI_TIMEOUT = 60000;

/** The newest bot message as the page shows it: its text, and its paragraphs with each drawn line. */
async function readBotMessage(page) {
	// The typing indicator is a bot message too, drawn after the one that streams.
	const messages = page.locator('.chat-message-from-bot:not(.chat-message-typing)');
	if ((await messages.count()) === 0) return null;
	return messages.last().evaluate((message) => {
		const doc = message.ownerDocument;
		const SHOW_TEXT = 4; // NodeFilter.SHOW_TEXT
		const markdown = message.querySelector('.chat-message-markdown') ?? message;
		const paragraphs = [...markdown.children].map((block) => {
			// Each text node's box: lines split by <br> are separate text nodes, one under the other.
			const lines = [];
			const walker = doc.createTreeWalker(block, SHOW_TEXT);
			for (let node = walker.nextNode(); node; node = walker.nextNode()) {
				const text = node.textContent.trim();
				if (text === '') continue;
				const range = doc.createRange();
				range.selectNodeContents(node);
				const box = range.getBoundingClientRect();
				lines.push({ text, top: box.top, bottom: box.bottom });
			}
			const box = block.getBoundingClientRect();
			return {
				tag: block.tagName.toLowerCase(),
				text: block.innerText,
				breaks: block.querySelectorAll('br').length,
				top: box.top,
				bottom: box.bottom,
				lines,
			};
		});
		return { text: markdown.innerText, html: markdown.innerHTML, paragraphs };
	});
}

async function run(t) {
	const { major, check } = t;
	const stack = { n8n: t.n8n, crew: t.crew, workflows: t.workflows, tokens: t.tokens };
	// --docs: the docs' screenshot is n8n 2.x's.
	const docs = t.opts.docs && major === '2';
	const docsWritten = { done: false };
	let context;
	const ctx = { baseUrl: t.baseUrl };
	const ready = await check(
		'the public hosted chat (streaming) → Kickoff and Wait published on the shared n8n',
		async () => {
			await t.publish('chat');
			ctx.chatPath = `${stack.workflows.chat.nodes[0].webhookId}/chat`;
			await waitForWebhook(ctx.baseUrl, ctx.chatPath, 'POST', stack.n8n.server.proc);
		},
	);
	if (!ready) return;
	try {
		const { crew, tokens } = stack;
		await crew.configure({
			recordShape: 'contract',
			statusPaths: 'both',
			inputsShape: 'names',
			errorShape: 'documented',
			dialect: 'documented',
		});
		/** Posts a message as the widget does (n8n's chat protocol) and reads the chunks as they arrive. */
		const postMessage = async (topic, headers = {}) => {
			const res = await fetch(`${ctx.baseUrl}/webhook/${ctx.chatPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: JSON.stringify({
					action: 'sendMessage',
					sessionId: `e2e-${topic.replace(/\W/g, '-')}`,
					chatInput: topic,
				}),
			});
			assert.equal(res.status, 200);
			const arrivals = [];
			const decoder = new TextDecoder();
			let pending = '';
			for await (const part of res.body) {
				pending += decoder.decode(part, { stream: true });
				const complete = pending.split('\n');
				pending = complete.pop();
				for (const line of complete)
					if (line.trim() !== '') arrivals.push({ at: Date.now(), chunk: JSON.parse(line) });
			}
			const run = (await crew.runs()).find((r) => r.inputs.topic === topic);
			const items = arrivals.filter((a) => a.chunk.type === 'item');
			say(
				`    ${topic}: chunks (from kickoff) ${items.map((a) => `${((a.at - run.createdAt) / 1000).toFixed(1)}s`).join(', ')}; crew ${((run.completesAt - run.createdAt) / 1000).toFixed(1)} s; content-encoding ${res.headers.get('content-encoding')}`,
			);
			return { run, items };
		};

		await check(
			"the chat webhook streams: the crew's progress chunks reach a client before the crew ends",
			async () => {
				// Separates n8n's delivery from the widget's drawing when the page check below fails.
				const { run, items } = await postMessage('chat webhook');
				assert.ok(
					items.filter((a) => a.at < run.completesAt).length >= 3,
					`progress chunks before the crew ended: ${items.filter((a) => a.at < run.completesAt).length}`,
				);
				assert.ok(items.at(-1).at >= run.completesAt);
			},
		);

		await check("the same with a browser's Accept-Encoding (gzip, deflate, br)", async () => {
			const { run, items } = await postMessage('chat webhook compressed', {
				'accept-encoding': 'gzip, deflate, br',
			});
			assert.ok(
				items.filter((a) => a.at < run.completesAt).length >= 3,
				`progress chunks before the crew ended: ${items.filter((a) => a.at < run.completesAt).length}`,
			);
		});

		context = await t.browser.newContext({ viewport: { width: 900, height: 820 } });
		const page = await context.newPage();
		const shot = async (name) => {
			fs.mkdirSync(SHOTS, { recursive: true });
			const file = path.join(SHOTS, `n8n${major}-chat-${name}.png`);
			await page.screenshot({ path: file });
			say(`    screenshot ${path.relative(process.cwd(), file)}`);
			return file;
		};

		const sent = await check(
			`the hosted chat page loads n8n's chat widget (${CHAT.name} ${CHAT.version}, served locally) and sends a message`,
			async () => {
				await serveChatWidget(page);
				const res = await page.goto(`${ctx.baseUrl}/webhook/${ctx.chatPath}`);
				assert.equal(res.status(), 200);
				const input = page.locator('[data-test-id="chat-input"]');
				await input.waitFor({ timeout: UI_TIMEOUT });
				await input.fill(TOPIC);
				await input.press('Enter');
				await page
					.locator('.chat-message-from-user', { hasText: TOPIC })
					.waitFor({ timeout: UI_TIMEOUT });
			},
		);
		if (!sent) return;

		await check(
			'progress lines show while the crew runs, the answer once it has ended',
			async () => {
				// Sampled as the page draws them: what a person sees while waiting.
				const samples = [];
				const deadline = Date.now() + 90000;
				for (;;) {
					const message = await readBotMessage(page);
					if (message) samples.push({ at: Date.now(), text: message.text });
					if (message?.text.includes(ANSWER)) break;
					if (Date.now() > deadline)
						throw new Error(
							`no answer in the chat within 90 s; last: ${JSON.stringify(message?.text ?? null)}`,
						);
					await page.waitForTimeout(200);
				}
				const run = (await crew.runs()).find((r) => r.inputs.topic === TOPIC);
				assert.ok(run, 'no crew run for the message');
				ctx.run = run;
				const whileRunning = samples.filter(
					(s) => s.at < run.completesAt && /Task finished: research_task/.test(s.text),
				);
				assert.ok(
					whileRunning.length > 0,
					`no progress line was drawn before the crew ended: ${JSON.stringify(samples.map((s) => s.text.slice(0, 80)))}`,
				);
				assert.ok(
					whileRunning.every((s) => !s.text.includes(ANSWER)),
					'the answer was drawn before the crew ended',
				);
				// Before the crew's message exists, the newest bot message is the widget's greeting.
				const first = samples.find((s) => s.text.startsWith('The crew'));
				say(
					`    first line drawn ${((first.at - run.createdAt) / 1000).toFixed(1)} s after the kickoff; the crew ran ${((run.completesAt - run.createdAt) / 1000).toFixed(1)} s`,
				);
			},
		);
		if (!ctx.run) return;

		await check(
			"the crew's message: the progress one line per thing (kickoff ID once, each task once), then the answer as its own paragraph, last",
			async () => {
				await page.waitForTimeout(500); // the stream's end: nothing may follow the answer
				const message = await readBotMessage(page);
				say(`    rendered: ${message.html.replace(/\n/g, ' ').slice(0, 700)}`);
				const blocks = message.paragraphs;
				assert.deepEqual(
					blocks.map((b) => b.tag),
					['p', 'p'],
					`two paragraphs expected, got ${JSON.stringify(blocks.map((b) => [b.tag, b.text]))}`,
				);
				const [progress, answer] = blocks;
				assert.equal(answer.text.trim(), ANSWER);
				const lines = progress.lines.map((l) => l.text);
				const kickoffId = ctx.run.kickoffId;
				assert.match(
					lines[0],
					new RegExp(`^The crew (is queued|is running) \\(kickoff ID ${kickoffId}\\)$`),
				);
				assert.equal(message.text.split(kickoffId).length, 2, 'the kickoff ID is named once');
				assert.equal(
					progress.breaks,
					lines.length - 1,
					`one <br> between lines: ${JSON.stringify(lines)}`,
				);
				// The live record's events name the agent too: "Task finished: research_task by Researcher (1 of 3)".
				const finished = lines.filter((l) => l.startsWith('Task finished:'));
				assert.equal(finished.length, 3, JSON.stringify(lines));
				['research_task', 'analysis_task', 'report_task'].forEach((task, i) =>
					assert.match(
						finished[i],
						new RegExp(`^Task finished: ${task}( by [^()]+)? \\(${i + 1} of 3\\)$`),
					),
				);
				assert.equal(
					lines.filter((l) => /^Task is /.test(l)).length,
					0,
					'a status message that repeats the state is no line',
				);
				assert.equal(lines.at(-1), 'The crew completed');
				assert.equal(lines.filter((l) => l.startsWith('The crew is running')).length, 1);
				assert.equal(
					new Set(lines).size,
					lines.length,
					`a line said twice: ${JSON.stringify(lines)}`,
				);
				// Drawn as separate lines, each below the one before, and the answer below them all.
				for (let i = 1; i < progress.lines.length; i++) {
					assert.ok(
						progress.lines[i].top >= progress.lines[i - 1].bottom - 1,
						`line ${i + 1} is not drawn below line ${i}: ${JSON.stringify(progress.lines.slice(i - 1, i + 1))}`,
					);
				}
				assert.ok(answer.top > progress.bottom, 'the answer is drawn below the progress');
				assertNoToken(message.html, tokens, 'the chat page');
				say(`    lines: ${JSON.stringify(lines)}`);
				const file = await shot('progress');
				if (docs && !docsWritten.done) {
					fs.mkdirSync(DOCS, { recursive: true });
					fs.copyFileSync(file, path.join(DOCS, 'chat-progress.png'));
					docsWritten.done = true;
					say(
						`    docs screenshot ${path.relative(process.cwd(), path.join(DOCS, 'chat-progress.png'))}`,
					);
				}
			},
		);
	} finally {
		if (context) await context.close().catch(() => {});
	}
}

module.exports = {
	name: 'chatProgress',
	title: "Live progress in n8n's hosted chat page",
	majors: ['1', '2'],
	seconds: 25,
	needs: { server: true, browser: true },
	workflows: () => ({ chat: JSON.parse(fs.readFileSync(WORKFLOW_FILE, 'utf8')) }),
	run,
};
