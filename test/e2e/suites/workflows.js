'use strict';
// The workflow suite: each case runs one saved workflow (test/e2e/workflows/<file>.json, or an
// example of examples/ as lib/fixtures.js loads it) in the shared n8n — over REST as the editor's
// "Execute workflow" does, or with `n8n execute` for the cases marked headless, which show a
// saved workflow runs from the CLI — then looks at the run and at what the reference service saw.
//
// A case's check gets { exec (code 0 on success, run as IRun, output), crew, tokens, n8n };
// its `service` changes the reference service's settings for that case only.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { items, nodeRun, pairedIndexes, errorText } = require('../lib/runData');
const { assertNoToken, assertNoTokenInN8n } = require('../lib/tokens');

const ok = (exec) =>
	assert.equal(
		exec.code,
		0,
		`n8n execute failed (exit ${exec.code}): ${errorText(exec.run) || tailOf(exec.output)}`,
	);
const failed = (exec) =>
	assert.notEqual(exec.code, 0, 'the execution was expected to fail but n8n reported success');
const tailOf = (t) => t.split('\n').slice(-15).join('\n');
const runsByTopic = (runs, topic) => runs.filter((r) => r.inputs.topic === topic);
const only = (list, what) => {
	assert.equal(list.length, 1, `expected exactly one ${what}, got ${list.length}`);
	return list[0];
};

/** Text of everything n8n said about a failed execution: the run's error, else its output. */
const failureText = (exec) => errorText(exec.run) || exec.output;

