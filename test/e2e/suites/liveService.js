'use strict';
// The packed node in a real n8n against the reference service in its live dialect: what the
// hosted service answered in the vendor's live tests of 2026-10-01 (docs/development/service-api.md, the "Live"
// facts), with a few NOT FOUND reads after each kickoff (registration lag).
//
//   node test/e2e/run.js --only liveService [--n8n 2|1|all]
//
// Per major, on the shared n8n, each workflow run over REST:
//   workflows/live/live-batch.json: Kickoff and Wait on three crews, On Error: Continue; the
//     first two status reads of every run answer NOT FOUND. The completed item carries its
//     token usage; the crew that pauses for human input (live: NOT FOUND after running) ends
//     as paused with its kickoff id and what to do, long before the timeout; the failed crew's
//     item names the reason the service gave only in `status`;
//   workflows/live/live-errors.json: Get Status of an unknown kickoff id (a 200 NOT FOUND) is a
//     not-found error naming the id and the Base URL; a kickoff without its required input gets
//     the live 422 `Missing inputs: topic`, and the item names the input;
//   workflows/live/live-cold.json: the kickoff answered after 45 s (coldStartMs, a cold
//     deployment) starts exactly one run, which completes, with no error;
//   runs the service registers 3 s late (registrationDelayMs), Poll Interval 0.1 s: Kickoff and
//     Wait completes a 2 s crew; Kickoff and Wait then Resume with Wait for the Resumed Run
//     completes the resumed run (a new kickoff id, registered late too);
//   the AI Agent example (examples/agent-with-crew-tools.json) with the scripted model: the tool's
//     short answer keeps the usage; a failed crew's reason and a paused crew's next step reach
//     the model;
//   no token in n8n's output, its logs or what the model received.

const assert = require('node:assert/strict');
const { assertImported } = require('../lib/rest');
const fs = require('node:fs');
const path = require('node:path');

const procs = require('../lib/procs');
const { WORKFLOWS_DIR, loadExample, OPENAI_CREDENTIAL } = require('../lib/fixtures');
const { say } = require('../lib/report');
const { items, errorText } = require('../lib/runData');
const { assertNoToken, assertNoTokenInN8n } = require('../lib/tokens');

const LIVE_DIR = path.join(WORKFLOWS_DIR, 'live');
const THREE_INPUTS = [{ name: 'topic' }, { name: 'audience' }, { name: 'current_year' }];
const ASKED = { topic: 'tides', audience: 'sailors', current_year: '2026' };
const LIVE = {
	dialect: 'live',
	registrationLagReads: 2,
	coldStartMs: 0,
	recordShape: 'contract',
	statusPaths: 'both',
	inputsShape: 'names',
	errorShape: 'documented',
};
// 6 steps of 320 prompt + 110 completion tokens: the reference service's count for a whole run.
const RUN_USAGE = { total_tokens: 2580, prompt_tokens: 1920, completion_tokens: 660 };
const FAILURE = 'Task execution failed: invalid API key for SerperDevTool';
// The vendor's "first call times out": past the 30 s a read keeps once the deployment has answered.
const COLD_START_MS = 45_000;
// A deployment that registers runs this late, read at the shortest Poll Interval the field offers.
const LATE_MS = 3_000;

