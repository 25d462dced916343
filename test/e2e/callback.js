'use strict';
// The callback round trip in a real n8n: Kickoff with a Crew Webhook URL → the reference
// crew service runs the crew → it calls the Crew Trigger's production URL → n8n runs the
// trigger's workflow.
//
//   node test/e2e/callback.js [--n8n 2|1|1,2|all] [--editor] [--keep] [--without-package]
//
//   --n8n              which n8n majors (default: $N8N_E2E_VERSIONS, else 2). "all" = 1,2.
//   --editor           also open the trigger's workflow in Chromium and check the production
//                      URL its panel shows (apt-get install -y chromium; npm ci --prefix test/e2e);
//                      screenshots in test/e2e/screenshots/ (git-ignored)
//   --keep             keep the temporary folder (user folder, n8n logs) and print its path
//   --without-package  do not install the package: proves the test needs it (the checks fail)
//
// Per major: the packed package in a fresh user folder, the reference crew service, the
// credentials, and the workflows of workflows/callback/ only:
//   trigger.json               Crew Trigger of 0.1.0's type n8n-nodes-crewai.crewTrigger (events:
//                              crew, secret e2e-secret) → No-op; made active before `n8n start`
//                              (2.x publish:workflow, 1.x update:workflow)
//   kickoff.json               Manual trigger → Crew Kickoff with the trigger's production URL as
//                              Crew Webhook URL and Webhook Secret e2e-secret
//   kickoff-wrong-secret.json  the same with another secret
//   (those three are as saved by 0.1.0, type and node version 1: they prove 0.1.0 workflows still work)
//   examples/crew-trigger.json Crew Trigger 1.1, type crewCallbackTrigger as the editor adds it now
//                              (events: runFinished, Crew Callback API credential) → No-op
//   examples/crew-trigger-kickoff.json  Kickoff 1.1 with Event Stream URL = that trigger's URL, same credential
//   stream-kickoff-wrong-token.json  the same with a credential holding another bearer token
//   hitl-trigger.json          Crew Trigger 1.1 (events: humanInput) → Crew Resume (approve) of its kickoff
//   hitl-kickoff.json          Kickoff 1.1 with Human Input Webhook URL = that trigger's URL, a crew
//                              that pauses at analysis_task (meta.reference)
//   feedback-trigger.json      Crew Trigger 1.1 (events: feedbackRequest, the credential's Flow
//                              Signing Secret) → Crew Answer Feedback Request (approved)
//   feedback-kickoff.json      Kickoff 1.1 of a crew that pauses at research_task; the service's
//                              flowFeedback option (the dashboard webhook) points at that trigger
// The kickoff workflows run with `n8n execute --id` in their own process, against the same
// database, while `n8n start` serves the webhook. The checks read the service's webhook
// deliveries (/_reference/webhooks) and n8n's executions over REST as the owner.
//
// Expects dist/ to be built (`npm run build`). Prints one line per check and ends with
// "N passed, N failed"; exits 1 when anything failed.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const procs = require('./lib/procs');
const { prepare } = require('./lib/stack');
const { freePort, OWNER } = require('./lib/n8n');
const { WORKFLOWS_DIR, loadExample } = require('./lib/fixtures');
const { items } = require('./lib/runData');
const { versionInfo } = require('./lib/install');
const { say } = require('./lib/report');
const { restClient, decodeExecutionData } = require('./lib/rest');
const { until } = require('./lib/until');