const tests = [
	{
		name: 'n8n itself runs a plain workflow (Code node, expression, IF), headless with `n8n execute`',
		workflow: 'plain',
		headless: true,
		check({ exec }) {
			ok(exec);
			assert.equal(items(exec.run, 'Is six?', 0).length, 1);
		},
	},
	{
		name: 'Get Inputs lists the crew inputs, with an organization and a user token',
		workflow: 'get-inputs',
		async check({ exec, crew }) {
			ok(exec);
			for (const node of ['Get Inputs', 'Get Inputs (user token)']) {
				const out = items(exec.run, node);
				assert.equal(out.length, 1, `${node}: one item`);
				assert.deepEqual(out[0].json.inputs, ['topic', 'audience'], `${node}: input names`);
			}
			const reqs = (await crew.requests()).filter((r) => r.route === 'inputs');
			assert.deepEqual(
				reqs.map((r) => r.status),
				[200, 200],
			);
			assert.deepEqual(reqs.map((r) => r.tokenType).sort(), ['organization', 'user']);
		},
	},
	{
		name: 'Get Inputs reads the inputs listed as objects ({name, type, required})',
		workflow: 'get-inputs',
		service: { inputsShape: 'objects' },
		check({ exec }) {
			ok(exec);
			const [item] = items(exec.run, 'Get Inputs');
			assert.deepEqual(item.json.inputs, ['topic', 'audience']);
		},
	},
	{
		name: 'Kickoff starts a run and returns its kickoff_id without waiting',
		workflow: 'kickoff',
		async check({ exec, crew }) {
			ok(exec);
			const [item] = items(exec.run, 'Kickoff');
			assert.match(String(item.json.kickoff_id), /\S/, 'kickoff_id');
			const run = only(await crew.runs(), 'run');
			assert.equal(item.json.kickoff_id, run.kickoffId);
			assert.deepEqual(run.inputs, { topic: 'AI agents', audience: 'n8n users' });
			assert.equal(run.meta && run.meta.source, 'e2e-kickoff', 'meta sent with the kickoff');
			assert.equal(run.statusRequests, 0, 'Kickoff must not poll');
			assert.deepEqual(pairedIndexes(item), [0]);
		},
	},
	{
		name: 'Get Status reads a finished run by the id from the Kickoff before it',
		workflow: 'get-status',
		async check({ exec, crew }) {
			ok(exec);
			const [kick] = items(exec.run, 'Kickoff');
			const [status] = items(exec.run, 'Get Status');
			const j = status.json;
			assert.equal(j.kickoff_id, kick.json.kickoff_id);
			assert.equal(j.state, 'completed');
			assert.equal(j.result, 'Status report ready');
			assert.equal(j.result_json, null, 'the documented record shape has no result_json');
			assert.equal(j.response && j.response.status, 'completed', 'the raw record in response');
			assert.deepEqual(pairedIndexes(status), [0]);
			const run = only(await crew.runs(), 'run');
			assert.ok(run.statusRequests >= 1, 'the service was asked for the status');
		},
	},
	{
		name: 'Kickoff and Wait polls until the crew completes and returns its result, headless with `n8n execute`',
		headless: true,
		workflow: 'kickoff-and-wait',
		async check({ exec, crew }) {
			ok(exec);
			const out = items(exec.run, 'Kickoff and Wait');
			assert.equal(out.length, 1);
			const j = out[0].json;
			assert.equal(j.state, 'completed');
			assert.match(j.result, /topic=AI agents/);
			const run = only(await crew.runs(), 'run');
			assert.equal(j.kickoff_id, run.kickoffId);
			assert.ok(run.statusRequests >= 1, 'polled at least once');
		},
	},
	{
		name: 'Kickoff and Wait reads the record shape seen in the wild (state SUCCESS, result_json) at the other status path',
		workflow: 'kickoff-and-wait',
		service: { recordShape: 'wild', statusPaths: 'wild' },
		async check({ exec, crew }) {
			ok(exec);
			const [item] = items(exec.run, 'Kickoff and Wait');
			const j = item.json;
			assert.equal(j.state, 'completed');
			assert.equal(j.result, 'Crew finished: topic=AI agents');
			assert.deepEqual(j.result_json, { inputs: { topic: 'AI agents' }, kickoffNumber: 1 });
			assert.equal(j.response && j.response.state, 'SUCCESS', 'the raw record in response');
			const statusReqs = (await crew.requests()).filter((r) => r.route === 'status');
			assert.ok(
				statusReqs.some((r) => r.spelling === 'wild' && r.status === 200),
				'found the /status/{id} spelling',
			);
		},
	},
	{
		name: 'Kickoff and Wait over five items: all kicked off together, outputs in input order, pairedItem kept',
		workflow: 'many-items',
		async check({ exec, crew }) {
			ok(exec);
			const topics = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
			const out = items(exec.run, 'Kickoff and Wait');
			assert.equal(out.length, topics.length, 'one output item per input item');
			const runs = await crew.runs();
			assert.equal(runs.length, topics.length, 'one kickoff per item');
			out.forEach((item, i) => {
				assert.equal(item.json.state, 'completed', `item ${i} state`);
				assert.match(
					item.json.result,
					new RegExp(`topic=${topics[i]}\\b`),
					`item ${i} is the crew of "${topics[i]}"`,
				);
				assert.equal(
					item.json.kickoff_id,
					only(runsByTopic(runs, topics[i]), `run for ${topics[i]}`).kickoffId,
				);
				assert.deepEqual(pairedIndexes(item), [i], `item ${i} pairedItem`);
			});
			const created = runs.map((r) => r.createdAt);
			const spread = Math.max(...created) - Math.min(...created);
			assert.ok(
				spread < 1000,
				`the five crews were kicked off ${spread} ms apart: items must not wait one after another`,
			);
			const took = nodeRun(exec.run, 'Kickoff and Wait').executionTime;
			assert.ok(
				took < 9000,
				`the node took ${took} ms for crews of 4+3+2+1+0 s: it must wait on them together`,
			);
		},
	},
	{
		name: 'A failing crew with On Error "continue (using error output)" goes to the error output with error.message, error.description and error.kickoff_id',
		workflow: 'fail-error-output',
		async check({ exec, crew }) {
			ok(exec);
			const runs = await crew.runs();
			const bad = only(runsByTopic(runs, 'breaks'), 'failing run');
			const good = only(runsByTopic(runs, 'works'), 'good run');
			const main = items(exec.run, 'Kickoff and Wait', 0);
			const errs = items(exec.run, 'Kickoff and Wait', 1);
			const keys = main.map((i) => Object.keys(i.json).join(','));
			assert.equal(
				main.length,
				1,
				`one item on the success output, got ${main.length} (json keys: ${keys.join(' / ')}). ` +
					'n8n (n8n-core handleNodeErrorOutput) moves an item to the error output only when the item carries `error` ' +
					'(the NodeOperationError, beside json), or its json has no keys but error and message (1.x; 2.x also allows details)',
			);
			assert.equal(main[0].json.kickoff_id, good.kickoffId);
			assert.equal(main[0].json.state, 'completed');
			assert.deepEqual(pairedIndexes(main[0]), [0]);
			assert.equal(errs.length, 1, 'one item on the error output');
			// n8n routes to the error output an item whose json holds only `error`: the details are inside it.
			const { error } = errs[0].json;
			assert.equal(
				typeof error,
				'object',
				`the error output item's error is an object of fields: ${JSON.stringify(errs[0].json)}`,
			);
			assert.equal(error.kickoff_id, bad.kickoffId, 'error.kickoff_id');
			assert.match(
				error.message,
				/research agent gave up/,
				"error.message carries the crew's own error",
			);
			assert.match(String(error.description), /\S/, 'error.description says what to do');
			assert.deepEqual(pairedIndexes(errs[0]), [1]);
			assert.equal(items(exec.run, 'Succeeded').length, 1);
			assert.equal(items(exec.run, 'Failed').length, 1);
		},
	},
	{
		name: 'A failing crew with On Error "continue (regular output)" becomes an item with the fields error, description and kickoff_id',
		workflow: 'fail-regular-output',
		async check({ exec, crew }) {
			ok(exec);
			const bad = only(await crew.runs(), 'run');
			const out = items(exec.run, 'Kickoff and Wait');
			assert.equal(out.length, 1);
			const { json } = out[0];
			assert.deepEqual(
				Object.keys(json).sort(),
				['description', 'error', 'kickoff_id'],
				`the fields n8n kept: ${JSON.stringify(json)}`,
			);
			assert.equal(json.kickoff_id, bad.kickoffId, 'kickoff_id');
			assert.match(json.error, /writer agent crashed/, "error carries the crew's own error");
			assert.match(json.description, /\S/, 'description says what to do');
			assert.equal(items(exec.run, 'After').length, 1, 'the workflow went on');
		},
	},
	{
		name: 'A failing crew stops the workflow with an error naming its kickoff id',
		workflow: 'fail-stop',
		async check({ exec, crew }) {
			failed(exec);
			const bad = only(await crew.runs(), 'run');
			const text = failureText(exec);
			assert.ok(
				text.includes(bad.kickoffId),
				`the error names the kickoff id ${bad.kickoffId}:\n${tailOf(text)}`,
			);
			assert.match(exec.output, /editor agent quit/, "the crew's own error is shown");
		},
	},
	{
		name: 'Kickoff and Wait gives up after its timeout with an error naming the kickoff id',
		workflow: 'timeout',
		async check({ exec, crew }) {
			failed(exec);
			const run = only(await crew.runs(), 'run');
			const text = failureText(exec);
			assert.ok(
				text.includes(run.kickoffId),
				`the error names the kickoff id ${run.kickoffId}:\n${tailOf(text)}`,
			);
			assert.match(text, /time(d)?[ -]?out/i, 'the error says it timed out');
			if (exec.run) {
				const took = nodeRun(exec.run, 'Kickoff and Wait').executionTime;
				assert.ok(took >= 3500 && took < 20000, `gave up after ${took} ms for a 4 s timeout`);
			}
		},
	},
	{
		name: 'A wrong token fails with 401 and the token appears nowhere in n8n output',
		workflow: 'wrong-token',
		async check({ exec, crew, tokens }) {
			failed(exec);
			assert.match(
				failureText(exec),
				/401|unauthori|token/i,
				'the error says the token was refused',
			);
			assertNoToken(exec.output, tokens, "n8n's output");
			const reqs = await crew.requests();
			assert.ok(reqs.length >= 1, 'the node reached the service');
			assert.ok(
				reqs.every((r) => r.status === 401 && r.tokenType === null),
				'every request was refused',
			);
			assert.equal((await crew.runs()).length, 0, 'no run started');
		},
	},
	{
		name: 'inputsJson built by expressions (a template string and an object) reaches the crew',
		workflow: 'expression-inputs',
		async check({ exec, crew }) {
			ok(exec);
			const runs = await crew.runs();
			const template = only(runsByTopic(runs, 'robots in 300 words'), 'run from the template');
			assert.deepEqual(template.inputs, {
				topic: 'robots in 300 words',
				audience: 'Ada "the" Engineer',
			});
			const object = only(runsByTopic(runs, 'ROBOTS'), 'run from the object');
			assert.deepEqual(object.inputs, { topic: 'ROBOTS', audience: 'readers of 300 words' });
			assert.equal(
				items(exec.run, 'Inputs from a template')[0].json.kickoff_id,
				template.kickoffId,
			);
			assert.equal(items(exec.run, 'Inputs from an object')[0].json.kickoff_id, object.kickoffId);
		},
	},
	{
		name: 'Inputs mapped field by field (Map Each Input) reach the crew, one kickoff per item',
		workflow: 'map-inputs',
		async check({ exec, crew }) {
			ok(exec);
			const runs = await crew.runs();
			assert.deepEqual(only(runsByTopic(runs, 'drones'), 'run for drones').inputs, {
				topic: 'drones',
				audience: 'farmers and friends',
			});
			assert.deepEqual(only(runsByTopic(runs, 'tides'), 'run for tides').inputs, {
				topic: 'tides',
				audience: 'sailors and friends',
			});
			const out = items(exec.run, 'Kickoff and Wait');
			assert.deepEqual(
				out.map((i) => i.json.result),
				[
					'Crew finished: topic=drones; audience=farmers and friends',
					'Crew finished: topic=tides; audience=sailors and friends',
				],
			);
			assert.deepEqual(out.map(pairedIndexes), [[0], [1]]);
		},
	},
	{
		name: "An IF node routes on the Crew node's state",
		workflow: 'if-on-state',
		async check({ exec, crew }) {
			ok(exec);
			const runs = await crew.runs();
			const done = items(exec.run, 'Use the result');
			const running = items(exec.run, 'Still running');
			assert.equal(done.length, 1, 'one finished crew');
			assert.equal(done[0].json.state, 'completed');
			assert.equal(
				done[0].json.kickoff_id,
				only(runsByTopic(runs, 'quick'), 'quick run').kickoffId,
			);
			assert.equal(running.length, 1, 'one crew still going');
			assert.ok(
				['pending', 'running'].includes(running[0].json.state),
				`state ${running[0].json.state}`,
			);
			assert.equal(
				running[0].json.kickoff_id,
				only(runsByTopic(runs, 'slow'), 'slow run').kickoffId,
			);
			const status = items(exec.run, 'Get Status');
			assert.deepEqual(status.map(pairedIndexes), [[0], [1]], 'Get Status pairedItem');
			assert.deepEqual(
				items(exec.run, 'Completed?', 0).map(pairedIndexes),
				[[0]],
				'IF true branch pairedItem',
			);
			assert.deepEqual(
				items(exec.run, 'Completed?', 1).map(pairedIndexes),
				[[1]],
				'IF false branch pairedItem',
			);
		},
	},
	{
		name: 'A persisted flow runs again from its last state: Restore From State ID set by expression from the Kickoff and Wait before',
		workflow: 'restore-from-state',
		service: { recordShape: 'wild' },
		async check({ exec, crew }) {
			ok(exec);
			const [first] = items(exec.run, 'First Run');
			const [next] = items(exec.run, 'Next Run');
			const runs = await crew.runs();
			const firstRun = only(runsByTopic(runs, 'AI agents'), 'first run');
			const nextRun = only(runsByTopic(runs, 'robots'), 'next run');
			assert.deepEqual(first.json.flow_state, {
				topic: 'AI agents',
				audience: 'n8n users',
				run_count: 1,
				kickoff_ids: [firstRun.kickoffId],
				id: firstRun.kickoffId,
			});
			const kickoff = (await crew.requests()).filter((r) => r.route === 'kickoff')[1];
			assert.deepEqual(
				kickoff.body,
				{
					inputs: { topic: 'robots' },
					restoreFromStateId: firstRun.kickoffId,
					meta: { reference: { durationMs: 800, flow: true } },
				},
				'the id at the top level, beside inputs',
			);
			// The first run's state (its audience kept), the next run's inputs on top, a fresh state id.
			assert.deepEqual(next.json.flow_state, {
				topic: 'robots',
				audience: 'n8n users',
				run_count: 2,
				kickoff_ids: [firstRun.kickoffId, nextRun.kickoffId],
				id: nextRun.kickoffId,
			});
			assert.deepEqual(pairedIndexes(next), [0]);
		},
	},
];

