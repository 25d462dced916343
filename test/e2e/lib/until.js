'use strict';
// Waiting on something another process does (n8n, the crew service, a browser): poll until it
// holds, with a hang guard that names what never happened. Never a fixed sleep as a check.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls fn until it returns a truthy value (returned); throws "not <what> within N ms" at the deadline. */
async function until(what, fn, timeoutMs = 30000, everyMs = 250) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`not ${what} within ${timeoutMs} ms`);
		await sleep(everyMs);
	}
}

module.exports = { until, sleep };