const CALLBACK_DIR = path.join(WORKFLOWS_DIR, 'callback');
const SHOTS = path.join(__dirname, 'screenshots');
const URL_PLACEHOLDER = '__CREW_TRIGGER_URL__';
// The version 1.1 triggers (Crew Callback API credential), by placeholder in the kickoff workflows.
const V11_TRIGGERS = { '__STREAM_TRIGGER_URL__': 'stream-trigger', '__HITL_TRIGGER_URL__': 'hitl-trigger', '__FEEDBACK_TRIGGER_URL__': 'feedback-trigger' };
const CALLBACK_CREDENTIAL = { id: 'crewCallback0001', name: 'Crew callback (e2e)' };
const WRONG_CALLBACK_CREDENTIAL = { id: 'crewCallbackBad1', name: 'Crew callback (wrong token)' };
const SECRET = 'e2e-secret';
const TOPIC = 'callbacks';
const TRIGGER_NODE = 'Crew Trigger';
const AFTER_TRIGGER_NODE = 'Crew Finished';
const KICKOFF_NODE = 'Kickoff';
// The reference crew runs 1.5 s (meta.reference.durationMs in the kickoff workflows).
const DELIVERY_TIMEOUT_MS = 20000;
const EXECUTION_TIMEOUT_MS = 20000;
// After the refused call was answered: how long no execution may appear.
const QUIET_MS = 2000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The Crew Trigger round trip a user imports (examples/crew-trigger*.json), with the trigger's
// Production URL where the user pastes it.
const EXAMPLE_URL_PLACEHOLDER = 'PASTE_THE_CREW_TRIGGER_PRODUCTION_URL_HERE';

/**
 * workflows/callback/*.json by file name without .json, and the two examples as 'stream-trigger'
 * and 'stream-kickoff'; the triggers' URLs filled in ({placeholder: url}).
 */
function loadCallbackWorkflows(urls = {}) {
	const out = {};
	for (const f of fs.readdirSync(CALLBACK_DIR).sort()) {
		if (!f.endsWith('.json')) continue;
		let text = fs.readFileSync(path.join(CALLBACK_DIR, f), 'utf8');
		for (const [placeholder, url] of Object.entries(urls)) text = text.split(placeholder).join(url);
		out[f.slice(0, -5)] = JSON.parse(text);
	}
	const credentials = { crewCallbackApi: CALLBACK_CREDENTIAL };
	out['stream-trigger'] = loadExample('crew-trigger.json', { id: 'e2eCbStreamTrig1', credentials });
	out['stream-kickoff'] = loadExample('crew-trigger-kickoff.json', {
		id: 'e2eCbStreamKick1',
		credentials,
		text: urls.__STREAM_TRIGGER_URL__ ? { [EXAMPLE_URL_PLACEHOLDER]: urls.__STREAM_TRIGGER_URL__ } : {},
		set: { [KICKOFF_NODE]: { 'options.meta': '{"reference": {"durationMs": 1500}}' } },
	});
	return out;
}

/** The Crew Callback API credentials of the 1.1 workflows, in n8n's import format. */
function callbackCredentials(tokens) {
	return [
		{ ...CALLBACK_CREDENTIAL, type: 'crewCallbackApi', data: { bearerToken: tokens.callback, signingSecret: tokens.signingSecret } },
		{ ...WRONG_CALLBACK_CREDENTIAL, type: 'crewCallbackApi', data: { bearerToken: tokens.wrongCallback } },
	];
}

/** Polls the service until its run for kickoffId satisfies predicate; returns the run. */
async function runWhen(crew, kickoffId, predicate, what, timeoutMs = DELIVERY_TIMEOUT_MS) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const run = (await crew.runs()).find((r) => r.kickoffId === kickoffId);
		if (run && predicate(run)) return run;
		if (Date.now() > deadline) throw new Error(`run ${kickoffId} not ${what} within ${timeoutMs} ms (${JSON.stringify(run && { state: run.state, resumes: run.resumes })})`);
		await sleep(250);
	}
}

/**
 * A production webhook URL as n8n builds it (n8n-workflow getNodeWebhookPath): a node
 * with a webhookId and a static path gets `<base>/webhook/<webhookId>/<path>`.
 */
function productionUrl(baseUrl, node, webhookPath) {
	assert.ok(node.webhookId, `node "${node.name}" has no webhookId`);
	return `${baseUrl}/webhook/${node.webhookId}/${webhookPath}`;
}

