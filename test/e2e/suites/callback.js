'use strict';
// The callback round trip in a real n8n: Kickoff with a Crew Webhook URL → the reference
// crew service runs the crew → it calls the Crew Trigger's production URL → n8n runs the
// trigger's workflow.
//
//   node test/e2e/run.js --only callback [--n8n 2|1|all] [--without-package]
//
// Screenshots of the editor in test/e2e/screenshots/ (git-ignored).
//
// Per major, on the shared n8n (the callback suite's Crew API credentials imported with it), the
// workflows of workflows/callback/:
//   trigger.json               Crew Trigger, node version 1 (its Webhook Secret parameter) (events:
//                              crew, secret e2e-secret) → No-op; published over REST
//   kickoff.json               Manual trigger → Crew Kickoff with the trigger's production URL as
//                              Crew Webhook URL and Webhook Secret e2e-secret
//   kickoff-wrong-secret.json  the same with another secret
//   (those three at node version 1: the Webhook Secret parameter and option still agree)
//   examples/crew-trigger.json Crew Trigger 1.1, type crewCallbackTrigger as the editor adds it now
//                              (events: runFinished, the deployment's Crew API credential with its
//                              Callback Bearer Token) → No-op
//   examples/crew-trigger-kickoff.json  Kickoff 1.1 with Event Stream URL = that trigger's URL, same credential
//   stream-kickoff-wrong-token.json  the same with a Crew API credential holding another callback bearer token
//   hitl-trigger.json          Crew Trigger 1.1 (events: humanInput) → Crew Resume (approve) of its kickoff
//   hitl-kickoff.json          Kickoff 1.1 with Human Input Webhook URL = that trigger's URL, a crew
//                              that pauses at analysis_task (meta.reference)
//   feedback-trigger.json      Crew Trigger 1.1 (events: feedbackRequest, the credential's Flow
//                              Signing Secret) → Crew Answer Feedback Request (approved)
//   feedback-kickoff.json      Kickoff 1.1 of a crew that pauses at research_task; the service's
//                              flowFeedback option (the dashboard webhook) points at that trigger
// kickoff.json runs with `n8n execute --id` in its own process, against the same database,
// while `n8n start` serves the webhook; the other kickoff workflows run over REST. The checks read the service's webhook
// deliveries (/_reference/webhooks) and n8n's executions over REST as the owner.

const assert = require('node:assert/strict');
const { assertNoTokenInN8n } = require('../lib/tokens');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const { OWNER } = require('../lib/n8n');
const { WORKFLOWS_DIR, loadExample } = require('../lib/fixtures');
const { items } = require('../lib/runData');
const { say } = require('../lib/report');
const { decodeExecutionData } = require('../lib/rest');
const { until, sleep } = require('../lib/until');
const { registerSecret } = require('../lib/tokens');
const {
	runWhen,
	productionUrl,
	deliveries,
	answeredDelivery,
	newFinishedExecutions,
	theNewExecution,
	kickoffVia,
	KICKOFF_NODE,
} = require('../lib/crewCalls');