/** A saved workflow: Start, then the given Crew nodes (version 1.4) in a chain. */
function crewChain(id, name, nodes) {
	const start = {
		parameters: {},
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
	};
	const crewNodes = nodes.map((node, index) => ({
		type: 'n8n-nodes-crewai.crew',
		typeVersion: 1.4,
		position: [220 * (index + 1), 0],
		credentials: { crewApi: { id: 'crewCredOrg00001', name: 'Crew (your organization token)' } },
		...node,
	}));
	const all = [start, ...crewNodes];
	const connections = {};
	for (let i = 0; i < all.length - 1; i++)
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return {
		id,
		name,
		nodes: all,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

const FAST = { pollInterval: 0.1, timeout: 60 };
const lateWorkflows = () => ({
	'late-wait': crewChain(
		'e2eLiveLateWait1',
		'E2E live: runs registered late, Kickoff and Wait at 0.1 s',
		[
			{
				name: 'Kickoff and Wait',
				parameters: {
					operation: 'kickoffAndWait',
					inputsMode: 'json',
					inputsJson: '{"topic": "late"}',
					options: { ...FAST, meta: '{"reference": {"durationMs": 2000}}' },
				},
			},
		],
	),
	'late-resume': crewChain(
		'e2eLiveLateResum',
		'E2E live: runs registered late, Resume waits for the resumed run at 0.1 s',
		[
			// Pauses at the end of analysis_task, 4 s in: seen running first, once registered at 3 s.
			{
				name: 'Kickoff and Wait',
				parameters: {
					operation: 'kickoffAndWait',
					inputsMode: 'json',
					inputsJson: '{"topic": "late"}',
					options: {
						...FAST,
						meta: '{"reference": {"durationMs": 6000, "humanInput": {"taskId": "analysis_task"}}}',
					},
				},
			},
			{
				name: 'Resume',
				parameters: {
					operation: 'resume',
					taskId: 'analysis_task',
					isApprove: true,
					humanFeedback: 'ok',
					waitForResumedRun: true,
					options: FAST,
				},
			},
		],
	),
});

/** The agent workflow with its own id, a script for the model, and the Research Crew steered by meta. */
function agentVariant(base, suffix, reference) {
	const wf = JSON.parse(JSON.stringify(base));
	wf.id = `${base.id.slice(0, -2)}${suffix}`;
	wf.name = `${base.name} (live ${suffix})`;
	for (const n of wf.nodes) n.id = `${n.id.slice(0, -2)}${suffix}`;
	const agent = wf.nodes.find((n) => n.name === 'AI Agent');
	agent.parameters.text = `${agent.parameters.text}\nscript: ${JSON.stringify({ steps: [{ tool: 'research_crew', calls: [ASKED] }] })}`;
	const crew = wf.nodes.find((n) => n.name === 'Research Crew');
	crew.parameters.options = {
		...crew.parameters.options,
		pollInterval: 0.5,
		timeout: 120,
		meta: JSON.stringify({ reference }),
	};
	return wf;
}

function loadWorkflows() {
	const live = {};
	for (const f of fs.readdirSync(LIVE_DIR).sort())
		if (f.endsWith('.json'))
			live[f.slice(0, -5)] = JSON.parse(fs.readFileSync(path.join(LIVE_DIR, f), 'utf8'));
	// The example a user imports, its OpenAI credential and model the scripted model's, as agent.js loads it.
	const base = loadExample('agent-with-crew-tools.json', {
		id: 'e2eAgentCrewTl01',
		credentials: { openAiApi: OPENAI_CREDENTIAL },
		set: { 'OpenAI Chat Model': { 'model.value': 'scripted-model' } },
		// The example's crew has one input, topic; this test's crew has three.
		toolInputs: { 'Research Crew': ['audience', 'current_year'] },
	});
	return {
		...live,
		...lateWorkflows(),
		agentDone: agentVariant(base, 'l1', { durationMs: 1500 }),
		agentFailing: agentVariant(base, 'l2', {
			durationMs: 1500,
			outcome: 'failure',
			error: FAILURE,
		}),
		agentPaused: agentVariant(base, 'l3', {
			durationMs: 6000,
			humanInput: { taskId: 'analysis_task' },
		}),
	};
}

async function runSuite(t) {
	const { check } = t;
	const { n8n, crew, workflows, tokens, model, rest } = t;
	const ready = await check('n8n, the package, the live workflows and the scripted model', () =>
		assertImported(rest, workflows, [OPENAI_CREDENTIAL.id]),
	);
	if (!ready) return;

	/** One workflow, run over REST, against the live dialect. */
	const run = async (workflow, service = {}) => {
		await t.resetService(service);
		const startedAt = Date.now();
		const exec = await t.run(workflow.id);
		assert.equal(
			exec.code,
			0,
			`execution ${exec.executionId} ${exec.status}: ${errorText(exec.run) || procs.tail(exec.output)}`,
		);
		assertNoToken(exec.output, tokens, "n8n's output");
		return {
			exec,
			tookMs: Date.now() - startedAt,
			runs: await crew.runs(),
			requests: await crew.requests(),
		};
	};
	const runOf = (runs, topic) => {
		const found = runs.find((r) => r.inputs.topic === topic);
		assert.ok(found, `no run for topic ${topic}`);
		return found;
	};

	let batch;
	await check(
		'Kickoff and Wait, a batch, two NOT FOUND reads after each kickoff: the completed item carries its token usage',
		async () => {
			batch = await run(workflows['live-batch']);
			const out = items(batch.exec.run, 'Kickoff and Wait');
			assert.equal(out.length, 3, 'one item per input item');
			const done = runOf(batch.runs, 'done');
			assert.equal(out[0].json.state, 'completed', JSON.stringify(out[0].json).slice(0, 400));
			assert.equal(out[0].json.kickoff_id, done.kickoffId);
			assert.deepEqual(out[0].json.usage, RUN_USAGE);
			const notFound = batch.requests
				.filter((r) => r.route === 'status' && r.kickoffId === done.kickoffId)
				.slice(0, 2);
			assert.equal(
				notFound.length,
				2,
				'the first two reads were answered (NOT FOUND, registration lag)',
			);
			say(
				`    completed item: ${JSON.stringify({ state: out[0].json.state, usage: out[0].json.usage })}`,
			);
		},
	);

	await check(
		'a crew paused for human input (NOT FOUND after running) ends as paused with its kickoff id and what to do, not at the timeout',
		async () => {
			assert.ok(batch, 'the batch did not run');
			const out = items(batch.exec.run, 'Kickoff and Wait');
			const human = runOf(batch.runs, 'human');
			assert.equal(human.state, 'paused', 'the service holds the run paused');
			assert.equal(out[1].json.state, 'paused', JSON.stringify(out[1].json).slice(0, 400));
			assert.equal(out[1].json.kickoff_id, human.kickoffId);
			assert.equal(out[1].json.task_id, null);
			assert.match(String(out[1].json.next_step), /human input.*Resume operation, kickoff ID/);
			assert.deepEqual(out[1].json.response, { state: 'NOT FOUND' });
			// The batch's timeout is 120 s; the run paused 4 s after its kickoff.
			assert.ok(batch.tookMs < 60_000, `the run took ${batch.tookMs} ms`);
			say(
				`    the run took ${(batch.tookMs / 1000).toFixed(1)} s (timeout 120 s); paused item: ${out[1].json.next_step}`,
			);
		},
	);

	await check("a failed crew's item names the reason the service gave only in status", async () => {
		assert.ok(batch, 'the batch did not run');
		const out = items(batch.exec.run, 'Kickoff and Wait');
		const fail = runOf(batch.runs, 'fail');
		assert.equal(out[2].json.error, `The crew failed (kickoff ID ${fail.kickoffId}): ${FAILURE}`);
		assert.equal(out[2].json.kickoff_id, fail.kickoffId);
	});

	await check(
		'Get Status of an unknown kickoff id is a not-found error naming it and the Base URL; the live 422 names the missing input',
		async () => {
			const { exec } = await run(workflows['live-errors']);
			const [status] = items(exec.run, 'Get Status');
			assert.equal(
				status.json.error,
				`Not found: the crew service at ${crew.url} knows no run with kickoff ID 97eba64f-958c-40a0-b61c-625fe635a3c0 (it answered NOT FOUND)`,
			);
			assert.match(String(status.json.description), /Check the kickoff ID .* Base URL/);
			const [kickoff] = items(exec.run, 'Kickoff');
			assert.equal(
				kickoff.json.error,
				'The crew service answered 422 while starting the crew: missing inputs topic',
			);
			assert.equal(
				kickoff.json.description,
				'Give values for: topic. Get Inputs lists every input the crew expects.',
			);
		},
	);

	await check(
		'a kickoff answered after 45 s (a cold deployment) starts exactly one run and completes, no error',
		async () => {
			const { exec, runs, requests } = await run(workflows['live-cold'], {
				coldStartMs: COLD_START_MS,
			});
			const [item] = items(exec.run, 'Kickoff and Wait');
			assert.equal(item.json.state, 'completed', JSON.stringify(item.json).slice(0, 400));
			assert.equal(runs.length, 1, 'one run');
			assert.equal(requests.filter((r) => r.route === 'kickoff').length, 1, 'one POST /kickoff');
			assert.equal(item.json.kickoff_id, runs[0].kickoffId);
		},
	);

	const readsBeforeRegistered = (requests, run) =>
		requests.filter(
			(r) =>
				r.route === 'status' && r.kickoffId === run.kickoffId && r.at - run.createdAt < LATE_MS,
		).length;

	await check(
		'runs registered 3 s late, Poll Interval 0.1 s: Kickoff and Wait completes a 2 s crew',
		async () => {
			const { exec, runs, requests } = await run(workflows['late-wait'], {
				registrationDelayMs: LATE_MS,
			});
			const [item] = items(exec.run, 'Kickoff and Wait');
			assert.equal(item.json.state, 'completed', JSON.stringify(item.json).slice(0, 400));
			assert.equal(item.json.kickoff_id, runs[0].kickoffId);
			const notFound = readsBeforeRegistered(requests, runs[0]);
			assert.ok(notFound > 3, `${notFound} NOT FOUND reads before the service knew the run`);
			say(`    ${notFound} NOT FOUND reads in the first 3 s, then completed`);
		},
	);

	await check(
		'runs registered 3 s late, Poll Interval 0.1 s: Resume with Wait for the Resumed Run completes the resumed run',
		async () => {
			const { exec, runs, requests } = await run(workflows['late-resume'], {
				registrationDelayMs: LATE_MS,
			});
			const [paused] = items(exec.run, 'Kickoff and Wait');
			assert.equal(paused.json.state, 'paused', JSON.stringify(paused.json).slice(0, 400));
			const [item] = items(exec.run, 'Resume');
			const resumed = runs.find((r) => r.resumedFrom === runs[0].kickoffId);
			assert.ok(resumed, 'no resumed run');
			assert.deepEqual(
				{
					kickoff_id: item.json.kickoff_id,
					resumed_kickoff_id: item.json.resumed_kickoff_id,
					state: item.json.state,
				},
				{
					kickoff_id: resumed.kickoffId,
					resumed_kickoff_id: runs[0].kickoffId,
					state: 'completed',
				},
			);
			const notFound = readsBeforeRegistered(requests, resumed);
			assert.ok(
				notFound > 3,
				`${notFound} NOT FOUND reads of the resumed run before the service knew it`,
			);
		},
	);

	const agentRun = async (workflow) => {
		const result = await run(workflow, { inputs: THREE_INPUTS });
		assertNoToken(
			model.requests.map((r) => r.raw).join('\n'),
			tokens,
			'the requests the model received',
		);
		const answers = model.toolAnswers();
		assert.equal(answers.length, 1, `one tool answer: ${answers.join(' | ')}`);
		return { ...result, answer: answers[0] };
	};

	await check("the Crew tool's short answer keeps the token usage", async () => {
		const { answer, runs } = await agentRun(workflows.agentDone);
		const [parsed] = JSON.parse(answer);
		assert.equal(parsed.kickoff_id, runs[0].kickoffId);
		assert.equal(parsed.state, 'completed');
		assert.deepEqual(parsed.usage, RUN_USAGE);
		assert.equal(answer.includes('"response"'), false, 'the raw record is not in the answer');
		say(`    tool answer (${answer.length} chars): ${answer}`);
	});

	await check(
		"a failed crew's reason from status, and a paused crew's next step, reach the model",
		async () => {
			const failing = await agentRun(workflows.agentFailing);
			assert.ok(
				failing.answer.includes(
					`The crew failed (kickoff ID ${failing.runs[0].kickoffId}): ${FAILURE}`,
				),
				failing.answer,
			);
			const paused = await agentRun(workflows.agentPaused);
			const [parsed] = JSON.parse(paused.answer);
			assert.equal(parsed.state, 'paused', paused.answer);
			assert.equal(parsed.kickoff_id, paused.runs[0].kickoffId);
			assert.match(parsed.next_step, /Resume operation/);
			say(`    failed: ${failing.answer}`);
			say(`    paused: ${paused.answer}`);
		},
	);

	await check("no token in clear in n8n's logs", async () => {
		assertNoTokenInN8n(n8n, tokens);
	});
}

module.exports = {
	name: 'liveService',
	title: 'The reference service in its live dialect',
	majors: ['1', '2'],
	seconds: 60,
	needs: { server: true, model: true },
	service: LIVE,
	workflows: () => loadWorkflows(),
	run: runSuite,
};
