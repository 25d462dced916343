'use strict';
// A deployed flow in a real n8n: the reference service as a flow in the live dialect
// (`deployment: 'flow'`, `dialect: 'live'`: state fields listed by name with `id`, none
// required, typed values, a record with the final method's text and no state), and the
// saved workflows of workflows/flows/, every Crew node at version 1.2 (Deployment Type: Detect).
//
//   node test/e2e/run.js --only flows [--n8n 2|1|all]
//
// Per major, on the shared n8n, each workflow run over REST:
//   Get Inputs detects the flow: its fields, nothing required, no id;
//   Kickoff and Wait, JSON {"topic": "t", "count": 2, "history": ["one"]}: the number and the
//     list reach the flow as such, it completes, flow_state.id is the kickoff id;
//   Map Each Input with only count filled (the fields as the editor saves them for a flow
//     listed with types): only count is sent;
//   two Kickoff and Wait nodes, the second's Restore From State ID {{ $json.flow_state.id }}:
//     it continues from the first run's state;
//   an AI Agent with the Crew tool on the flow and the scripted model (lib/scriptedModel.js),
//     which fills only what the schema offers: the fields offered, none required, no id; one
//     kickoff, no 422, no id sent, the list the model gives (as JSON text) sent as a list;
// then webhook-started (workflows/flows/flow-wait-callback.json, published):
//   Wait By: Callback parks one flow, and a batch of 3, and flow_finished resumes each with
//     the records polling gives;
//   no token in anything n8n printed, stored or sent the model.

const { waitForWebhook } = require('../lib/webhookReady');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const procs = require('../lib/procs');
const { WORKFLOWS_DIR, OPENAI_CREDENTIAL } = require('../lib/fixtures');
const { say } = require('../lib/report');
const { items, errorText, pairedIndexes } = require('../lib/runData');
const { decodeExecutionData, assertImported } = require('../lib/rest');
const { assertNoToken, assertNoTokenInN8n } = require('../lib/tokens');

const FLOWS_DIR = path.join(WORKFLOWS_DIR, 'flows');
const LIVE_FLOW = {
	deployment: 'flow',
	dialect: 'live',
	inputsShape: 'names',
	recordShape: 'wild',
	statusPaths: 'both',
	errorShape: 'documented',
	durationMs: 1000,
};
const FLOW_END_EVENTS = ['flow_finished', 'flow_failed', 'method_execution_failed'];

const { until } = require('../lib/until');

/** The saved flow workflows by file name; the agent's prompt gets the model's script. */
function loadFlowWorkflows() {
	const out = {};
	for (const f of fs.readdirSync(FLOWS_DIR).sort())
		out[f.slice(0, -5)] = JSON.parse(fs.readFileSync(path.join(FLOWS_DIR, f), 'utf8'));
	const agent = out['flow-agent'].nodes.find((n) => n.name === 'AI Agent');
	const script = { steps: [{ tool: 'research_flow', calls: [{ history: '["one", "two"]' }] }] };
	agent.parameters.text = `${agent.parameters.text}\nscript: ${JSON.stringify(script)}`;
	return out;
}