const CALLBACK_DIR = path.join(WORKFLOWS_DIR, 'callback');
const SHOTS = path.join(__dirname, '..', 'screenshots');
const URL_PLACEHOLDER = '__CREW_TRIGGER_URL__';
// The version 1.1 triggers (callback secrets from the Crew API credential), by placeholder in the kickoff workflows.
const V11_TRIGGERS = {
	__STREAM_TRIGGER_URL__: 'stream-trigger',
	__HITL_TRIGGER_URL__: 'hitl-trigger',
	__FEEDBACK_TRIGGER_URL__: 'feedback-trigger',
};
// Crew API credentials of the reference deployment with callback secrets: one for the kickoffs and
// the triggers alike (each secret set once), one whose callback bearer token the triggers do not
// know. Named to sort before the organization credential, which new nodes get (lib/stack.js).
const CALLBACK_CREDENTIAL = { id: 'crewCallback0001', name: 'Crew (callbacks, e2e)' };
const WRONG_CALLBACK_CREDENTIAL = { id: 'crewCallbackBad1', name: 'Crew (callbacks, wrong token)' };
const SECRET = 'e2e-secret';
const TOPIC = 'callbacks';
const TRIGGER_NODE = 'Crew Trigger';
const AFTER_TRIGGER_NODE = 'Crew Finished';
// After the refused call was answered: how long no execution may appear.
const QUIET_MS = 2000;

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
	const credentials = { crewApi: CALLBACK_CREDENTIAL };
	out['stream-trigger'] = loadExample('crew-trigger.json', { id: 'e2eCbStreamTrig1', credentials });
	// The examples suite publishes the example as a user imports it, on the same n8n: this copy
	// listens under a webhookId of its own, or the second trigger to go live would clash.
	out['stream-trigger'].nodes.find((n) => n.webhookId).webhookId =
		'e2ecb5a1-8b3c-4d4e-8f90-e2ec0a11bac1';
	out['stream-kickoff'] = loadExample('crew-trigger-kickoff.json', {
		id: 'e2eCbStreamKick1',
		credentials,
		text: urls.__STREAM_TRIGGER_URL__
			? { [EXAMPLE_URL_PLACEHOLDER]: urls.__STREAM_TRIGGER_URL__ }
			: {},
		set: { [KICKOFF_NODE]: { 'options.meta': '{"reference": {"durationMs": 1500}}' } },
	});
	return out;
}

// The callback secrets of those credentials, made once per run; the closing check looks for them too.
const CALLBACK_TOKENS = {
	callback: `cb-tok-e2e-${crypto.randomBytes(16).toString('hex')}`,
	wrongCallback: `cb-tok-wrong-${crypto.randomBytes(16).toString('hex')}`,
	signingSecret: `whsec_e2e${crypto.randomBytes(16).toString('hex')}`,
	wrongSigningSecret: `whsec_wrong${crypto.randomBytes(16).toString('hex')}`,
};
for (const [kind, value] of Object.entries(CALLBACK_TOKENS)) registerSecret(kind, value);

/** The Crew API credentials of the 1.1 workflows, in n8n's import format: the deployment's Base URL and token, and callback secrets. */
function callbackCredentials(tokens, crewUrl, crewTokens) {
	const deployment = { baseUrl: crewUrl, token: crewTokens.organization };
	return [
		{
			...CALLBACK_CREDENTIAL,
			type: 'crewApi',
			data: { ...deployment, bearerToken: tokens.callback, signingSecret: tokens.signingSecret },
		},
		{
			...WRONG_CALLBACK_CREDENTIAL,
			type: 'crewApi',
			data: { ...deployment, bearerToken: tokens.wrongCallback },
		},
	];
}

/**
 * The callback round trip on the shared n8n. The trigger workflows are published over REST;
 * the version 1 kickoff runs headless with `n8n execute` (a workflow runs from the CLI too), the
 * others over REST.
 */
