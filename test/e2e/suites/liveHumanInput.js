'use strict';
// Human input as the hosted service does it today, in a real n8n: the reference crew service
// in its live dialect (docs/development/service-api.md, the "Live" facts) calls the top-level
// humanInputWebhookUrl with no Authorization and a UUID task_id, and answers POST /resume with
// a new kickoff id.
//
//   node test/e2e/run.js --only liveHumanInput [--n8n 2|1|all]
//
// Per major, on the shared n8n, workflows/live-human-input/:
//   trigger.json  Crew Trigger 1.1 (events: humanInput) with NO Crew API credential →
//                 Crew Resume (approve, Wait for the Resumed Run), its Kickoff ID and Task ID left
//                 at their defaults, which read the trigger's item; published (2.x) / active (1.x)
//   kickoff.json  Kickoff 1.1 with Human Input Webhook URL = that trigger's production URL and no
//                 callback secret in its Crew API credential, a crew that pauses at analysis_task (meta.reference)
//   kickoff-legacy-secret.json  the same with a legacy Crew Webhook URL too, and a Crew API credential
//                 holding a Legacy Webhook Secret (this suite's), which the kickoff puts in meta
// and the checks: the kickoff sends the top-level humanInputWebhookUrl and no humanInputWebhook
// object; the service's call (no auth) is answered 200; n8n ran the trigger workflow once, its
// item {kickoff_id, task_id (a UUID), task_output, authenticated: false}; Resume sent executionId
// and taskId and output the resumed run's result with kickoff_id = the new run and
// resumed_kickoff_id = the paused one; a forged call naming two kickoff ids gets a bare 401 (the
// reason in n8n's log) and runs nothing; the legacy kickoff's call echoes meta with the secret, and
// neither the trigger's item nor anything n8n stored or logged shows it.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { WORKFLOWS_DIR } = require('../lib/fixtures');
const { items, pairedIndexes } = require('../lib/runData');
const {
	productionUrl,
	kickoffVia,
	answeredDelivery,
	theNewExecution,
} = require('../lib/crewCalls');

const DIR = path.join(WORKFLOWS_DIR, 'live-human-input');
const URL_PLACEHOLDER = '__LIVE_HITL_TRIGGER_URL__';
const TRIGGER_NODE = 'Crew Trigger';
const TOPIC = 'callbacks';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// After the refused call was answered: how long no execution may appear.
const QUIET_MS = 2000;

const { sleep, until } = require('../lib/until');
const { registerSecret } = require('../lib/tokens');

// The Legacy Webhook Secret of this suite's credential, made once per run; the closing check looks for it too.
const LEGACY_CREDENTIAL = { id: 'crewLegacySecr01', name: 'Crew (legacy webhook secret, e2e)' };
const LEGACY_SECRET = `legacy-e2e-${crypto.randomBytes(16).toString('hex')}`;
registerSecret('legacy webhook secret', LEGACY_SECRET);

/** workflows/live-human-input/*.json by file name, the trigger's URL filled in. */
function loadWorkflows(url) {
	const out = {};
	for (const f of fs.readdirSync(DIR).filter((name) => name.endsWith('.json'))) {
		out[f.slice(0, -5)] = JSON.parse(
			fs.readFileSync(path.join(DIR, f), 'utf8').split(URL_PLACEHOLDER).join(url),
		);
	}
	return out;
}