/** The crew service's webhook calls (kind, url, kickoffId, status, error, payload). */
async function deliveries(crew) {
	const res = await fetch(`${crew.url}/_reference/webhooks`);
	if (!res.ok) throw new Error(`GET /_reference/webhooks: ${res.status}`);
	return res.json();
}

/** Waits until the service has an answer (or an error) for its call about this kickoff. */
async function answeredDelivery(crew, kickoffId, timeoutMs = DELIVERY_TIMEOUT_MS) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const mine = (await deliveries(crew)).filter((d) => d.kickoffId === kickoffId);
		const done = mine.filter((d) => d.status !== null || d.error);
		if (done.length > 0) return { delivery: done[0], all: mine };
		if (Date.now() > deadline) {
			throw new Error(`no answered webhook call for kickoff ${kickoffId} within ${timeoutMs} ms (calls for it: ${JSON.stringify(mine)})`);
		}
		await sleep(250);
	}
}

/** Waits for the executions of a workflow beyond the `known` ids to have finished, and returns them. */
async function newFinishedExecutions(rest, workflowId, known, timeoutMs = EXECUTION_TIMEOUT_MS) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const fresh = (await rest.executions(workflowId)).filter((e) => !known.has(String(e.id)));
		if (fresh.length > 0 && fresh.every((e) => !['new', 'running', 'waiting'].includes(e.status))) return fresh;
		if (Date.now() > deadline) {
			throw new Error(`no finished execution of ${workflowId} within ${timeoutMs} ms (new: ${JSON.stringify(fresh.map((e) => [e.id, e.status]))})`);
		}
		await sleep(250);
	}
}

/**
 * Runs a kickoff workflow with `n8n execute` (its own process, same database; or with `execute`,
 * e.g. over REST, which gives the same shape) and returns the
 * kickoff_id of its output. When `n8n execute` fails, the error names how; `onStarted` is first
 * given the kickoff_id the service saw (if exactly one kickoff reached it), so that the checks
 * of the round trip after it can still run and tell an `n8n execute` problem from a callback one.
 */
async function kickoffVia(n8n, crew, workflow, onStarted = () => {}, execute = (wf) => n8n.execute(wf.id)) {
	const before = new Set((await crew.runs()).map((r) => r.kickoffId));
	const exec = await execute(workflow);
	const started = (await crew.runs()).filter((r) => !before.has(r.kickoffId));
	if (started.length === 1) onStarted(started[0].kickoffId);
	if (exec.code !== 0 || !exec.run) {
		const how = `exit ${exec.code}${exec.signal ? `, signal ${exec.signal}` : ''}${exec.timedOut ? ', timed out' : ''}${exec.run ? '' : ', no run JSON'}`;
		throw new Error(
			`running ${workflow.id} (${how}; the service saw ${started.length} kickoff(s)); stderr:\n${procs.tail(exec.stderr, 20)}\nstdout:\n${procs.tail(exec.stdout, 8)}`,
		);
	}
	const out = items(exec.run, KICKOFF_NODE);
	assert.equal(out.length, 1, 'the Kickoff node gives one item');
	const kickoffId = out[0].json.kickoff_id;
	assert.match(String(kickoffId), /^[0-9a-f-]{36}$/, `Kickoff output: ${JSON.stringify(out[0].json)}`);
	assert.deepEqual(started.map((r) => r.kickoffId), [kickoffId], 'the service saw this one kickoff');
	return kickoffId;
}

/**
 * The checks for one n8n major, recorded in report.
 * @param {object} o
 * @param {string} o.major
 * @param {object} o.report           lib/report.js createReport()
 * @param {string} o.root             a fresh folder
 * @param {object} [o.packed]         an existing pkg.pack() result (packed here when absent)
 * @param {boolean} [o.withPackage]   false: leave the package out
 * @param {boolean} [o.editor]        also check the trigger's panel in Chromium
 */
