'use strict';
// n8n's hosted chat page as a person uses it, in Chromium: its chat widget (@n8n/chat, served from
// the pinned release, lib/chatWidget.js) opened at a public Chat Trigger's URL, a message typed
// and sent, the bot's messages read as drawn (their text and buttons), a button clicked, and
// whether the widget lets the person send (its send button). For a Chat Trigger whose Response
// Mode is "Using Response Nodes", where the widget talks to the waiting execution over n8n's chat
// socket.

const { serveChatWidget } = require('./chatWidget');
const { until } = require('./until');

const UI_TIMEOUT = 45000;

/**
 * Opens the chat at `chatUrl` in a browser context of its own (no n8n session, as a visitor). Its
 * user agent is a person's Chromium: n8n's Send and Wait takes an approval link fetched by a
 * client whose user agent reads as a bot (headless Chromium's "HeadlessChrome" does) for a link
 * preview, and ignores it (n8n-nodes-base sendAndWait utils, `isbot`).
 */
async function openChat(browser, chatUrl) {
	const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version().split('.')[0]}.0.0.0 Safari/537.36`;
	const context = await browser.newContext({ viewport: { width: 900, height: 900 }, userAgent });
	const page = await context.newPage();
	page.setDefaultTimeout(UI_TIMEOUT);
	await serveChatWidget(page);
	// The answer to the chat's first message: the execution it started, and the token of its chat socket.
	const started = page
		.waitForResponse(
			(res) => res.request().method() === 'POST' && new URL(res.url()).pathname.endsWith('/chat'),
			{ timeout: 0 },
		)
		.then(async (res) => await res.json());
	await until(
		'the chat page served',
		async () => (await page.goto(chatUrl)).status() !== 404,
		30000,
		500,
	);
	await page.locator('[data-test-id="chat-input"]').waitFor();

	/** The bot's messages as drawn, oldest first: their text and the labels of their buttons. */
	const botMessages = async () =>
		page.locator('.chat-message-from-bot:not(.chat-message-typing)').evaluateAll((nodes) =>
			nodes.map((node) => ({
				text: node.innerText.trim(),
				buttons: [...node.querySelectorAll('button')].map((button) => button.innerText.trim()),
			})),
		);

	return {
		page,
		close: async () => await context.close().catch(() => {}),
		botMessages,
		/** Types `text` into the message box and sends it with Enter, as a person does. */
		async say(text) {
			const input = page.locator('[data-test-id="chat-input"]');
			await input.fill(text);
			await input.press('Enter');
			await page.locator('.chat-message-from-user', { hasText: text }).last().waitFor();
		},
		/** The first bot message after the `after` first ones whose text matches `pattern`, once drawn. */
		async botMessage(pattern, { after = 0, timeoutMs = 90000 } = {}) {
			return await until(
				`a bot message matching ${pattern}`,
				async () =>
					(await botMessages()).slice(after).find((message) => pattern.test(message.text)),
				timeoutMs,
				200,
			);
		},
		/** Whether the widget would send what the person types now (its send button enabled, with text typed). */
		async canSend() {
			const input = page.locator('[data-test-id="chat-input"]');
			await input.fill('are you done yet?');
			const enabled = await page.locator('.chat-input-send-button').isEnabled();
			await input.fill('');
			return enabled;
		},
		/**
		 * Sends `text` to the execution over a chat socket of its own, as a chat client other than
		 * this page would (another session of the same execution), and closes it a second later:
		 * whether it was sent, and what n8n sent on that socket meanwhile.
		 */
		async sendOverAnotherSocket(text) {
			const { executionId, resumeToken } = await started;
			const socketUrl = `${new URL(chatUrl).origin.replace(/^http/, 'ws')}/chat?sessionId=another-client&executionId=${executionId}&isPublic=true&token=${resumeToken}`;
			return await page.evaluate(
				({ url, message }) =>
					new Promise((resolve) => {
						const socket = new WebSocket(url);
						const received = [];
						// n8n listens to a chat socket's messages once it has set up the session, which its first heartbeat says.
						socket.onmessage = (event) => {
							received.push(String(event.data));
							if (received.length > 1 || event.data !== 'n8n|heartbeat') return;
							socket.send(
								JSON.stringify({
									sessionId: 'another-client',
									action: 'sendMessage',
									chatInput: message,
								}),
							);
							setTimeout(() => {
								socket.close();
								resolve({ sent: true, received });
							}, 1000);
						};
						socket.onerror = () => resolve({ sent: false, received });
						setTimeout(() => resolve({ sent: false, received }), 10000);
					}),
				{ url: socketUrl, message: text },
			);
		},
		/** The execution the chat's first message started. */
		executionId: async () => (await started).executionId,
		/** Clicks the button labelled `label` of the newest bot message that has it. */
		async click(label) {
			await page
				.locator('.chat-message-from-bot')
				.filter({ has: page.getByRole('button', { name: label }) })
				.last()
				.getByRole('button', { name: label })
				.click();
		},
	};
}

module.exports = { openChat };