async function run(t) {
	const { major, check } = t;
	const { n8n, crew, workflows, rest } = t;
	const ctx = {
		known: new Set(),
		baseUrl: t.baseUrl,
		tokens: CALLBACK_TOKENS,
		...triggerUrls(t.baseUrl),
	};
	const kick = (workflow, onStarted) =>
		kickoffVia(n8n, crew, workflow, onStarted, (wf) => t.run(wf.id));
	let context;
	const ready = await check(
		'a version 1 Crew Trigger workflow (Webhook Secret parameter) and the 1.1 triggers published on the shared n8n; the owner signed in over REST',
		async () => {
			if (t.opts.withoutPackage)
				say('  --without-package: n8n-nodes-crewai is NOT installed; the checks should fail');
			for (const name of ['trigger', ...Object.values(V11_TRIGGERS)]) await t.publish(name);
			assert.ok(rest.cookie, 'signed in');
		},
	);
	if (!ready) return;
	const triggerId = workflows.trigger.id;

	await check(
		"the trigger's production URL is the one n8n serves and shows: /webhook/<webhookId>/crew",
		async () => {
			const wf = await rest.get(`workflows/${triggerId}`);
			assert.equal(wf.active, true, 'the Crew Trigger workflow is active in n8n');
			// What the editor builds the URL from (its "Production URL").
			const settings = await rest.get('settings');
			const shown = `${String(settings.urlBaseWebhook).replace(/\/+$/, '')}/webhook/${ctx.webhookId}/crew`;
			assert.equal(shown, ctx.triggerUrl, "n8n's webhook base URL + the trigger's path");
			// Registered: n8n answers with the trigger's own 401 (no secret), not 404 "not registered".
			// n8n answers readiness before it has registered the active workflows' webhooks (seen
			// under load on 2.41): a 404 means "not yet", until the guard.
			const { res, body } = await until(
				'the Crew Trigger webhook registered',
				async () => {
					const r = await fetch(ctx.triggerUrl, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: '{"result":"no secret"}',
					});
					const text = await r.text();
					return r.status === 404 ? null : { res: r, body: text };
				},
				60000,
				500,
			);
			assert.equal(
				res.status,
				401,
				`POST ${ctx.triggerUrl} without the secret: ${res.status} ${body.slice(0, 300)}`,
			);
			// A bare 401: why is in n8n's log, not in the answer, which anyone calling the URL reads.
			assert.equal(body, '', 'the 401 has no body');
			// n8n writes its log lines a moment after the answer.
			await until(
				"the refusal's reason in n8n's log",
				() =>
					/Crew Trigger "Crew Trigger" refused a call \(legacy\): the webhook secret is missing or wrong/.test(
						n8n.loggedText(),
					),
				15000,
				250,
			);
			// Nor did that refused call start the workflow.
			await sleep(QUIET_MS);
			const executions = await rest.executions(triggerId);
			for (const e of executions) ctx.known.add(String(e.id));
			assert.deepEqual(
				executions.map((e) => `${e.id} ${e.status}`),
				[],
				'no execution of the trigger workflow',
			);
		},
	);

	await check(
		'Kickoff (`n8n execute`) sends the Crew Webhook URL and the secret in meta',
		async () => {
			ctx.kickoffId = await kickoffVia(n8n, crew, workflows.kickoff, (id) => {
				ctx.kickoffId = id;
			});
			const run = (await crew.runs()).find((r) => r.kickoffId === ctx.kickoffId);
			assert.ok(run, `the service has no run ${ctx.kickoffId}`);
			assert.deepEqual(run.inputs, { topic: TOPIC });
			assert.equal(run.webhooks.crewWebhookUrl, ctx.triggerUrl);
			assert.deepEqual(run.meta, { reference: { durationMs: 1500 }, webhook_secret: SECRET });
		},
	);

	await check("the service's crew webhook call to n8n is answered 200", async () => {
		assert.ok(ctx.kickoffId, 'no kickoff');
		const { delivery, all } = await answeredDelivery(crew, ctx.kickoffId);
		assert.equal(
			all.length,
			1,
			`one call for the kickoff (${JSON.stringify(all.map((d) => [d.kind, d.status]))})`,
		);
		assert.equal(delivery.kind, 'crew');
		assert.equal(delivery.url, ctx.triggerUrl);
		assert.equal(
			delivery.status,
			200,
			`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
		);
		assert.equal(delivery.payload.result, `Crew finished: topic=${TOPIC}`);
		assert.equal(delivery.payload.meta.webhook_secret, SECRET, 'the service echoed the secret');
	});

	await check(
		'n8n ran the trigger workflow once: {event: crew, kickoff_id, result, meta} without the secret',
		async () => {
			assert.ok(ctx.kickoffId, 'no kickoff');
			const fresh = await newFinishedExecutions(rest, triggerId, ctx.known);
			for (const e of fresh) ctx.known.add(String(e.id));
			assert.equal(
				fresh.length,
				1,
				`one new execution (got ${fresh.map((e) => `${e.id} ${e.status}`).join(', ')})`,
			);
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
			assert.deepEqual(
				item.meta,
				{ reference: { durationMs: 1500 } },
				'meta as sent, webhook_secret removed',
			);
			assert.deepEqual(
				items(run, AFTER_TRIGGER_NODE).map((i) => i.json),
				[item],
				'the next node got the item',
			);
			// Nowhere in what n8n stored of the run: the secret is the workflow's, not the run's.
			assert.ok(
				!JSON.stringify(data.resultData).includes(SECRET),
				'the secret appears in the stored run data',
			);
		},
	);

	await check(
		'a kickoff with a wrong secret: n8n refuses the call with 401 and runs nothing',
		async () => {
			const kickoffId = await kick(workflows['kickoff-wrong-secret']);
			const { delivery, all } = await answeredDelivery(crew, kickoffId);
			assert.equal(all.length, 1, 'one call for the kickoff');
			assert.equal(delivery.url, ctx.triggerUrl);
			assert.equal(delivery.payload.meta.webhook_secret, 'not-the-e2e-secret');
			assert.equal(
				delivery.status,
				401,
				`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
			);
			await sleep(QUIET_MS);
			const fresh = (await rest.executions(triggerId)).filter((e) => !ctx.known.has(String(e.id)));
			assert.deepEqual(
				fresh.map((e) => `${e.id} ${e.status}`),
				[],
				'no new execution of the trigger workflow',
			);
		},
	);

	await streamAndHumanInputChecks({ check, n8n, crew, workflows, rest, ctx, kick });

	await check("the editor shows the trigger's production URL (Chromium)", async () => {
		context = await editorCheck({
			t,
			major,
			baseUrl: ctx.baseUrl,
			workflowId: triggerId,
			triggerUrl: ctx.triggerUrl,
		});
	});
	if (context) await context.close().catch(() => {});
}