async function callbackSuite({ major, report, root, packed, withPackage = true, editor = false }) {
	let stack;
	let rest;
	let browser;
	const label = `callback, n8n ${versionInfo(major).version}`;
	const ctx = { known: new Set() };
	const check = (name, fn) => report.check(label, name, fn);
	try {
		const ready = await check('n8n start with a 0.1.0 Crew Trigger workflow (type crewTrigger) active; the owner signs in over REST', async () => {
			const port = await freePort();
			const baseUrl = `http://127.0.0.1:${port}`;
			// The URL is known before n8n starts: the trigger's webhookId is fixed in its JSON.
			const draft = loadCallbackWorkflows();
			const triggerNode = draft.trigger.nodes.find((n) => n.name === TRIGGER_NODE);
			ctx.triggerUrl = productionUrl(baseUrl, triggerNode, 'crew');
			ctx.webhookId = triggerNode.webhookId;
			ctx.urls = { [URL_PLACEHOLDER]: ctx.triggerUrl };
			for (const [placeholder, name] of Object.entries(V11_TRIGGERS)) {
				ctx.urls[placeholder] = productionUrl(baseUrl, draft[name].nodes.find((n) => n.name === TRIGGER_NODE), 'crew');
			}
			stack = await prepare({
				major,
				root,
				packed,
				withPackage,
				log: (m) => say(`  ${m}`),
				editWorkflows: (workflows) => {
					// Only this test's workflows in this n8n.
					for (const k of Object.keys(workflows)) delete workflows[k];
					Object.assign(workflows, loadCallbackWorkflows(ctx.urls));
				},
			});
			ctx.tokens = {
				callback: `cb-tok-e2e-${crypto.randomBytes(16).toString('hex')}`,
				wrongCallback: `cb-tok-wrong-${crypto.randomBytes(16).toString('hex')}`,
				signingSecret: `whsec_e2e${crypto.randomBytes(16).toString('hex')}`,
				wrongSigningSecret: `whsec_wrong${crypto.randomBytes(16).toString('hex')}`,
			};
			await stack.n8n.importCredentials(callbackCredentials(ctx.tokens));
			if (!withPackage) say('  --without-package: n8n-nodes-crewai is NOT installed; the checks should fail');
			const { n8n, workflows } = stack;
			// Active before start: 2.x publishes the imported version, 1.x sets active (both CLIs say
			// "restart n8n for changes to take effect", so this comes before `n8n start`).
			for (const name of ['trigger', ...Object.values(V11_TRIGGERS)]) {
				const id = workflows[name].id;
				await n8n.mustCli(major === '1' ? ['update:workflow', `--id=${id}`, '--active=true'] : ['publish:workflow', `--id=${id}`]);
			}
			await n8n.start({ env: { N8N_PORT: String(port) } });
			await n8n.setupOwner();
			rest = await restClient(baseUrl);
			ctx.baseUrl = baseUrl;
		});
		if (!ready) return;
		const { n8n, crew, workflows } = stack;
		const triggerId = workflows.trigger.id;

		await check("the trigger's production URL is the one n8n serves and shows: /webhook/<webhookId>/crew", async () => {
			const wf = await rest.get(`workflows/${triggerId}`);
			assert.equal(wf.active, true, 'the Crew Trigger workflow is active in n8n');
			// What the editor builds the URL from (its "Production URL").
			const settings = await rest.get('settings');
			const shown = `${String(settings.urlBaseWebhook).replace(/\/+$/, '')}/webhook/${ctx.webhookId}/crew`;
			assert.equal(shown, ctx.triggerUrl, "n8n's webhook base URL + the trigger's path");
			// Registered: n8n answers with the trigger's own 401 (no secret), not 404 "not registered".
			// n8n answers readiness before it has registered the active workflows' webhooks (seen
			// under load on 2.41): a 404 means "not yet", until the guard.
			const { res, body } = await until('the Crew Trigger webhook registered', async () => {
				const r = await fetch(ctx.triggerUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"result":"no secret"}' });
				const text = await r.text();
				return r.status === 404 ? null : { res: r, body: text };
			}, 60000, 500);
			assert.equal(res.status, 401, `POST ${ctx.triggerUrl} without the secret: ${res.status} ${body.slice(0, 300)}`);
			assert.match(body, /webhook secret is missing or wrong/i);
			// Nor did that refused call start the workflow.
			await sleep(QUIET_MS);
			const executions = await rest.executions(triggerId);
			for (const e of executions) ctx.known.add(String(e.id));
			assert.deepEqual(executions.map((e) => `${e.id} ${e.status}`), [], 'no execution of the trigger workflow');
		});

		await check('Kickoff (`n8n execute`) sends the Crew Webhook URL and the secret in meta', async () => {
			ctx.kickoffId = await kickoffVia(n8n, crew, workflows.kickoff, (id) => {
				ctx.kickoffId = id;
			});
			const run = (await crew.runs()).find((r) => r.kickoffId === ctx.kickoffId);
			assert.ok(run, `the service has no run ${ctx.kickoffId}`);
			assert.deepEqual(run.inputs, { topic: TOPIC });
			assert.equal(run.webhooks.crewWebhookUrl, ctx.triggerUrl);
			assert.deepEqual(run.meta, { reference: { durationMs: 1500 }, webhook_secret: SECRET });
		});

		await check("the service's crew webhook call to n8n is answered 200", async () => {
			assert.ok(ctx.kickoffId, 'no kickoff');
			const { delivery, all } = await answeredDelivery(crew, ctx.kickoffId);
			assert.equal(all.length, 1, `one call for the kickoff (${JSON.stringify(all.map((d) => [d.kind, d.status]))})`);
			assert.equal(delivery.kind, 'crew');
			assert.equal(delivery.url, ctx.triggerUrl);
			assert.equal(delivery.status, 200, `answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`);
			assert.equal(delivery.payload.result, `Crew finished: topic=${TOPIC}`);
			assert.equal(delivery.payload.meta.webhook_secret, SECRET, 'the service echoed the secret');
		});

		await check('n8n ran the trigger workflow once: {event: crew, kickoff_id, result, meta} without the secret', async () => {
			assert.ok(ctx.kickoffId, 'no kickoff');
			const fresh = await newFinishedExecutions(rest, triggerId, ctx.known);
			for (const e of fresh) ctx.known.add(String(e.id));
			assert.equal(fresh.length, 1, `one new execution (got ${fresh.map((e) => `${e.id} ${e.status}`).join(', ')})`);
			const [summary] = fresh;
			assert.equal(summary.status, 'success');
			assert.equal(summary.mode, 'webhook');
			const execution = await rest.execution(summary.id);
			const data = decodeExecutionData(n8n, execution.data);
			const run = { data };
			const out = items(run, TRIGGER_NODE);
			assert.equal(out.length, 1, 'the trigger emitted one item');
			const item = out[0].json;
			assert.equal(item.event, 'crew');
			assert.equal(item.kickoff_id, ctx.kickoffId);
			assert.equal(item.result, `Crew finished: topic=${TOPIC}`);
			assert.deepEqual(item.result_json, { inputs: { topic: TOPIC }, kickoffNumber: 1 });
			assert.equal(typeof item.token_usage.total_tokens, 'number');
			assert.deepEqual(item.meta, { reference: { durationMs: 1500 } }, 'meta as sent, webhook_secret removed');
			assert.deepEqual(items(run, AFTER_TRIGGER_NODE).map((i) => i.json), [item], 'the next node got the item');
			// Nowhere in what n8n stored of the run: the secret is the workflow's, not the run's.
			assert.ok(!JSON.stringify(data.resultData).includes(SECRET), 'the secret appears in the stored run data');
		});

		await check('a kickoff with a wrong secret: n8n refuses the call with 401 and runs nothing', async () => {
			const kickoffId = await kickoffVia(n8n, crew, workflows['kickoff-wrong-secret']);
			const { delivery, all } = await answeredDelivery(crew, kickoffId);
			assert.equal(all.length, 1, 'one call for the kickoff');
			assert.equal(delivery.url, ctx.triggerUrl);
			assert.equal(delivery.payload.meta.webhook_secret, 'not-the-e2e-secret');
			assert.equal(delivery.status, 401, `answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`);
			await sleep(QUIET_MS);
			const fresh = (await rest.executions(triggerId)).filter((e) => !ctx.known.has(String(e.id)));
			assert.deepEqual(fresh.map((e) => `${e.id} ${e.status}`), [], 'no new execution of the trigger workflow');
		});

		await streamAndHumanInputChecks({ check, n8n, crew, workflows, rest, ctx });

		if (editor) {
			await check("the editor shows the trigger's production URL (Chromium)", async () => {
				browser = await editorCheck({ major, baseUrl: ctx.baseUrl, workflowId: triggerId, triggerUrl: ctx.triggerUrl });
			});
		}
	} finally {
		if (browser) await browser.close().catch(() => {});
		if (stack) {
			await stack.n8n.stop();
			await stack.crew.stop();
		}
	}
}

