'use strict';
// Kickoff and Wait, Wait By: Callback, in a real n8n against the reference service in its
// live dialect, with a crew that pauses for human input after the execution parked. Live, a
// paused crew sends no stream event and reads NOT FOUND; what comes is the human-input call
// to the kickoff's humanInputWebhookUrl, without Authorization. The node hands the service
// the execution's resume URL there, and the call resumes the parked batch.
//
//   node test/e2e/run.js --only liveWaitByCallback [--n8n 2|1|all]
//
// Per major, on the shared n8n: workflows/wait-callback/wait-by-callback-batch.json (a copy) published
// (Webhook → one item per crew → Kickoff and Wait by callback, timeout 120 s), and these checks:
//   a batch of 3 (crews of 2 s and 3 s that complete, one that pauses 6 s after its kickoff,
//     after parking): the execution waits; forged human-input calls to its resume URL (an
//     unknown kickoff id; on 2.x also without ?signature=) are answered 401 and it keeps
//     waiting; the paused crew's own human-input call (no Authorization) is answered 200 and
//     the execution ends, long before the timeout, with the two records and the paused item
//     (its kickoff id and the call's task id), in order;
//   runs the service registers 3 s late, Poll Interval 0.1 s: a 5 s crew read NOT FOUND all
//     through its 1 s first phase is parked, and its call completes the execution; a batch whose
//     first crew fails 2.5 s in, while the second is not registered yet: the failure on the
//     error output, the second crew's completed record on the other, not a pause.

const { waitForWebhook } = require('../lib/webhookReady');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { WORKFLOWS_DIR } = require('../lib/fixtures');
const { decodeExecutionData } = require('../lib/rest');
const { until } = require('../lib/until');

const BATCH_WORKFLOW_FILE = path.join(
	WORKFLOWS_DIR,
	'wait-callback',
	'wait-by-callback-batch.json',
);
const LIVE = {
	dialect: 'live',
	registrationLagReads: 0,
	eventStream: { flushMs: 100, shuffle: false, duplicate: false },
};
const TIMEOUT_SECONDS = 120;

async function deliveries(crew) {
	const res = await fetch(`${crew.url}/_reference/webhooks`);
	return res.json();
}