/**
 * The service's own channels with node version 1.1: an event stream with the Crew API
 * credential's callback bearer token, a wrong token, and a human-input round trip that ends with the trigger
 * workflow's Resume completing the crew; then no callback token anywhere n8n wrote.
 */
async function streamAndHumanInputChecks({ check, n8n, crew, workflows, rest, ctx, kick }) {
	const streamTriggerId = workflows['stream-trigger'].id;
	const hitlTriggerId = workflows['hitl-trigger'].id;
	const known = new Set();
	for (const id of [streamTriggerId, hitlTriggerId])
		for (const e of await rest.executions(id)) known.add(String(e.id));

	await check(
		'Kickoff 1.1 with an event stream: the trigger workflow gets crew_kickoff_completed with the final output',
		async () => {
			const kickoffId = await kick(workflows['stream-kickoff']);
			const { delivery, all } = await answeredDelivery(crew, kickoffId);
			assert.equal(
				all.length,
				1,
				`one stream call (${JSON.stringify(all.map((d) => [d.kind, d.status]))})`,
			);
			assert.equal(delivery.kind, 'stream');
			assert.equal(delivery.auth, 'bearer');
			assert.equal(delivery.url, ctx.urls.__STREAM_TRIGGER_URL__);
			assert.equal(
				delivery.status,
				200,
				`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
			);
			const { data } = await theNewExecution({ n8n, rest, workflowId: streamTriggerId, known });
			const out = items({ data }, TRIGGER_NODE).map((i) => i.json);
			assert.equal(out.length, 1, `one item: ${JSON.stringify(out.map((i) => i.event))}`);
			assert.equal(out[0].event, 'crew_kickoff_completed');
			assert.equal(out[0].kickoff_id, kickoffId);
			assert.equal(out[0].status, 'completed');
			assert.equal(out[0].result, `Crew finished: topic=${TOPIC}`);
			assert.deepEqual(out[0].result_json, {
				inputs: { topic: TOPIC },
				kickoffNumber: 1 + (await crew.runs()).findIndex((r) => r.kickoffId === kickoffId),
			});
		},
	);

	await check('an event stream with a wrong token: n8n answers 401 and runs nothing', async () => {
		const kickoffId = await kick(workflows['stream-kickoff-wrong-token']);
		const { delivery } = await answeredDelivery(crew, kickoffId);
		assert.equal(delivery.kind, 'stream');
		assert.equal(
			delivery.status,
			401,
			`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
		);
		await sleep(QUIET_MS);
		const fresh = (await rest.executions(streamTriggerId)).filter((e) => !known.has(String(e.id)));
		assert.deepEqual(
			fresh.map((e) => `${e.id} ${e.status}`),
			[],
			'no new execution of the stream trigger workflow',
		);
	});

	await check(
		'human input: the trigger workflow gets kickoff_id, task_id, task_output and its Resume completes the crew',
		async () => {
			const kickoffId = await kick(workflows['hitl-kickoff']);
			const { delivery } = await answeredDelivery(crew, kickoffId);
			assert.equal(delivery.kind, 'humanInput');
			assert.equal(
				delivery.status,
				200,
				`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
			);
			const { data } = await theNewExecution({ n8n, rest, workflowId: hitlTriggerId, known });
			const [item] = items({ data }, TRIGGER_NODE).map((i) => i.json);
			assert.equal(item.event, 'human_input_requested');
			assert.equal(item.kickoff_id, kickoffId);
			assert.equal(item.task_id, 'analysis_task');
			assert.equal(item.task_output, `Analysis of topic=${TOPIC}`);
			const [resumed] = items({ data }, 'Resume').map((i) => i.json);
			assert.equal(resumed.status, 'resumed', `Resume output: ${JSON.stringify(resumed)}`);
			const run = await runWhen(crew, kickoffId, (r) => r.state === 'completed', 'completed');
			assert.deepEqual(
				run.resumes.map((r) => [r.taskId, r.approved, r.feedback]),
				[['analysis_task', true, 'approved in n8n']],
			);
		},
	);

	const feedbackTriggerId = workflows['feedback-trigger'].id;
	for (const e of await rest.executions(feedbackTriggerId)) known.add(String(e.id));

	await check(
		'flow feedback: the signed request starts the trigger workflow, whose Answer Feedback Request is taken once',
		async () => {
			await crew.configure({
				flowFeedback: {
					url: ctx.urls.__FEEDBACK_TRIGGER_URL__,
					secret: ctx.tokens.signingSecret,
					headers: 'crewai',
					shape: 'flat',
				},
			});
			const kickoffId = await kick(workflows['feedback-kickoff']);
			const { delivery } = await answeredDelivery(crew, kickoffId);
			assert.equal(delivery.kind, 'feedbackRequest');
			assert.equal(delivery.auth, 'signature');
			assert.equal(
				delivery.status,
				200,
				`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
			);
			const { data } = await theNewExecution({ n8n, rest, workflowId: feedbackTriggerId, known });
			const [request] = items({ data }, TRIGGER_NODE).map((i) => i.json);
			assert.equal(request.event, 'feedback_requested');
			assert.equal(request.flow_id, kickoffId);
			const [answer] = items({ data }, 'Answer').map((i) => i.json);
			assert.deepEqual(
				{ answered: answer.answered, outcome: answer.outcome, host: answer.callback_host },
				{ answered: true, outcome: 'approved', host: new URL(request.callback_url).host },
			);
			assert.ok(
				!JSON.stringify(answer).includes(request.callback_url),
				'the callback URL is in the Answer output',
			);
			const feedback = await (await fetch(`${crew.url}/_reference/feedback-requests`)).json();
			assert.deepEqual(
				feedback.filter((r) => r.kickoffId === kickoffId).map((r) => r.answers),
				[[{ feedback: 'approved', status: 200 }]],
			);
			await runWhen(crew, kickoffId, (r) => r.state === 'completed', 'completed');
		},
	);

	await check(
		'the same signed feedback request sent again within its 5 minutes (a replay): 200, and nothing runs',
		async () => {
			const [delivery] = (await deliveries(crew)).filter(
				(d) =>
					d.kind === 'feedbackRequest' &&
					d.url === ctx.urls.__FEEDBACK_TRIGGER_URL__ &&
					d.status === 200,
			);
			assert.ok(delivery, 'no feedback request was delivered');
			// Its body as the service sent it, signed as the service signs it: only the request's own ID tells it is the same one.
			const rawBody = JSON.stringify(delivery.payload);
			const timestamp = String(Math.floor(Date.now() / 1000));
			const signature = `sha256=${crypto.createHmac('sha256', ctx.tokens.signingSecret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
			const res = await fetch(ctx.urls.__FEEDBACK_TRIGGER_URL__, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-crewai-signature': signature,
					'x-crewai-timestamp': timestamp,
				},
				body: rawBody,
			});
			const text = await res.text();
			assert.equal(res.status, 200, `${res.status} ${text.slice(0, 300)}`);
			assert.deepEqual(JSON.parse(text), {
				received: true,
				ignored: 'this feedback request was received before',
			});
			await sleep(QUIET_MS);
			const fresh = (await rest.executions(feedbackTriggerId)).filter(
				(e) => !known.has(String(e.id)),
			);
			assert.deepEqual(
				fresh.map((e) => `${e.id} ${e.status}`),
				[],
				'no new execution of the feedback trigger workflow',
			);
		},
	);

	await check(
		'a feedback request signed with another secret: n8n answers 401 and runs nothing',
		async () => {
			await crew.configure({
				flowFeedback: {
					url: ctx.urls.__FEEDBACK_TRIGGER_URL__,
					secret: ctx.tokens.wrongSigningSecret,
				},
			});
			const kickoffId = await kick(workflows['feedback-kickoff']);
			const { delivery } = await answeredDelivery(crew, kickoffId);
			assert.equal(
				delivery.status,
				401,
				`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
			);
			await sleep(QUIET_MS);
			const fresh = (await rest.executions(feedbackTriggerId)).filter(
				(e) => !known.has(String(e.id)),
			);
			assert.deepEqual(
				fresh.map((e) => `${e.id} ${e.status}`),
				[],
				'no new execution of the feedback trigger workflow',
			);
			await crew.configure({ flowFeedback: null });
		},
	);

	await check(
		'no callback token or signing secret in clear in any n8n log or its database',
		async () => {
			assertNoTokenInN8n(n8n, ctx.tokens, { database: true });
		},
	);
}