/**
 * The service's own channels with node version 1.1: an event stream with the Crew Callback API
 * credential's bearer token, a wrong token, and a human-input round trip that ends with the trigger
 * workflow's Resume completing the crew; then no callback token anywhere n8n wrote.
 */
async function streamAndHumanInputChecks({ check, n8n, crew, workflows, rest, ctx }) {
	const streamTriggerId = workflows['stream-trigger'].id;
	const hitlTriggerId = workflows['hitl-trigger'].id;
	const known = new Set();
	for (const id of [streamTriggerId, hitlTriggerId]) for (const e of await rest.executions(id)) known.add(String(e.id));

	await check('Kickoff 1.1 with an event stream: the trigger workflow gets crew_kickoff_completed with the final output', async () => {
		const kickoffId = await kickoffVia(n8n, crew, workflows['stream-kickoff']);
		const { delivery, all } = await answeredDelivery(crew, kickoffId);
		assert.equal(all.length, 1, `one stream call (${JSON.stringify(all.map((d) => [d.kind, d.status]))})`);
		assert.equal(delivery.kind, 'stream');
		assert.equal(delivery.auth, 'bearer');
		assert.equal(delivery.url, ctx.urls.__STREAM_TRIGGER_URL__);
		assert.equal(delivery.status, 200, `answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`);
		const fresh = await newFinishedExecutions(rest, streamTriggerId, known);
		for (const e of fresh) known.add(String(e.id));
		assert.equal(fresh.length, 1, `one new execution (got ${fresh.map((e) => `${e.id} ${e.status}`).join(', ')})`);
		assert.equal(fresh[0].status, 'success');
		const data = decodeExecutionData(n8n, (await rest.execution(fresh[0].id)).data);
		const out = items({ data }, TRIGGER_NODE).map((i) => i.json);
		assert.equal(out.length, 1, `one item: ${JSON.stringify(out.map((i) => i.event))}`);
		assert.equal(out[0].event, 'crew_kickoff_completed');
		assert.equal(out[0].kickoff_id, kickoffId);
		assert.equal(out[0].status, 'completed');
		assert.equal(out[0].result, `Crew finished: topic=${TOPIC}`);
		assert.deepEqual(out[0].result_json, { inputs: { topic: TOPIC }, kickoffNumber: 1 + (await crew.runs()).findIndex((r) => r.kickoffId === kickoffId) });
	});

	await check('an event stream with a wrong token: n8n answers 401 and runs nothing', async () => {
		const kickoffId = await kickoffVia(n8n, crew, workflows['stream-kickoff-wrong-token']);
		const { delivery } = await answeredDelivery(crew, kickoffId);
		assert.equal(delivery.kind, 'stream');
		assert.equal(delivery.status, 401, `answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`);
		await sleep(QUIET_MS);
		const fresh = (await rest.executions(streamTriggerId)).filter((e) => !known.has(String(e.id)));
		assert.deepEqual(fresh.map((e) => `${e.id} ${e.status}`), [], 'no new execution of the stream trigger workflow');
	});

	await check('human input: the trigger workflow gets kickoff_id, task_id, task_output and its Resume completes the crew', async () => {
		const kickoffId = await kickoffVia(n8n, crew, workflows['hitl-kickoff']);
		const { delivery } = await answeredDelivery(crew, kickoffId);
		assert.equal(delivery.kind, 'humanInput');
		assert.equal(delivery.status, 200, `answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`);
		const fresh = await newFinishedExecutions(rest, hitlTriggerId, known);
		for (const e of fresh) known.add(String(e.id));
		assert.equal(fresh.length, 1, `one new execution (got ${fresh.map((e) => `${e.id} ${e.status}`).join(', ')})`);
		assert.equal(fresh[0].status, 'success');
		const data = decodeExecutionData(n8n, (await rest.execution(fresh[0].id)).data);
		const [item] = items({ data }, TRIGGER_NODE).map((i) => i.json);
		assert.equal(item.event, 'human_input_requested');
		assert.equal(item.kickoff_id, kickoffId);
		assert.equal(item.task_id, 'analysis_task');
		assert.equal(item.task_output, `Analysis of topic=${TOPIC}`);
		const [resumed] = items({ data }, 'Resume').map((i) => i.json);
		assert.equal(resumed.status, 'resumed', `Resume output: ${JSON.stringify(resumed)}`);
		const run = await runWhen(crew, kickoffId, (r) => r.state === 'completed', 'completed');
		assert.deepEqual(run.resumes.map((r) => [r.taskId, r.approved, r.feedback]), [['analysis_task', true, 'approved in n8n']]);
	});

	const feedbackTriggerId = workflows['feedback-trigger'].id;
	for (const e of await rest.executions(feedbackTriggerId)) known.add(String(e.id));

	await check('flow feedback: the signed request starts the trigger workflow, whose Answer Feedback Request is taken once', async () => {
		await crew.configure({ flowFeedback: { url: ctx.urls.__FEEDBACK_TRIGGER_URL__, secret: ctx.tokens.signingSecret, headers: 'crewai', shape: 'flat' } });
		const kickoffId = await kickoffVia(n8n, crew, workflows['feedback-kickoff']);
		const { delivery } = await answeredDelivery(crew, kickoffId);
		assert.equal(delivery.kind, 'feedbackRequest');
		assert.equal(delivery.auth, 'signature');
		assert.equal(delivery.status, 200, `answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`);
		const fresh = await newFinishedExecutions(rest, feedbackTriggerId, known);
		for (const e of fresh) known.add(String(e.id));
		assert.equal(fresh.length, 1, `one new execution (got ${fresh.map((e) => `${e.id} ${e.status}`).join(', ')})`);
		assert.equal(fresh[0].status, 'success');
		const data = decodeExecutionData(n8n, (await rest.execution(fresh[0].id)).data);
		const [request] = items({ data }, TRIGGER_NODE).map((i) => i.json);
		assert.equal(request.event, 'feedback_requested');
		assert.equal(request.flow_id, kickoffId);
		const [answer] = items({ data }, 'Answer').map((i) => i.json);
		assert.deepEqual(
			{ answered: answer.answered, outcome: answer.outcome, host: answer.callback_host },
			{ answered: true, outcome: 'approved', host: new URL(request.callback_url).host },
		);
		assert.ok(!JSON.stringify(answer).includes(request.callback_url), 'the callback URL is in the Answer output');
		const feedback = await (await fetch(`${crew.url}/_reference/feedback-requests`)).json();
		assert.deepEqual(feedback.filter((r) => r.kickoffId === kickoffId).map((r) => r.answers), [[{ feedback: 'approved', status: 200 }]]);
		await runWhen(crew, kickoffId, (r) => r.state === 'completed', 'completed');
	});

	await check('a feedback request signed with another secret: n8n answers 401 and runs nothing', async () => {
		await crew.configure({ flowFeedback: { url: ctx.urls.__FEEDBACK_TRIGGER_URL__, secret: ctx.tokens.wrongSigningSecret } });
		const kickoffId = await kickoffVia(n8n, crew, workflows['feedback-kickoff']);
		const { delivery } = await answeredDelivery(crew, kickoffId);
		assert.equal(delivery.status, 401, `answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`);
		await sleep(QUIET_MS);
		const fresh = (await rest.executions(feedbackTriggerId)).filter((e) => !known.has(String(e.id)));
		assert.deepEqual(fresh.map((e) => `${e.id} ${e.status}`), [], 'no new execution of the feedback trigger workflow');
		await crew.configure({ flowFeedback: null });
	});

	await check('no callback token or signing secret in clear in any n8n log or its database', async () => {
		const tokens = Object.entries(ctx.tokens);
		const assertClean = (text, where) => {
			for (const [kind, token] of tokens) assert.ok(!text.includes(token), `the ${kind} token appears in ${where}`);
		};
		for (const f of fs.readdirSync(n8n.logDir)) {
			if (f !== 'crew-service.log') assertClean(fs.readFileSync(path.join(n8n.logDir, f), 'utf8'), `n8n log ${f}`);
		}
		const dotN8n = path.join(n8n.userFolder, '.n8n');
		for (const f of fs.readdirSync(dotN8n)) {
			const file = path.join(dotN8n, f);
			if (/^database\.sqlite|\.log$/.test(f) && fs.statSync(file).isFile()) assertClean(fs.readFileSync(file, 'latin1'), `${f} (n8n's database)`);
		}
	});
}

