'use strict';
// The reference Crew Execution Service (test/crew-service/) in its own process, as a
// user would run it, steered over its unauthenticated /_reference/ admin routes.

const path = require('node:path');
const procs = require('./procs');
const { registerSecret } = require('./tokens');

const REPO = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(REPO, 'test', 'crew-service', 'cli.js');

async function startCrewService({ args = [], logFile } = {}) {
	const proc = procs.start(process.execPath, [CLI, '--port', '0', '--json', ...args], {
		name: 'crew-service',
		logFile,
		cwd: REPO,
	});
	const [line] = await proc.waitFor(/^\{.*\}\s*$/m, 20000);
	const { url, tokens } = JSON.parse(line);
	for (const [kind, token] of Object.entries(tokens)) registerSecret(`crew ${kind}`, token);
	const admin = async (method, route, body) => {
		const res = await fetch(`${url}/_reference/${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok)
			throw new Error(`crew service ${method} /_reference/${route}: ${res.status} ${text}`);
		return JSON.parse(text);
	};
	return {
		proc,
		url,
		tokens,
		requests: () => admin('GET', 'requests'),
		runs: () => admin('GET', 'runs'),
		configure: (options) => admin('POST', 'configure', options),
		faults: (faults) => admin('POST', 'faults', faults),
		reset: () => admin('POST', 'reset', {}),
		stop: () => procs.stop(proc),
	};
}

module.exports = { startCrewService };