/** Signs in, opens the trigger's workflow and panel, and looks for the production URL. Returns its browser context. */
async function editorCheck({ t, major, baseUrl, workflowId, triggerUrl }) {
	fs.mkdirSync(SHOTS, { recursive: true });
	const context = await t.browser.newContext({ viewport: { width: 1440, height: 900 } });
	const page = await context.newPage();
	page.setDefaultTimeout(45000);
	const shot = async (name) => {
		const file = path.join(SHOTS, `n8n${major}-callback-${name}.png`);
		await page.screenshot({ path: file });
		say(`    screenshot ${path.relative(process.cwd(), file)}`);
	};
	try {
		await page.goto(`${baseUrl}/signin`);
		await page
			.getByLabel('Email')
			.or(
				page.locator('input[name="emailOrLdapLoginId"], input[name="email"], input[type="email"]'),
			)
			.first()
			.fill(OWNER.email);
		await page
			.getByLabel('Password')
			.or(page.locator('input[type="password"]'))
			.first()
			.fill(OWNER.password);
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
		const urls = page
			.locator('[data-test-id="ndv"]')
			.getByText(/Webhook URLs/i)
			.first();
		await urls.click();
		// The toggle's own label: the trigger's instructions mention the Production URL too.
		const prod = page
			.locator('[data-test-id="ndv"]')
			.getByText('Production URL', { exact: true })
			.first();
		await prod.click();
		const shown = page
			.locator('[data-test-id="ndv"]')
			.getByText(triggerUrl, { exact: true })
			.first();
		await shown.waitFor({ state: 'visible' });
		await shot('production-url');
	} catch (err) {
		await shot('failed').catch(() => {});
		await context.close().catch(() => {});
		throw err;
	}
	return context;
}

/** The triggers' production URLs on an n8n at baseUrl (their webhookIds are fixed in the JSON). */
function triggerUrls(baseUrl) {
	const draft = loadCallbackWorkflows();
	const triggerNode = draft.trigger.nodes.find((n) => n.name === TRIGGER_NODE);
	const triggerUrl = productionUrl(baseUrl, triggerNode, 'crew');
	const urls = { [URL_PLACEHOLDER]: triggerUrl };
	for (const [placeholder, name] of Object.entries(V11_TRIGGERS)) {
		urls[placeholder] = productionUrl(
			baseUrl,
			draft[name].nodes.find((n) => n.name === TRIGGER_NODE),
			'crew',
		);
	}
	return { triggerUrl, webhookId: triggerNode.webhookId, urls };
}

module.exports = {
	name: 'callback',
	title: 'Kickoff with a Crew Webhook URL and the Crew Trigger: the callback round trip',
	majors: ['1', '2'],
	seconds: 55,
	needs: { server: true, browser: true },
	run,
	workflows: (fixtures, { baseUrl }) => loadCallbackWorkflows(triggerUrls(baseUrl).urls),
	credentials: ({ crewUrl, tokens }) => callbackCredentials(CALLBACK_TOKENS, crewUrl, tokens),
};
