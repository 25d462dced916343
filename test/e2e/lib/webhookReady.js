'use strict';
// When n8n serves a published webhook. n8n answers /healthz/readiness before it has registered
// the published workflows' webhooks, and calling a webhook to find out would run its workflow:
// a CORS preflight asks without running anything.

const procs = require('./procs');
const { sleep } = require('./until');

/**
 * Waits until the n8n at baseUrl serves /webhook/<webhookPath> for `method`, without calling
 * it: a CORS preflight (OPTIONS with Origin) lists the path's registered methods in
 * Access-Control-Allow-Methods. Throws when `proc` (that n8n's process) exits meanwhile.
 */
async function waitForWebhook(baseUrl, webhookPath, method, proc, timeoutMs = 120000) {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	for (;;) {
		if (proc.done)
			throw new Error(
				`n8n exited before serving ${method} /webhook/${webhookPath}:\n${procs.tail(proc.output())}`,
			);
		const res = await fetch(`${baseUrl}/webhook/${webhookPath}`, {
			method: 'OPTIONS',
			headers: { origin: 'http://127.0.0.1', 'access-control-request-method': method },
		});
		last = res.headers.get('access-control-allow-methods') || `${res.status}`;
		if (last.split(/,\s*/).includes(method)) return;
		if (Date.now() > deadline)
			throw new Error(
				`webhook ${method} /webhook/${webhookPath} not registered within ${timeoutMs} ms (last answer: ${last})`,
			);
		await sleep(250);
	}
}

module.exports = { waitForWebhook };