async function run(t) {
	const { major, check, say } = t;
	const { n8n, crew, workflows, rest } = t;
	const ctx = { baseUrl: t.baseUrl };
	const ready = await check(
		'the Wait By: Callback batch workflow published on the shared n8n, its webhook registered',
		async () => {
			await t.publish('batch');
			await waitForWebhook(
				ctx.baseUrl,
				workflows.batch.nodes[0].parameters.path,
				'POST',
				n8n.server.proc,
			);
		},
	);
	if (!ready) return;
	const workflow = workflows.batch;
	const summary = async (executionId) =>
		(await rest.executions(workflow.id)).find((e) => String(e.id) === executionId);

	let batch;
	await check(
		'a batch of 3 whose second crew pauses for human input 6 s after its kickoff: the execution parks',
		async () => {
			await crew.reset();
			await crew.configure(LIVE);
			const crews = [
				{ topic: 'h-2s', reference: { durationMs: 2000 } },
				// Pauses at the end of analysis_task, two thirds into its 9 s.
				{
					topic: 'h-pause',
					reference: { durationMs: 9000, humanInput: { taskId: 'analysis_task' } },
				},
				{ topic: 'h-3s', reference: { durationMs: 3000 } },
			];
			const startedAt = Date.now();
			const res = await fetch(`${ctx.baseUrl}/webhook/${workflow.nodes[0].parameters.path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ crews, timeout: TIMEOUT_SECONDS, firstPhase: 1 }),
			});
			assert.equal(res.status, 200, `POST /webhook: ${res.status} ${await res.text()}`);
			const execution = await until(
				'a new execution',
				async () => (await rest.executions(workflow.id))[0],
			);
			const runs = await until('every kickoff', async () => {
				const found = await crew.runs();
				return found.length === 3 && found;
			});
			const kickoffIds = crews.map((c) => runs.find((r) => r.inputs.topic === c.topic).kickoffId);
			batch = { executionId: String(execution.id), kickoffIds, startedAt };
			await until(
				'waiting',
				async () => (await summary(batch.executionId))?.status === 'waiting',
				5000,
			);
			assert.notEqual(
				(await crew.runs()).find((r) => r.kickoffId === kickoffIds[1]).state,
				'paused',
				'the crew paused before the execution parked: nothing to check',
			);
		},
	);

	await check(
		'forged human-input calls to the resume URL (an unknown kickoff id; on 2.x no signature) get 401 and it keeps waiting',
		async () => {
			assert.ok(batch, 'no batch');
			// The first crew's end call names the resume URL the node handed the service.
			const [call] = await until(
				"the first crew's call",
				async () => {
					const calls = (await deliveries(crew)).filter(
						(d) => d.kind === 'stream' && d.status !== null,
					);
					return calls.length > 0 && calls;
				},
				15000,
			);
			assert.equal(call.status, 200, `the first crew's call was answered ${call.status}`);
			const resumeUrl = new URL(call.url);
			assert.equal(
				resumeUrl.searchParams.has('signature'),
				major !== '1',
				`resume URL ${resumeUrl.pathname}${resumeUrl.search ? '?signature=…' : ''}`,
			);
			const forge = async (url, kickoffId) =>
				await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						kickoff_id: kickoffId,
						execution_id: kickoffId,
						task_id: '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f',
						task_output: 'forged',
						meta: null,
					}),
				});
			const unknown = await forge(resumeUrl, 'no-such-kickoff');
			const unknownBody = await unknown.text();
			assert.equal(unknown.status, 401, `unknown kickoff id: ${unknown.status} ${unknownBody}`);
			assert.match(unknownBody, /names no crew this execution waits for/);
			if (major !== '1') {
				const unsigned = new URL(resumeUrl);
				unsigned.search = '';
				const res = await forge(unsigned, batch.kickoffIds[1]);
				assert.equal(res.status, 401, `no signature: ${res.status} ${await res.text()}`);
			}
			assert.equal((await summary(batch.executionId))?.status, 'waiting');
			say(
				`    answers: unknown kickoff ${unknown.status} ${unknownBody}${major !== '1' ? '; no signature 401 (n8n)' : ''}`,
			);
		},
	);

	await check(
		"the paused crew's human-input call (no Authorization) resumes it long before the timeout: two records and the paused item with the call's task id, in order",
		async () => {
			assert.ok(batch, 'no batch');
			const { executionId, kickoffIds, startedAt } = batch;
			const done = await until(
				'finished',
				async () => {
					const e = await summary(executionId);
					return e && !['new', 'running', 'waiting'].includes(e.status) && e;
				},
				60000,
				500,
			);
			const tookMs = Date.now() - startedAt;
			assert.equal(done.status, 'success');
			const humanInput = (await deliveries(crew)).filter((d) => d.kind === 'humanInput');
			assert.equal(humanInput.length, 1, 'one human-input call');
			assert.equal(humanInput[0].auth, undefined, 'the human-input call carries no Authorization');
			assert.equal(
				humanInput[0].status,
				200,
				`the human-input call was answered ${humanInput[0].status}`,
			);
			const taskId = humanInput[0].payload.task_id;
			const data = decodeExecutionData(n8n, (await rest.execution(executionId)).data);
			const after = data.resultData.runData.After[0].data.main[0];
			assert.deepEqual(
				after.map((i) => [i.json.kickoff_id, i.json.state, i.json.result, i.pairedItem?.item]),
				[
					[kickoffIds[0], 'completed', 'Crew finished: topic=h-2s', 0],
					[kickoffIds[1], 'paused', null, 1],
					[kickoffIds[2], 'completed', 'Crew finished: topic=h-3s', 2],
				],
			);
			assert.equal(after[1].json.task_id, taskId);
			assert.match(
				String(after[1].json.next_step),
				new RegExp(`kickoff ID ${kickoffIds[1]} and task ID ${taskId}`),
			);
			assert.ok(tookMs < 60_000, `took ${tookMs} ms (timeout ${TIMEOUT_SECONDS} s)`);
			say(
				`    resumed ${(tookMs / 1000).toFixed(1)} s after the webhook call (timeout ${TIMEOUT_SECONDS} s); paused item task_id ${taskId}`,
			);
		},
	);

	await check(
		'runs registered 3 s late, Poll Interval 0.1 s: a 5 s crew, NOT FOUND through its first phase, is parked and its call completes the execution',
		async () => {
			await crew.reset();
			await crew.configure({ ...LIVE, registrationDelayMs: 3000 });
			const { status, data, runs, kickoffIds, calls } = await runBatch(t, {
				crews: [{ topic: 'late-5s', reference: { durationMs: 5000 } }],
				firstPhase: 1,
				pollInterval: 0.1,
			});
			assert.equal(status, 'success');
			assert.deepEqual(
				data.resultData.runData.After[0].data.main[0].map((i) => [i.json.kickoff_id, i.json.state]),
				[[kickoffIds[0], 'completed']],
			);
			assert.deepEqual(
				calls.map((c) => c.status),
				[200],
				"the crew's call reached the parked execution",
			);
			const notFound = await readsBeforeRegistered(crew, runs[0], 3000);
			assert.ok(notFound > 3, `${notFound} NOT FOUND reads before the service knew the run`);
			say(
				`    ${notFound} NOT FOUND reads in the first 3 s, then parked; completed by the crew's call`,
			);
		},
	);

	await check(
		"a batch whose first crew fails 2.5 s in while the second is not registered yet: the failure, and the second crew's completed record",
		async () => {
			await crew.reset();
			await crew.configure(LIVE);
			const crews = [
				{
					topic: 'r-fail',
					reference: { durationMs: 2500, outcome: 'failure', error: 'the writer agent gave up' },
				},
				{ topic: 'r-late', reference: { durationMs: 6000, registrationDelayMs: 4000 } },
			];
			const { status, data, kickoffIds, calls } = await runBatch(t, {
				crews,
				firstPhase: 0.3,
				pollInterval: 0.1,
			});
			assert.equal(status, 'success');
			// The failing crew's call came after the execution parked, while the other crew was unknown to the service.
			assert.deepEqual(
				calls.map((c) => [c.kickoffId, c.status]),
				[
					[kickoffIds[0], 200],
					[kickoffIds[1], 200],
				],
			);
			// The Kickoff and Wait node's last run: the one the resume gave, both outputs.
			const [ok, failed] = data.resultData.runData['Kickoff and Wait'].at(-1).data.main;
			assert.deepEqual(
				ok.map((i) => [i.json.kickoff_id, i.json.state, i.pairedItem?.item]),
				[[kickoffIds[1], 'completed', 1]],
			);
			assert.equal(failed.length, 1);
			assert.equal(
				failed[0].json.error.message,
				`The crew failed (kickoff ID ${kickoffIds[0]}): the writer agent gave up`,
			);
		},
	);
}