/** Signs in, opens the trigger's workflow and panel, and looks for the production URL. Returns the browser. */
async function editorCheck({ major, baseUrl, workflowId, triggerUrl }) {
	const { launch } = require('./lib/browser');
	fs.mkdirSync(SHOTS, { recursive: true });
	const browser = await launch();
	const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	page.setDefaultTimeout(45000);
	const shot = async (name) => {
		const file = path.join(SHOTS, `n8n${major}-callback-${name}.png`);
		await page.screenshot({ path: file });
		say(`    screenshot ${path.relative(process.cwd(), file)}`);
	};
	try {
		await page.goto(`${baseUrl}/signin`);
		await page.getByLabel('Email').or(page.locator('input[name="emailOrLdapLoginId"], input[name="email"], input[type="email"]')).first().fill(OWNER.email);
		await page.getByLabel('Password').or(page.locator('input[type="password"]')).first().fill(OWNER.password);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.waitForURL((u) => !u.pathname.includes('/signin'));
		await page.goto(`${baseUrl}/workflow/${workflowId}`);
		const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${TRIGGER_NODE}"]`);
		await node.waitFor({ state: 'visible' });
		await shot('canvas');
		await node.dblclick();
		await page.locator('[data-test-id="ndv"]').waitFor({ state: 'visible' });
		await shot('panel');
		// The webhook URLs section: "Production URL" shows the URL to paste into the Kickoff.
		const urls = page.locator('[data-test-id="ndv"]').getByText(/Webhook URLs/i).first();
		await urls.click();
		// The toggle's own label: the trigger's instructions mention the Production URL too.
		const prod = page.locator('[data-test-id="ndv"]').getByText('Production URL', { exact: true }).first();
		await prod.click();
		const shown = page.locator('[data-test-id="ndv"]').getByText(triggerUrl, { exact: true }).first();
		await shown.waitFor({ state: 'visible' });
		await shot('production-url');
	} catch (err) {
		await shot('failed').catch(() => {});
		await browser.close().catch(() => {});
		throw err;
	}
	return browser;
}

module.exports = { callbackSuite, productionUrl, restClient, decodeExecutionData, kickoffVia, answeredDelivery, newFinishedExecutions };
