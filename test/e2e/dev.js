#!/usr/bin/env node
'use strict';
// Dev: a real n8n editor with this package, a reference crew service, credentials and the
// examples a user imports (examples/), on loopback, until Ctrl-C.
//
//   node test/e2e/dev.js [--n8n 2|1] [--port 5678] [--duration MS]
//
// --port      the editor's port (default 5678, or a free one when 5678 is taken)
// --duration  how long each reference crew runs (default: the service's 2000 ms)
//
// The package is packed from dist/ once at start: after `npm run build`, restart dev to load
// the new build. Everything (user folder, processes) is removed on Ctrl-C.

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const { parseArgs } = require('node:util');

const procs = require('./lib/procs');
const { runMain } = require('./lib/scriptCommand');
const { prepare } = require('./lib/stack');
const { freePort } = require('./lib/n8n');
const { loadExample, exampleFiles } = require('./lib/fixtures');

// The deployment's Crew API credential with a Callback Bearer Token, used by every example, so the
// kickoff's event stream and the Crew Trigger agree. Sorts before the organization credential,
// which a new node gets (lib/stack.js).
const CALLBACK_CREDENTIAL = { id: 'crewCallbackDev1', name: 'Crew (callbacks, dev)' };
const TRIGGER_EXAMPLE = 'crew-trigger.json';
const TRIGGER_URL_PLACEHOLDER = 'PASTE_THE_CREW_TRIGGER_PRODUCTION_URL_HERE';

/**
 * Every example, the Crew credentials filled in, the Crew Trigger's Production URL pasted where
 * the kickoff example wants it; the OpenAI credential left for the user to pick.
 */
function examplesFor(baseUrl) {
	const trigger = loadExample(TRIGGER_EXAMPLE, { credentials: { crewApi: CALLBACK_CREDENTIAL } });
	const { webhookId } = trigger.nodes.find(
		(n) => n.type === 'n8n-nodes-crewai.crewCallbackTrigger',
	);
	const how = {
		credentials: { crewApi: CALLBACK_CREDENTIAL, openAiApi: null },
		text: { [TRIGGER_URL_PLACEHOLDER]: `${baseUrl}/webhook/${webhookId}/crew` },
	};
	return Object.fromEntries(exampleFiles().map((f) => [f.slice(0, -5), loadExample(f, how)]));
}

const say = (line = '') => process.stdout.write(`${line}\n`);

function portFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

async function main() {
	const { values } = parseArgs({
		options: { n8n: { type: 'string' }, port: { type: 'string' }, duration: { type: 'string' } },
	});
	const major = values.n8n || '2';
	const wanted = Number(values.port || 5678);
	const port = (await portFree(wanted)) ? wanted : await freePort();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-crewai-dev-'));
	procs.installExitHandlers(() => fs.rmSync(root, { recursive: true, force: true }));

	say(`Setting up n8n ${major}.x with n8n-nodes-crewai and a reference crew service...`);
	const crewArgs = values.duration ? ['--duration', values.duration] : [];
	const callbackToken = crypto.randomBytes(24).toString('hex');
	const stack = await prepare({
		major,
		root,
		crewArgs,
		log: (m) => say(`  ${m}`),
		moreCredentials: ({ crewUrl, tokens }) => [
			{
				...CALLBACK_CREDENTIAL,
				type: 'crewApi',
				data: { baseUrl: crewUrl, token: tokens.organization, bearerToken: callbackToken },
			},
		],
		editWorkflows: (workflows) => {
			for (const k of Object.keys(workflows)) delete workflows[k];
			Object.assign(workflows, examplesFor(`http://127.0.0.1:${port}`));
		},
	});
	const { n8n, crew, tokens, workflows } = stack;
	// The Crew Trigger's workflow active before start (2.x publishes, 1.x sets active), so the
	// kickoff example's event stream reaches it.
	const triggerId = workflows[TRIGGER_EXAMPLE.slice(0, -5)].id;
	await n8n.mustCli(
		major === '1'
			? ['update:workflow', `--id=${triggerId}`, '--active=true']
			: ['publish:workflow', `--id=${triggerId}`],
	);
	say('  starting n8n (about 20-40 s)...');
	const { url } = await n8n.start({
		env: { N8N_PORT: String(port), N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}` },
	});
	const owner = await n8n.setupOwner();

	say();
	say('='.repeat(72));
	say(`n8n ${n8n.version} editor:  ${url}`);
	say(`  sign in as   ${owner.email}`);
	say(`  password     ${owner.password}`);
	say();
	say(`Reference crew service:  ${crew.url}`);
	say(`  organization token  ${tokens.organization}`);
	say(`  user token          ${tokens.user}`);
	say(
		'  credentials in n8n: "Crew (your organization token)", "Crew (user token)", "Crew (wrong token)"',
	);
	say(
		`  and "${CALLBACK_CREDENTIAL.name}" (organization token, Callback Bearer Token ${callbackToken}), used by the examples`,
	);
	say(
		'  a kickoff may steer its run with options.meta = {"reference": {"durationMs": 5000, "outcome": "failure"}}',
	);
	say();
	say("Examples (examples/; the agent's needs your own OpenAI credential):");
	for (const wf of Object.values(workflows)) say(`  ${url}/workflow/${wf.id}   ${wf.name}`);
	say();
	say(`Package: ${stack.installedAt}`);
	say(`Logs:    ${n8n.logDir}`);
	say('Ctrl-C stops n8n and the crew service and removes the temporary folder.');
	say('='.repeat(72));

	// Serve until Ctrl-C (handled by installExitHandlers) or until a process dies.
	const ended = await Promise.race([
		n8n.server.proc.exited.then(() => 'n8n'),
		crew.proc.exited.then(() => 'the crew service'),
	]);
	if (procs.isStopping()) return; // Ctrl-C: the exit handler tears down and exits
	say(`${ended} exited; stopping.`);
	await procs.stopAll();
	fs.rmSync(root, { recursive: true, force: true });
	process.exit(1);
}

runMain(main, (err) => err.message || err);