/** Posts a batch to the published workflow and waits for its execution to end: its id, status and run data. */
async function runBatch(t, body) {
	const { crew, workflows, rest, n8n } = t;
	const workflow = workflows.batch;
	const known = new Set((await rest.executions(workflow.id)).map((e) => String(e.id)));
	const res = await fetch(`${t.baseUrl}/webhook/${workflow.nodes[0].parameters.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ timeout: TIMEOUT_SECONDS, ...body }),
	});
	assert.equal(res.status, 200, `POST /webhook: ${res.status} ${await res.text()}`);
	const done = await until(
		'the execution ended',
		async () => {
			const e = (await rest.executions(workflow.id)).find((x) => !known.has(String(x.id)));
			return e && !['new', 'running', 'waiting'].includes(e.status) && e;
		},
		60000,
		250,
	);
	const runs = await crew.runs();
	const kickoffIds = body.crews.map((c) => runs.find((r) => r.inputs.topic === c.topic).kickoffId);
	const data = decodeExecutionData(n8n, (await rest.execution(String(done.id))).data);
	const calls = (await deliveries(crew)).filter((d) => d.kind === 'stream' && d.status !== null);
	return { status: done.status, data, runs, kickoffIds, calls };
}

/** A run's status reads the service answered before it knew the run. */
async function readsBeforeRegistered(crew, run, lateMs) {
	return (await crew.requests()).filter(
		(r) => r.route === 'status' && r.kickoffId === run.kickoffId && r.at - run.createdAt < lateMs,
	).length;
}

/** The batch workflow of waitByCallback, under its own id and webhook (both suites share one n8n). */
function loadBatch() {
	const wf = JSON.parse(fs.readFileSync(BATCH_WORKFLOW_FILE, 'utf8'));
	wf.id = 'e2eLiveWaitBatch1';
	wf.name = `${wf.name} (live dialect)`;
	const hook = wf.nodes[0];
	hook.parameters.path = `${hook.parameters.path}-live`;
	hook.webhookId = `${hook.webhookId.slice(0, -4)}1ive`;
	return { batch: wf };
}

module.exports = {
	name: 'liveWaitByCallback',
	title: 'Wait By: Callback with the live dialect: human input while parked',
	majors: ['1', '2'],
	seconds: 10,
	needs: { server: true },
	workflows: loadBatch,
	run,
};
