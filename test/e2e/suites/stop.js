'use strict';
// Stopping crews in a real n8n: Crew → Stop, a stopped run read back, Kickoff and
// Wait's On Timeout: Stop Crews Still Running, and an execution waiting on 3 crews cancelled
// through n8n's REST API as the editor's Stop button does (POST /rest/executions/:id/stop,
// the same route in 1.x and 2.x). Every Crew node at version 1.3, but the Resume of
// 'resume-cancel' at 1.4, the version from which Resume's wait stops its crews.
//
//   node test/e2e/run.js --only stop [--n8n 2|1|all]
//
// Per major, on the shared n8n:
//   the example examples/stop-a-crew.json: Kickoff, Stop (one POST /stop), Get Status reads
//     the run as stopped (REVOKED on the service);
//   Stop of a run that had ended: no error, already_ended with its state;
//   Stop of an unknown kickoff id: the not-found error naming the id and the Base URL, after the
//     8 s the node asks a 404 "Execution not found" again (the registration window);
//   Kickoff and Wait timing out with On Timeout: Stop Crews Still Running: one stop, the item
//     says the crew was stopped;
//   Kickoff and Wait waiting on 3 crews, the execution stopped over REST: exactly 3 stops, one
//     per crew, every run REVOKED, the execution canceled;
//   Resume (node version 1.4) waiting on the 3 crews it resumed, the execution stopped over REST:
//     exactly 3 stops, one per crew, every run REVOKED;
//   no token in anything n8n printed or stored.
// Against a service that registers runs late (registrationDelayMs: a fresh run reads NOT FOUND
// and its stop is 404 "Execution not found" for a while):
//   the example's Kickoff then Stop at once: the run ends stopped and the item says so;
//   the execution waiting on 3 crews stopped over REST before they were registered: all 3 stopped.
// n8n's Retry On Fail (2 tries), run by n8n itself:
//   Kickoff and Wait on 3 items, one crew fails: the two completed crews are started once each;
//   Kickoff on 3 items, the second refused with 422: the first crew is started once.
// A Retry from the Executions list (POST /rest/executions/:id/retry, a new execution from the
// saved data): Kickoff and Wait, Wait By: Callback, failed after two of its three crews started
// (the first kickoff refused once): the retry starts only the refused item's crew and waits on
// the two others, which call the failed execution back, by polling.

const assert = require('node:assert/strict');

const { CREDENTIALS, loadExample } = require('../lib/fixtures');
const { items, errorText } = require('../lib/runData');
const { decodeExecutionData, manualTrigger } = require('../lib/rest');
const { until } = require('../lib/until');

const CREW_TYPE = 'n8n-nodes-crewai.crew';
const NEVER = '{"reference": {"outcome": "never"}}';
/** A crew that pauses for human input at once (at 100 ms) and, once resumed, runs until it is stopped. */
const PAUSES_THEN_NEVER =
	'{"reference": {"humanInput": {"taskId": "research_task"}, "outcome": "never", "durationMs": 300}}';

/** A saved workflow: Start, then the given nodes in a chain. */
function chain(id, name, nodes) {
	const start = {
		parameters: {},
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
	};
	const all = [
		start,
		...nodes.map((node, index) => ({
			typeVersion: 1.3,
			position: [220 * (index + 1), 0],
			...node,
		})),
	];
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

/** n8n's Retry On Fail, 2 tries, as the node's Settings tab saves it. */
const RETRY = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

const topicsNode = (topics) => ({
	name: 'Topics',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode: `return ${JSON.stringify(topics)}.map((topic) => ({ json: { topic } }));` },
});

const crewNode = (name, parameters, extra = {}) => ({
	name,
	type: CREW_TYPE,
	parameters,
	credentials: { crewApi: { ...CREDENTIALS.organization } },
	...extra,
});