async function run(t) {
	const { check } = t;
	const { n8n, crew, workflows, tokens, model, rest } = t;
	const ready = await check(
		'the reference service as a flow (live dialect), the scripted model, the flow workflows imported',
		async () => {
			await assertImported(rest, workflows, [OPENAI_CREDENTIAL.id]);
		},
	);
	if (!ready) return;
	const kickoffBodies = async () =>
		(await crew.requests()).filter((r) => r.route === 'kickoff').map((r) => r.body);

	/** Runs a saved workflow over REST against a fresh flow. */
	const execute = async (name, service = {}) => {
		await t.resetService(service);
		const exec = await t.run(name);
		assert.equal(
			exec.code,
			0,
			`execution ${exec.executionId} ${exec.status}: ${errorText(exec.run) || procs.tail(exec.output)}`,
		);
		assertNoToken(exec.output, tokens, "n8n's output");
		return exec;
	};

	await check(
		'Get Inputs (Detect) reads the flow: its state fields, nothing required, no id',
		async () => {
			const exec = await execute('flow-get-inputs');
			const [item] = items(exec.run, 'Get Inputs');
			assert.deepEqual(item.json, {
				inputs: ['topic', 'count', 'history'],
				input_details: ['topic', 'count', 'history'].map((name) => ({
					name,
					type: 'string',
					required: false,
				})),
				deployment: 'flow',
			});
			say(`    ${JSON.stringify(item.json)}`);
		},
	);

	await check(
		'Kickoff and Wait, JSON with a number and a list: both reach the flow as such, it completes, flow_state.id is the kickoff id',
		async () => {
			const exec = await execute('flow-typed-json');
			assert.deepEqual(await kickoffBodies(), [
				{ inputs: { topic: 't', count: 2, history: ['one'] } },
			]);
			const [run] = await crew.runs();
			const [item] = items(exec.run, 'Kickoff and Wait');
			assert.equal(item.json.state, 'completed');
			assert.equal(
				item.json.result,
				'Flow finished: {"topic":"t","count":2,"history":["one"],"run_count":1}',
			);
			assert.deepEqual(item.json.flow_state, { id: run.kickoffId });
			// Detect read GET /inputs once, before the kickoff.
			assert.deepEqual((await crew.requests()).map((r) => r.route).slice(0, 2), [
				'inputs',
				'kickoff',
			]);
		},
	);

	await check(
		'Map Each Input with only one field filled sends only that field, with its type',
		async () => {
			const exec = await execute('flow-map-one-field', { inputsShape: 'objects' });
			assert.deepEqual(await kickoffBodies(), [{ inputs: { count: 3 } }]);
			assert.equal(items(exec.run, 'Kickoff and Wait')[0].json.state, 'completed');
		},
	);

	await check(
		"two Kickoff and Wait nodes: the second, Restore From State ID {{ $json.flow_state.id }}, continues from the first run's state",
		async () => {
			const exec = await execute('flow-restore-chain');
			const [firstRun, nextRun] = await crew.runs();
			const bodies = await kickoffBodies();
			assert.deepEqual(bodies[1], { inputs: { count: 5 }, restoreFromStateId: firstRun.kickoffId });
			const [next] = items(exec.run, 'Next Run');
			assert.equal(next.json.kickoff_id, nextRun.kickoffId);
			assert.equal(
				next.json.result,
				'Flow finished: {"topic":"t","count":5,"history":["one"],"run_count":2}',
			);
			assert.deepEqual(pairedIndexes(next), [0]);
			say(`    ${next.json.result}`);
		},
	);

	await check(
		"as an AI agent's tool: the fields offered, none required, no id; one kickoff, no 422, no id sent, the model's list sent as a list",
		async () => {
			const exec = await execute('flow-agent');
			assertNoToken(
				model.requests.map((r) => r.raw).join('\n'),
				tokens,
				'the requests the model received',
			);
			assert.deepEqual(
				model.requests.filter((r) => r.error).map((r) => r.error),
				[],
				'the model could not answer',
			);
			const offered = model.requests[0].body.tools.find((t) => t.function.name === 'Research_Flow');
			assert.ok(
				offered,
				`offered: ${model.requests[0].body.tools.map((t) => t.function.name).join(', ')}`,
			);
			const { properties, required } = offered.function.parameters;
			assert.deepEqual(Object.keys(properties), ['topic', 'count', 'history']);
			assert.deepEqual(required || [], [], 'nothing required');
			say(`    offered: ${JSON.stringify(properties)}`);
			const requests = await crew.requests();
			assert.deepEqual(
				requests.filter((r) => r.route === 'kickoff').map((r) => r.status),
				[200],
				'one kickoff, answered 200',
			);
			assert.equal(requests.filter((r) => r.status === 422).length, 0, 'no 422');
			const [body] = await kickoffBodies();
			assert.deepEqual(
				body,
				{ inputs: { history: ['one', 'two'] } },
				'only the list the model gave, as a list; no id',
			);
			const [answer] = model.toolAnswers();
			const [run] = await crew.runs();
			assert.ok(
				answer.includes(run.kickoffId) &&
					answer.includes('completed') &&
					answer.includes('run_count'),
				`the answer: ${answer}`,
			);
			assert.equal(errorText(exec.run), '');
			say(`    tool answer: ${answer}`);
		},
	);

	// Wait By: Callback: a webhook-started execution, parked, resumed by the flow's call.
	const ctx = { known: new Set(), baseUrl: t.baseUrl };
	const started = await check(
		'the flow Wait By: Callback workflow published on the shared n8n',
		async () => {
			await t.publish('flow-wait-callback');
			await waitForWebhook(
				ctx.baseUrl,
				workflows['flow-wait-callback'].nodes[0].parameters.path,
				'POST',
				n8n.server.proc,
			);
		},
	);
	if (!started) return;

	const workflow = workflows['flow-wait-callback'];
	const parkAndResume = async (flows) => {
		await crew.reset();
		await crew.configure(LIVE_FLOW);
		const res = await fetch(`${ctx.baseUrl}/webhook/${workflow.nodes[0].parameters.path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ flows }),
		});
		assert.equal(res.status, 200, `POST webhook: ${res.status}`);
		const execution = await until('a new execution', async () =>
			(await rest.executions(workflow.id)).find((e) => !ctx.known.has(String(e.id))),
		);
		const executionId = String(execution.id);
		ctx.known.add(executionId);
		const summary = async () =>
			(await rest.executions(workflow.id)).find((e) => String(e.id) === executionId);
		await until('waiting', async () => (await summary())?.status === 'waiting', 20000);
		const runs = await until('every kickoff', async () => {
			const found = await crew.runs();
			return found.length === flows.length && found;
		});
		for (const r of (await crew.requests()).filter((q) => q.route === 'kickoff'))
			assert.deepEqual(
				r.body.webhooks.events,
				FLOW_END_EVENTS,
				"the stream asked for a flow's end",
			);
		const done = await until(
			'finished',
			async () => {
				const e = await summary();
				return e && !['new', 'running', 'waiting'].includes(e.status) && e;
			},
			60000,
			500,
		);
		assert.equal(done.status, 'success');
		const data = decodeExecutionData(n8n, (await rest.execution(executionId)).data);
		const after = data.resultData.runData.After[0].data.main[0].map((i) => i.json);
		const kickoffIds = flows.map(
			(f) => runs.find((r) => r.inputs.topic === f.inputs.topic).kickoffId,
		);
		assert.deepEqual(
			after.map((j) => j.kickoff_id),
			kickoffIds,
			'one item per flow, in order',
		);
		for (const [i, json] of after.entries()) {
			assert.equal(json.state, 'completed', `item ${i}: ${json.error || json.state}`);
			assert.deepEqual(json.flow_state, { id: kickoffIds[i] });
			assert.equal(
				json.result,
				`Flow finished: ${JSON.stringify({ topic: flows[i].inputs.topic, count: 1, history: flows[i].inputs.history, run_count: 1 })}`,
			);
		}
		const calls = (await (await fetch(`${crew.url}/_reference/webhooks`)).json()).filter(
			(d) => d.kind === 'stream',
		);
		assert.ok(
			calls.length >= 1 &&
				calls.every((c) => c.payload.events.every((e) => e.type === 'flow_finished')),
			'only flow_finished called back',
		);
		say(
			`    ${flows.length} flow(s) parked in execution ${executionId}, resumed by flow_finished: ${calls.map((c) => c.status).join(', ')}`,
		);
	};

	await check(
		'Wait By: Callback parks a flow and flow_finished resumes it with the record polling gives',
		async () => {
			await parkAndResume([
				{ inputs: { topic: 'cb-one', history: ['h'] }, reference: { durationMs: 5000 } },
			]);
		},
	);

	await check(
		'Wait By: Callback parks a batch of 3 flows once, and the last flow_finished resumes it, items in order',
		async () => {
			await parkAndResume([
				{ inputs: { topic: 'cb-a', history: ['a'] }, reference: { durationMs: 5000 } },
				{ inputs: { topic: 'cb-b', history: ['b'] }, reference: { durationMs: 4000 } },
				{ inputs: { topic: 'cb-c', history: ['c'] }, reference: { durationMs: 6000 } },
			]);
		},
	);

	await check("no token in clear in n8n's logs or stored executions", async () => {
		assertNoTokenInN8n(n8n, tokens, { database: true });
	});
}

module.exports = {
	name: 'flows',
	title: 'A deployed flow',
	majors: ['1', '2'],
	seconds: 20,
	needs: { server: true, model: true },
	service: LIVE_FLOW,
	workflows: () => loadFlowWorkflows(),
	run,
};
