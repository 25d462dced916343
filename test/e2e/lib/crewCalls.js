'use strict';
// What the crew service's calls into n8n leave behind, as the suites read it: the service's
// webhook deliveries and runs, the production URL of a trigger, the executions a call started,
// and a kickoff workflow run with the one kickoff it made.

const assert = require('node:assert/strict');
const procs = require('./procs');
const { items } = require('./runData');
const { sleep } = require('./until');
const { decodeExecutionData } = require('./rest');

// The reference crew runs 1.5 s in the kickoff workflows (meta.reference.durationMs).
const DELIVERY_TIMEOUT_MS = 20000;
const EXECUTION_TIMEOUT_MS = 20000;
const KICKOFF_NODE = 'Kickoff';

/** Polls the service until its run for kickoffId satisfies predicate; returns the run. */
async function runWhen(crew, kickoffId, predicate, what, timeoutMs = DELIVERY_TIMEOUT_MS) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const run = (await crew.runs()).find((r) => r.kickoffId === kickoffId);
		if (run && predicate(run)) return run;
		if (Date.now() > deadline)
			throw new Error(
				`run ${kickoffId} not ${what} within ${timeoutMs} ms (${JSON.stringify(run && { state: run.state, resumes: run.resumes })})`,
			);
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
			throw new Error(
				`no answered webhook call for kickoff ${kickoffId} within ${timeoutMs} ms (calls for it: ${JSON.stringify(mine)})`,
			);
		}
		await sleep(250);
	}
}

/** Waits for the executions of a workflow beyond the `known` ids to have finished, and returns them. */
async function newFinishedExecutions(rest, workflowId, known, timeoutMs = EXECUTION_TIMEOUT_MS) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const fresh = (await rest.executions(workflowId)).filter((e) => !known.has(String(e.id)));
		if (fresh.length > 0 && fresh.every((e) => !['new', 'running', 'waiting'].includes(e.status)))
			return fresh;
		if (Date.now() > deadline) {
			throw new Error(
				`no finished execution of ${workflowId} within ${timeoutMs} ms (new: ${JSON.stringify(fresh.map((e) => [e.id, e.status]))})`,
			);
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
async function kickoffVia(
	n8n,
	crew,
	workflow,
	onStarted = () => {},
	execute = (wf) => n8n.execute(wf.id),
) {
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
	assert.match(
		String(kickoffId),
		/^[0-9a-f-]{36}$/,
		`Kickoff output: ${JSON.stringify(out[0].json)}`,
	);
	assert.deepEqual(
		started.map((r) => r.kickoffId),
		[kickoffId],
		'the service saw this one kickoff',
	);
	return kickoffId;
}

/**
 * The one execution a call started: waits for the executions of workflowId beyond `known`,
 * expects exactly one, adds it to `known`, expects it succeeded; returns its summary and run data.
 */
async function theNewExecution({ n8n, rest, workflowId, known, timeoutMs }) {
	const fresh = await newFinishedExecutions(rest, workflowId, known, timeoutMs);
	for (const e of fresh) known.add(String(e.id));
	assert.equal(
		fresh.length,
		1,
		`one new execution (got ${fresh.map((e) => `${e.id} ${e.status}`).join(', ')})`,
	);
	const data = decodeExecutionData(n8n, (await rest.execution(fresh[0].id)).data);
	assert.equal(
		fresh[0].status,
		'success',
		`status ${fresh[0].status}: ${JSON.stringify(data.resultData.error ?? null).slice(0, 500)}`,
	);
	return { summary: fresh[0], data };
}

module.exports = {
	theNewExecution,
	runWhen,
	productionUrl,
	deliveries,
	answeredDelivery,
	newFinishedExecutions,
	kickoffVia,
	KICKOFF_NODE,
};