function workflows() {
	return {
		'stop-example': loadExample('stop-a-crew.json', {
			id: 'e2eStopExample01',
			set: { Kickoff: { 'options.meta': NEVER } },
		}),
		'stop-ended': chain('e2eStopEnded0001', 'Stop: a run that had ended', [
			crewNode('Kickoff', {
				operation: 'kickoff',
				inputsMode: 'json',
				inputsJson: '{"topic": "AI"}',
				options: { meta: '{"reference": {"durationMs": 0}}' },
			}),
			crewNode('Stop', { operation: 'stop', kickoffId: '={{ $json.kickoff_id }}' }),
		]),
		'stop-unknown': chain('e2eStopUnknown01', 'Stop: an unknown kickoff id', [
			crewNode('Stop', { operation: 'stop', kickoffId: 'no-such-kickoff' }),
		]),
		'stop-timeout': chain('e2eStopTimeout01', 'Kickoff and Wait: On Timeout stops the crew', [
			crewNode(
				'Kickoff and Wait',
				{
					operation: 'kickoffAndWait',
					inputsMode: 'json',
					inputsJson: '{"topic": "AI"}',
					options: { meta: NEVER, pollInterval: 0.5, timeout: 2, onTimeout: 'stopCrews' },
				},
				{ onError: 'continueRegularOutput' },
			),
		]),
		'retry-wait': chain('e2eRetryWait0001', 'Retry On Fail: Kickoff and Wait, one crew fails', [
			topicsNode(['a', 'fail', 'c']),
			crewNode(
				'Kickoff and Wait',
				{
					operation: 'kickoffAndWait',
					inputsMode: 'json',
					inputsJson: '={{ JSON.stringify({ topic: $json.topic }) }}',
					// No two closing braces together inside the expression: n8n would end it there.
					options: {
						meta: "={{ JSON.stringify({ reference: $json.topic === 'fail' ? { outcome: 'failure', durationMs: 200 } : { durationMs: 600 } }) }}",
						pollInterval: 0.2,
						timeout: 30,
					},
				},
				RETRY,
			),
		]),
		'retry-kickoff': chain('e2eRetryKickoff1', 'Retry On Fail: Kickoff, the second item refused', [
			topicsNode(['a', 'b', 'c']),
			crewNode(
				'Kickoff',
				{
					operation: 'kickoff',
					inputsMode: 'json',
					inputsJson: "={{ $json.topic === 'b' ? '{}' : JSON.stringify({ topic: $json.topic }) }}",
				},
				RETRY,
			),
		]),
		'retry-list-callback': chain(
			'e2eRetryListCb01',
			'Retry from the Executions list: Kickoff and Wait by callback, a kickoff refused',
			[
				topicsNode(['a', 'b', 'c']),
				crewNode('Kickoff and Wait', {
					operation: 'kickoffAndWait',
					waitBy: 'callback',
					inputsMode: 'json',
					inputsJson: '={{ JSON.stringify({ topic: $json.topic }) }}',
					options: {
						meta: '{"reference": {"durationMs": 4000}}',
						maxConcurrentKickoffs: 1,
						firstPhase: 1,
						pollInterval: 0.5,
						timeout: 60,
					},
				}),
			],
		),
		'stop-cancel': chain('e2eStopCancel001', 'Kickoff and Wait on 3 crews, to be stopped', [
			{
				name: 'Topics',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: "return ['a', 'b', 'c'].map((topic) => ({ json: { topic } }));" },
			},
			crewNode('Kickoff and Wait', {
				operation: 'kickoffAndWait',
				inputsMode: 'json',
				inputsJson: '={{ JSON.stringify({ topic: $json.topic }) }}',
				options: { meta: NEVER, pollInterval: 60, timeout: 600 },
			}),
		]),
		'resume-cancel': chain('e2eResumeCancel1', 'Resume waiting on 3 resumed crews, to be stopped', [
			topicsNode(['a', 'b', 'c']),
			crewNode('Kickoff and Wait', {
				operation: 'kickoffAndWait',
				inputsMode: 'json',
				inputsJson: '={{ JSON.stringify({ topic: $json.topic }) }}',
				options: { meta: PAUSES_THEN_NEVER, pollInterval: 0.2, timeout: 60 },
			}),
			// Kickoff ID and Task ID keep their defaults, the paused item's kickoff_id and task_id.
			crewNode(
				'Resume',
				{
					operation: 'resume',
					isApprove: true,
					humanFeedback: 'ok',
					waitForResumedRun: true,
					options: { pollInterval: 60, timeout: 600 },
				},
				{ typeVersion: 1.4 },
			),
		]),
	};
}