async function run(t) {
	const { check } = t;
	const { n8n, crew, workflows, rest } = t;
	const ctx = { known: new Set(), triggerUrl: triggerUrlOf(t.baseUrl) };
	const ready = await check(
		'the Crew Trigger workflow (no callback credential) published on the shared n8n; the service in its live dialect',
		async () => {
			await t.publish('trigger');
			for (const e of await rest.executions(workflows.trigger.id)) ctx.known.add(String(e.id));
		},
	);
	if (!ready) return;
	const triggerId = workflows.trigger.id;

	await check(
		'Kickoff sends the top-level humanInputWebhookUrl, and no humanInputWebhook object without a credential',
		async () => {
			ctx.kickoffId = await kickoffVia(
				n8n,
				crew,
				workflows.kickoff,
				(id) => {
					ctx.kickoffId = id;
				},
				(wf) => t.run(wf.id),
			);
			const sent = (await crew.requests()).find(
				(r) => r.route === 'kickoff' && r.kickoffId === ctx.kickoffId,
			);
			assert.equal(sent.body.humanInputWebhookUrl, ctx.triggerUrl);
			assert.ok(
				!('humanInputWebhook' in sent.body),
				`the kickoff body: ${JSON.stringify(sent.body)}`,
			);
		},
	);

	await check(
		"the service's human-input call, without Authorization, is answered 200",
		async () => {
			assert.ok(ctx.kickoffId, 'no kickoff');
			const { delivery, all } = await answeredDelivery(crew, ctx.kickoffId);
			assert.deepEqual(
				all.map((d) => d.kind),
				['humanInput'],
				'one call for the kickoff',
			);
			assert.equal(delivery.url, ctx.triggerUrl);
			assert.equal(delivery.auth, undefined, 'sent without auth');
			assert.equal(
				delivery.status,
				200,
				`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
			);
			assert.match(delivery.payload.task_id, UUID);
		},
	);

	await check(
		"n8n ran the trigger workflow once: the live item, and Resume by its defaults waited for the resumed run's result",
		async () => {
			assert.ok(ctx.kickoffId, 'no kickoff');
			const { data } = await theNewExecution({
				n8n,
				rest,
				workflowId: triggerId,
				known: ctx.known,
				timeoutMs: 60000,
			});
			const [item] = items({ data }, TRIGGER_NODE).map((i) => i.json);
			assert.equal(item.event, 'human_input_requested');
			assert.equal(item.kickoff_id, ctx.kickoffId);
			assert.match(item.task_id, UUID);
			assert.equal(item.task_output, `Analysis of topic=${TOPIC}`);
			assert.equal(item.authenticated, false);
			const resumed = items({ data }, 'Resume');
			assert.equal(resumed.length, 1);
			const runs = await crew.runs();
			const newRun = runs.find((r) => r.resumedFrom === ctx.kickoffId);
			assert.ok(newRun, `no run resumed from ${ctx.kickoffId}`);
			assert.deepEqual(pairedIndexes(resumed[0]), [0]);
			const out = resumed[0].json;
			assert.deepEqual(
				{
					kickoff_id: out.kickoff_id,
					resumed_kickoff_id: out.resumed_kickoff_id,
					state: out.state,
					result: out.result,
				},
				{
					kickoff_id: newRun.kickoffId,
					resumed_kickoff_id: ctx.kickoffId,
					state: 'completed',
					result: `Crew finished: topic=${TOPIC} (feedback: approved in n8n)`,
				},
			);
			const resumes = (await crew.requests()).filter((r) => r.route === 'resume');
			assert.equal(resumes.length, 1, 'one resume sent');
			assert.equal(resumes[0].status, 200);
			assert.equal(resumes[0].body.executionId, ctx.kickoffId);
			assert.equal(resumes[0].body.taskId, item.task_id);
			assert.equal(resumes[0].body.isApprove, true);
		},
	);

	await check('a forged call naming two different kickoff ids: 401, and nothing runs', async () => {
		const res = await fetch(ctx.triggerUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				kickoff_id: ctx.kickoffId,
				execution_id: '00000000-0000-4000-8000-000000000000',
				task_id: 't',
				task_output: 'x',
			}),
		});
		const text = await res.text();
		assert.equal(res.status, 401, `${res.status} ${text.slice(0, 300)}`);
		// A bare 401: the reason is in n8n's log only.
		assert.equal(text, '');
		// n8n writes its log lines a moment after the answer.
		await until(
			"the refusal's reason in n8n's log",
			() =>
				/Crew Trigger "Crew Trigger" refused a call \(humanInput\): the call's kickoff_id and execution_id differ/.test(
					n8n.loggedText(),
				),
			15000,
			250,
		);
		await sleep(QUIET_MS);
		const fresh = (await rest.executions(triggerId)).filter((e) => !ctx.known.has(String(e.id)));
		assert.deepEqual(
			fresh.map((e) => `${e.id} ${e.status}`),
			[],
			'no new execution',
		);
	});

	await check(
		"a Kickoff with a legacy Crew Webhook URL and a Legacy Webhook Secret: the call echoes meta with it; the trigger's item and its stored run show none",
		async () => {
			const kickoffId = await kickoffVia(
				n8n,
				crew,
				workflows['kickoff-legacy-secret'],
				undefined,
				(wf) => t.run(wf.id),
			);
			const { delivery } = await answeredDelivery(crew, kickoffId);
			assert.equal(
				delivery.status,
				200,
				`answered ${delivery.status}${delivery.error ? ` (${delivery.error})` : ''}`,
			);
			assert.equal(
				delivery.payload.meta.webhook_secret,
				LEGACY_SECRET,
				'the service echoed the secret in meta',
			);
			const { data } = await theNewExecution({
				n8n,
				rest,
				workflowId: triggerId,
				known: ctx.known,
				timeoutMs: 60000,
			});
			const [item] = items({ data }, TRIGGER_NODE).map((i) => i.json);
			assert.equal(item.kickoff_id, kickoffId);
			assert.deepEqual(item.payload.meta, {
				reference: { durationMs: 1500, humanInput: { taskId: 'analysis_task' } },
			});
			assert.ok(
				!JSON.stringify(data).includes(LEGACY_SECRET),
				'the Legacy Webhook Secret is in the stored run',
			);
			assert.ok(
				!n8n.loggedText().includes(LEGACY_SECRET),
				"the Legacy Webhook Secret is in n8n's log",
			);
		},
	);
}

/** The production URL of the trigger's webhook on an n8n at baseUrl. */
function triggerUrlOf(baseUrl) {
	const draft = loadWorkflows(URL_PLACEHOLDER);
	return productionUrl(
		baseUrl,
		draft.trigger.nodes.find((n) => n.name === TRIGGER_NODE),
		'crew',
	);
}

module.exports = {
	name: 'liveHumanInput',
	title: 'Human input as the hosted service does it today',
	majors: ['1', '2'],
	seconds: 5,
	needs: { server: true },
	service: { dialect: 'live' },
	workflows: (fixtures, { baseUrl }) => loadWorkflows(triggerUrlOf(baseUrl)),
	run,
	credentials: ({ crewUrl, tokens }) => [
		{
			...LEGACY_CREDENTIAL,
			type: 'crewApi',
			data: { baseUrl: crewUrl, token: tokens.organization, metaSecret: LEGACY_SECRET },
		},
	],
};
