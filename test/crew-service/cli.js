#!/usr/bin/env node
// @ts-check
'use strict';

const { parseArgs } = require('node:util');
const { startCrewService } = require('./index');

const USAGE = `Usage: npm run crew-server -- [options]
       node test/crew-service/cli.js [options]

  --port N                         listen port (default 8787; 0 = any free port)
  --host H                         listen address (default 127.0.0.1)
  --duration MS                    run duration (default 2000)
  --shape contract|wild            status record shape (default contract)
  --inputs-shape names|objects     GET /inputs shape (default names)
  --status-paths both|contract|wild  status path spellings that answer (default both)
  --error-shape documented|fastapi error body shape (default documented)
  --webhook-targets loopback|any   webhook URLs really called (default loopback: localhost,
                                   127.x.x.x, [::1]; others are only recorded)
  --max-file-bytes N               a proxy's body limit: a bigger body gets nginx's 413 page
  --multipart accepted|refused     refused: an older crewAI (no multipart kickoff, no POST /files)
  --json                           print one JSON line {"url","tokens"} instead of the banner
  --help

Tokens come from CREW_ORG_TOKEN and CREW_USER_TOKEN, else are random.`;

/** @param {string} message */
function fail(message) {
	process.stderr.write(`crew-server: ${message}\n\n${USAGE}\n`);
	process.exit(2);
}

/**
 * @param {string | undefined} value
 * @param {string} flag
 */
function integer(value, flag) {
	if (value === undefined) return undefined;
	if (!/^\d+$/.test(value)) fail(`${flag} needs a non-negative integer, got "${value}"`);
	return Number(value);
}

async function main() {
	/** @type {ReturnType<typeof parseArgs>['values']} */
	let values;
	try {
		({ values } = parseArgs({
			options: {
				port: { type: 'string' },
				host: { type: 'string' },
				duration: { type: 'string' },
				shape: { type: 'string' },
				'inputs-shape': { type: 'string' },
				'status-paths': { type: 'string' },
				'error-shape': { type: 'string' },
				'webhook-targets': { type: 'string' },
				'max-file-bytes': { type: 'string' },
				multipart: { type: 'string' },
				json: { type: 'boolean' },
				help: { type: 'boolean' },
			},
		}));
	} catch (err) {
		return fail(err instanceof Error ? err.message : String(err));
	}
	if (values.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	/** @param {string} name */
	const str = (name) => /** @type {any} */ (values[name]);

	/** @type {import('./index').CrewService} */
	let service;
	try {
		service = await startCrewService({
			host: str('host'),
			port: integer(str('port'), '--port') ?? 8787,
			durationMs: integer(str('duration'), '--duration'),
			recordShape: str('shape'),
			inputsShape: str('inputs-shape'),
			statusPaths: str('status-paths'),
			errorShape: str('error-shape'),
			webhookTargets: str('webhook-targets'),
			maxFileBytes: integer(str('max-file-bytes'), '--max-file-bytes'),
			multipartKickoff: str('multipart'),
			tokens: {
				organization: process.env.CREW_ORG_TOKEN || undefined,
				user: process.env.CREW_USER_TOKEN || undefined,
			},
		});
	} catch (err) {
		// Option typos are usage errors; anything else (EADDRINUSE) is a runtime failure.
		if (err instanceof TypeError) return fail(err.message);
		process.stderr.write(
			`crew-server: cannot start: ${err instanceof Error ? err.message : String(err)}\n`,
		);
		process.exit(1);
	}

	const { url, tokens } = service;
	if (values.json) {
		// Harness scripts read exactly this one line; everything else goes to stderr.
		process.stdout.write(`${JSON.stringify({ url, tokens })}\n`);
	} else {
		const o = service.options;
		process.stdout.write(
			[
				`Reference Crew Execution Service listening on ${url}`,
				`  record shape ${o.recordShape}, inputs shape ${o.inputsShape}, status paths ${o.statusPaths}, ` +
					`errors ${o.errorShape}, runs take ${o.durationMs} ms, webhook targets ${o.webhookTargets}`,
				'',
				`  Organization token: ${tokens.organization}`,
				`  User token:         ${tokens.user}`,
				'',
				'In n8n, create a Crew credential with:',
				`  URL:   ${url}`,
				'  Token: either token above (both work; the log records which type was used)',
				'',
				'Control it from tests (no auth): GET /_reference/requests, GET /_reference/runs,',
				'GET /_reference/webhooks, POST /_reference/faults, POST /_reference/configure, POST /_reference/reset.',
				'A kickoff may steer its run with meta.reference = {durationMs, outcome, result, error,',
				'humanInput: {taskId} or {taskIds: [...]}}; a paused run continues with POST /resume.',
				'Ctrl+C to stop.',
				'',
			].join('\n'),
		);
	}

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		service.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main();