/** Starts a saved workflow as the editor's "Execute workflow" does, without waiting for its end. */
async function startManually(t, key) {
	const workflowId = t.workflows[key].id;
	const workflow = await t.rest.get(`workflows/${workflowId}`);
	const trigger = manualTrigger(workflow);
	const body =
		t.major === '1'
			? { workflowData: workflow, triggerToStartFrom: { name: trigger.name } }
			: { triggerToStartFrom: { name: trigger.name } };
	const { executionId } = await t.rest.post(`workflows/${workflowId}/run`, body);
	assert.ok(executionId, `POST /rest/workflows/${workflowId}/run started nothing`);
	return executionId;
}

async function run(t) {
	const { check, crew, tokens } = t;
	const stops = async () => (await crew.requests()).filter((request) => request.route === 'stop');
	const execute = async (key) => {
		await t.resetService();
		const exec = await t.run(key);
		t.assertNoToken(exec.output, "n8n's output");
		return exec;
	};

	await check(
		'the example Stop a crew: Kickoff, one POST /stop, Get Status reads the run as stopped',
		async () => {
			const exec = await execute('stop-example');
			assert.equal(exec.code, 0, errorText(exec.run));
			const [run] = await crew.runs();
			assert.deepEqual(items(exec.run, 'Stop')[0].json, {
				kickoff_id: run.kickoffId,
				state: 'stopped',
				already_ended: false,
			});
			const [status] = items(exec.run, 'Get Status');
			assert.equal(status.json.state, 'stopped');
			assert.equal(status.json.error, null);
			assert.deepEqual(
				(await stops()).map((request) => [request.kickoffId, request.status]),
				[[run.kickoffId, 200]],
			);
			assert.equal(run.state, 'revoked');
		},
	);

	await check(
		'Stop of a run that had ended is no error: already_ended, state completed',
		async () => {
			const exec = await execute('stop-ended');
			assert.equal(exec.code, 0, errorText(exec.run));
			const [item] = items(exec.run, 'Stop');
			assert.equal(item.json.state, 'completed');
			assert.equal(item.json.already_ended, true);
			assert.equal(item.json.service_state, 'SUCCESS');
		},
	);

	await check(
		'Stop of an unknown kickoff id: the not-found error naming the id and the Base URL, after 8 s of asking again',
		async () => {
			const exec = await execute('stop-unknown');
			assert.notEqual(exec.code, 0);
			assert.match(
				errorText(exec.run),
				new RegExp(
					`Not found: the crew service at ${crew.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} knows no run with kickoff ID no-such-kickoff, so nothing was stopped .*; asked again for 8 seconds`,
				),
			);
			const sent = await stops();
			assert.ok(sent.length > 1 && sent.length <= 12, `${sent.length} stops`);
			const spanMs = sent.at(-1).at - sent[0].at;
			assert.ok(spanMs >= 5500 && spanMs < 9000, `stops over ${spanMs} ms`);
		},
	);

	await check(
		"runs registered late: the example's Kickoff then Stop at once stops the run, and the item says so",
		async () => {
			await t.resetService({ registrationDelayMs: 2000 });
			const exec = await t.run('stop-example');
			assert.equal(exec.code, 0, errorText(exec.run));
			const [run] = await crew.runs();
			assert.deepEqual(items(exec.run, 'Stop')[0].json, {
				kickoff_id: run.kickoffId,
				state: 'stopped',
				already_ended: false,
			});
			const answers = (await stops()).map((request) => request.status);
			assert.equal(answers.at(-1), 200);
			assert.ok(
				answers.slice(0, -1).every((status) => status === 404) && answers.length > 1,
				`stop answers ${answers.join(', ')}`,
			);
			assert.equal(run.state, 'revoked');
		},
	);

	await check(
		'Retry On Fail (2 tries): Kickoff and Wait on 3 items, one crew fails: the two completed crews are started once each',
		async () => {
			const exec = await execute('retry-wait');
			assert.notEqual(exec.code, 0);
			const topics = (await crew.runs()).map((r) => r.inputs.topic).sort();
			const requests = (await crew.requests()).map((r) => `${r.route} ${r.status}`).join(', ');
			assert.deepEqual(
				topics,
				['a', 'c', 'fail', 'fail'],
				`${errorText(exec.run)}; requests: ${requests}`,
			);
		},
	);

	await check(
		'Retry On Fail (2 tries): Kickoff on 3 items, the second refused with 422: the first crew is started once',
		async () => {
			const exec = await execute('retry-kickoff');
			assert.notEqual(exec.code, 0);
			assert.deepEqual(
				(await crew.runs()).map((r) => r.inputs.topic),
				['a'],
			);
			const kickoffs = (await crew.requests())
				.filter((request) => request.route === 'kickoff')
				.map((request) => request.status);
			assert.deepEqual(kickoffs, [200, 422, 422]);
		},
	);

	await check(
		'Wait By: Callback failed after its crews started, retried from the Executions list (POST /rest/executions/:id/retry): no crew started twice, the earlier crews awaited by polling',
		async () => {
			await t.resetService();
			// The first kickoff is refused (nothing started); the other two crews start, then the node fails.
			await crew.faults({
				route: 'kickoff',
				kind: 'status',
				status: 400,
				body: '{"detail": "Bad request"}',
			});
			const failed = await t.run('retry-list-callback');
			assert.equal(failed.status, 'error', errorText(failed.run));
			assert.deepEqual(
				(await crew.runs()).map((r) => r.inputs.topic),
				['b', 'c'],
			);
			const retried = await t.rest.post(`executions/${failed.executionId}/retry`, {
				loadWorkflow: false,
			});
			assert.notEqual(
				String(retried.id),
				String(failed.executionId),
				'the retry is a new execution',
			);
			const execution = await until(
				'the retried execution finished',
				async () => {
					const e = await t.rest.execution(retried.id).catch(() => null);
					return e && !['new', 'running', 'waiting'].includes(e.status) ? e : null;
				},
				60000,
				200,
			);
			const runs = await crew.runs();
			const kickoffs = (await crew.requests())
				.filter((request) => request.route === 'kickoff')
				.map((request) => request.status);
			assert.deepEqual(
				[runs.map((r) => r.inputs.topic), kickoffs],
				[
					['b', 'c', 'a'],
					[400, 200, 200, 200],
				],
				`retry ${execution.status}`,
			);
			assert.equal(execution.status, 'success');
			const output = items(
				{ data: decodeExecutionData(t.n8n, execution.data) },
				'Kickoff and Wait',
			);
			const kickoffOf = (topic) => runs.find((r) => r.inputs.topic === topic).kickoffId;
			assert.deepEqual(
				output.map((item) => [item.json.kickoff_id, item.json.state]),
				['a', 'b', 'c'].map((topic) => [kickoffOf(topic), 'completed']),
			);
		},
	);

	await check(
		'Kickoff and Wait timing out with On Timeout: Stop Crews Still Running stops the crew once and says so',
		async () => {
			const exec = await execute('stop-timeout');
			const [run] = await crew.runs();
			const [item] = items(exec.run, 'Kickoff and Wait');
			assert.match(
				String(item.json.error),
				new RegExp(
					`^The crew did not finish within 2 seconds and was stopped \\(kickoff ID ${run.kickoffId}\\)`,
				),
			);
			assert.deepEqual(
				(await stops()).map((request) => request.kickoffId),
				[run.kickoffId],
			);
			assert.equal(run.state, 'revoked');
		},
	);

	await check(
		'an execution waiting on 3 crews, stopped through the REST API (POST /rest/executions/:id/stop): exactly 3 stops, one per crew',
		async () => {
			await t.resetService();
			const executionId = await startManually(t, 'stop-cancel');
			await until(
				'the 3 kickoffs answered',
				async () =>
					(await crew.requests()).filter((r) => r.route === 'kickoff' && r.status === 200)
						.length === 3,
				60000,
				100,
			);
			const stopAt = Date.now();
			await t.rest.post(`executions/${executionId}/stop`);
			await until('3 stops at the service', async () => (await stops()).length >= 3, 30000, 50);
			const allStopsMs = Date.now() - stopAt;
			const execution = await until(
				'the execution canceled',
				async () => {
					const e = await t.rest.execution(executionId).catch(() => null);
					return e && e.status !== 'running' && e.status !== 'new' ? e : null;
				},
				30000,
				200,
			);
			const runs = await crew.runs();
			// Read again after the execution settled: no stop came twice, none came late.
			const requests = await stops();
			assert.deepEqual(
				requests.map((request) => request.kickoffId).sort(),
				runs.map((r) => r.kickoffId).sort(),
			);
			assert.deepEqual(
				runs.map((r) => r.state),
				['revoked', 'revoked', 'revoked'],
			);
			assert.equal(execution.status, 'canceled');
			t.say(
				`all 3 stops at the service ${allStopsMs} ms after POST /rest/executions/${executionId}/stop`,
			);
			const log = t.n8n.server.proc.output();
			t.assertNoToken(log, "n8n's log");
			for (const token of Object.values(tokens))
				assert.ok(!JSON.stringify(execution).includes(token), 'a token in the stored execution');
		},
	);

	await check(
		'Resume (node version 1.4) waiting on the 3 crews it resumed, the execution stopped over REST: exactly 3 stops, one per crew',
		async () => {
			await t.resetService();
			const executionId = await startManually(t, 'resume-cancel');
			const resumed = async () =>
				(await crew.requests()).filter((r) => r.route === 'resume' && r.status === 200).length ===
				3;
			await until('the 3 resumes answered', resumed, 60000, 100);
			await t.rest.post(`executions/${executionId}/stop`);
			await until('3 stops at the service', async () => (await stops()).length >= 3, 30000, 50);
			const execution = await until(
				'the execution canceled',
				async () => {
					const e = await t.rest.execution(executionId).catch(() => null);
					return e && e.status !== 'running' && e.status !== 'new' ? e : null;
				},
				30000,
				200,
			);
			const runs = await crew.runs();
			assert.deepEqual(
				runs.map((r) => r.resumes.length),
				[1, 1, 1],
			);
			assert.equal(execution.status, 'canceled');
			// Read again after the execution settled: no stop came twice, none came late.
			assert.deepEqual(
				(await stops()).map((request) => request.kickoffId).sort(),
				runs.map((r) => r.kickoffId).sort(),
			);
			assert.deepEqual(
				runs.map((r) => r.state),
				['revoked', 'revoked', 'revoked'],
			);
		},
	);

	await check(
		'runs registered late: the execution waiting on 3 crews, stopped over REST before the service knew them: all 3 stopped',
		async () => {
			await t.resetService({ registrationDelayMs: 3000 });
			const executionId = await startManually(t, 'stop-cancel');
			await until(
				'the 3 kickoffs answered',
				async () =>
					(await crew.requests()).filter((r) => r.route === 'kickoff' && r.status === 200)
						.length === 3,
				60000,
				50,
			);
			await t.rest.post(`executions/${executionId}/stop`);
			const runs = await until(
				'all 3 runs stopped',
				async () => {
					const now = await crew.runs();
					return now.every((r) => r.state === 'revoked') ? now : null;
				},
				20000,
				200,
			);
			assert.equal(runs.length, 3);
			const early = (await stops()).filter((request) => request.status === 404).length;
			assert.ok(early >= 3, `${early} stops answered 404 before the registration`);
		},
	);
}

module.exports = {
	name: 'stop',
	title: 'Stopping crews: Crew → Stop, On Timeout, a cancelled execution',
	majors: ['1', '2'],
	seconds: 20,
	needs: { server: true },
	service: { durationMs: 3000 },
	workflows,
	run,
};