module.exports = {
	name: 'workflows',
	title: 'Saved workflows and examples, one Crew operation each',
	majors: ['1', '2'],
	seconds: 45,
	needs: { server: true },
	workflows: (fixtures) => {
		const all = fixtures.loadWorkflows();
		return Object.fromEntries(
			[...new Set(tests.map((t) => t.workflow))].map((key) => [key, all[key]]),
		);
	},
	tests,
	async run(t) {
		if (!t.opts.withoutPackage) {
			await t.check(
				'installed as n8n installs a community package: no dependencies, n8n-workflow left to n8n',
				() => {
					const nodesModules = path.dirname(t.installedAt);
					assert.deepEqual(
						fs.readdirSync(nodesModules),
						[path.basename(t.installedAt)],
						'nothing but the package in .n8n/nodes/node_modules',
					);
					assert.ok(
						!fs.existsSync(path.join(t.installedAt, 'node_modules')),
						'the package brings no node_modules',
					);
					// Outside n8n, the node's require('n8n-workflow') finds nothing: inside n8n it can
					// only be n8n's own copy (n8n puts its node_modules on NODE_PATH for packages).
					assert.throws(
						() => require.resolve('n8n-workflow', { paths: [t.installedAt] }),
						/Cannot find module/,
					);
				},
			);
		}
		for (const test of tests) {
			await t.check(test.name, async () => {
				await t.resetService(test.service);
				const exec = test.headless ? await t.execute(test.workflow) : await t.run(test.workflow);
				try {
					await test.check({ exec, crew: t.crew, tokens: t.tokens, n8n: t.n8n });
				} catch (err) {
					err.message += `\n    n8n ${test.headless ? 'execute exit ' + exec.code : 'execution ' + exec.executionId + ' ' + exec.status}; last output:\n      ${tailOf(exec.output).split('\n').join('\n      ')}`;
					throw err;
				}
			});
		}
		// Across everything n8n printed and stored: no token, right or wrong, in clear.
		await t.check('no token in clear in any n8n output, log or stored execution', () =>
			assertNoTokenInN8n(t.n8n, t.tokens, { database: true }),
		);
	},
};
