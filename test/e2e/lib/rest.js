'use strict';
// n8n's REST API as the signed-in owner (the editor's own routes, on 1.x and 2.x): stored
// executions, and a saved workflow run as the editor's "Execute workflow" button runs it, so
// that one running n8n serves many cases instead of an `n8n execute` start per case.

const assert = require('node:assert/strict');
const path = require('node:path');
const { OWNER } = require('./n8n');
const { until } = require('./until');

const FINISHED = (status) => !['new', 'running', 'waiting', 'unknown'].includes(status);

/** An execution's run data: n8n stores IRunExecutionData flatted-encoded; flatted comes with n8n. */
function decodeExecutionData(n8n, data) {
	const flatted = require(
		require.resolve('flatted', { paths: [path.join(n8n.layout.target, 'node_modules')] }),
	);
	return typeof data === 'string' ? flatted.parse(data) : data;
}

/** Signs in (POST /rest/login, the n8n-auth cookie) and returns the client. */
async function restClient(baseUrl, owner = OWNER) {
	const res = await fetch(`${baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
	});
	if (!res.ok) throw new Error(`POST /rest/login: ${res.status} ${await res.text()}`);
	const cookie = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	assert.ok(cookie, 'POST /rest/login set no n8n-auth cookie');
	const call = async (method, route, body) => {
		const r = await fetch(`${baseUrl}/rest/${route}`, {
			method,
			headers: body === undefined ? { cookie } : { cookie, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await r.text();
		if (!r.ok) throw new Error(`${method} /rest/${route}: ${r.status} ${text.slice(0, 500)}`);
		return JSON.parse(text).data;
	};
	const get = (route) => call('GET', route);
	return {
		cookie,
		get,
		post: (route, body) => call('POST', route, body),
		patch: (route, body) => call('PATCH', route, body),
		/** Every stored execution of a workflow, newest first (summaries, without data). */
		executions: async (workflowId) => {
			const data = await get(
				`executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`,
			);
			return data.results;
		},
		execution: (id) => get(`executions/${id}`),
	};
}

/** The node a manual run starts from: the workflow's Manual Trigger (else its first trigger-less start). */
function manualTrigger(workflow) {
	const node = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	assert.ok(
		node,
		`workflow "${workflow.name}" (${workflow.id}) has no Manual Trigger to run it from`,
	);
	return node;
}

/**
 * Runs a saved workflow as the editor's "Execute workflow" does (POST /rest/workflows/:id/run;
 * 2.x takes the trigger to start from, 1.x the workflow itself), waits for its stored execution
 * to finish, and returns it in the form `n8n execute` gave: { code (0 on success), status,
 * executionId, run: {data, status, ...} as IRun, output (n8n's log meanwhile and the run's error), ms }.
 */
async function runManually({ n8n, rest, workflowId, timeoutMs = 180000 }) {
	const started = Date.now();
	const logFrom = n8n.server ? n8n.server.proc.output().length : 0;
	const workflow = await rest.get(`workflows/${workflowId}`);
	const trigger = manualTrigger(workflow);
	const body =
		String(n8n.major) === '1'
			? { workflowData: workflow, triggerToStartFrom: { name: trigger.name } }
			: { triggerToStartFrom: { name: trigger.name } };
	const answer = await rest.post(`workflows/${workflowId}/run`, body);
	assert.ok(
		answer && answer.executionId,
		`POST /rest/workflows/${workflowId}/run started nothing: ${JSON.stringify(answer)}`,
	);
	const { executionId } = answer;
	const execution = await until(
		`execution ${executionId} of ${workflowId} finished`,
		async () => {
			const e = await rest.execution(executionId).catch(() => null);
			return e && e.finished !== undefined && FINISHED(e.status) ? e : null;
		},
		timeoutMs,
		200,
	);
	const data = decodeExecutionData(n8n, execution.data);
	const run = { ...execution, data };
	const error = data && data.resultData && data.resultData.error;
	// What n8n logged meanwhile (the shared n8n's, so possibly of another case too), then the run's error.
	const logged = n8n.server ? n8n.server.proc.output().slice(logFrom) : '';
	const output = `${logged}\n${JSON.stringify({ status: execution.status, error: error || null }, null, 2)}`;
	return {
		code: execution.status === 'success' ? 0 : 1,
		status: execution.status,
		executionId,
		run,
		output,
		stdout: output,
		stderr: '',
		ms: Date.now() - started,
	};
}

/**
 * Makes a saved workflow's triggers live on a running n8n, as the editor's switch does: 2.x
 * publishes its current version (POST /rest/workflows/:id/activate), 1.x sets it active (PATCH).
 */
async function publish({ n8n, rest, workflowId }) {
	const workflow = await rest.get(`workflows/${workflowId}`);
	if (String(n8n.major) === '1')
		return rest.patch(`workflows/${workflowId}`, { active: true, versionId: workflow.versionId });
	return rest.post(`workflows/${workflowId}/activate`, { versionId: workflow.versionId });
}

/** Throws unless every workflow ({key: json}) is in n8n under its id and name, and every credential id is there. */
async function assertImported(rest, workflows, credentialIds = []) {
	for (const wf of Object.values(workflows))
		assert.equal((await rest.get(`workflows/${wf.id}`)).name, wf.name, `workflow ${wf.id}`);
	const credentials = (await rest.get('credentials')).map((c) => c.id);
	for (const id of credentialIds) assert.ok(credentials.includes(id), `credential ${id} imported`);
}

module.exports = {
	restClient,
	decodeExecutionData,
	runManually,
	manualTrigger,
	publish,
	assertImported,
};
