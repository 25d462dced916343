'use strict';
// The Crew node as an AI Agent's tool in a real n8n, with a scripted OpenAI-compatible model
// (lib/scriptedModel.js) that calls tools only with what their offered schema says.
//
//   node test/e2e/run.js --only agent [--n8n 2|1|all]
//
//   --docs    on n8n 2.x: also write the docs' screenshots of the agent and its Crew
//             tool (docs/agent-*.png) from this run's editor
//
// Per major, on the shared n8n: examples/agent-with-crew-tools.json (Manual Trigger → AI Agent with the OpenAI Chat
// Model and two Crew tools: "Research Crew", Kickoff and Wait with the inputs as the editor
// fills them for a Crew tool, and "Research Status", Get Status by $fromAI('kickoff_id')),
// in copies that differ in the prompt's script and the Research Crew's settings, each run
// over REST, against a crew with three inputs. Checks:
//   the model is offered the crew's three inputs as required string parameters;
//   the first call succeeds: one POST /kickoff, no 422, the model's values arrive, and the
//     answer is at most 1.5 × the crew's result + 200 characters;
//   two tool calls in one answer start two crews, each with its own values;
//   a failing crew, a wrong token and a timeout reach the model as a message that names the
//     fix (the timeout's: the kickoff id and Get Status), and the model's Get Status call
//     with that id reads the crew;
//   no token in any request the model received, nor in n8n's output;
//   the scripted model itself answers a streamed chat completion as OpenAI does;
//   in the editor (Chromium): opening a Crew tool whose inputs were never loaded
//     fills each field with the model's $fromAI placeholder, as the sample workflow has them,
//     and saving stores them so.

const assert = require('node:assert/strict');
const { assertImported } = require('../lib/rest');
const fs = require('node:fs');
const path = require('node:path');

const procs = require('../lib/procs');
const { loadExample, OPENAI_CREDENTIAL } = require('../lib/fixtures');
const { say } = require('../lib/report');
const { assembleStream } = require('../lib/scriptedModel');
const { errorText } = require('../lib/runData');
const { signIn } = require('../lib/browser');
const { OWNER } = require('../lib/n8n');

const SHOTS = path.join(__dirname, '..', 'screenshots');
const DOCS = path.join(__dirname, '..', '..', '..', 'docs');

const WRONG_CREDENTIAL = { id: 'crewCredWrong001', name: 'Crew (wrong token)' };
const THREE_INPUTS = [{ name: 'topic' }, { name: 'audience' }, { name: 'current_year' }];
const ASKED = { topic: 'tides', audience: 'sailors', current_year: '2026' };
const FAILURE = 'Task execution failed: invalid API key';
const resultFor = (values) =>
	`Crew finished: topic=${values.topic}; audience=${values.audience}; current_year=${values.current_year}`;

/** A copy of the sample workflow with its own id, the prompt's script, and changes to the Research Crew tool. */
function variant(base, suffix, steps, changeCrew = () => {}) {
	const wf = JSON.parse(JSON.stringify(base));
	wf.id = `${base.id.slice(0, -2)}${suffix}`;
	wf.name = `${base.name} (${suffix})`;
	for (const n of wf.nodes) n.id = `${n.id.slice(0, -2)}${suffix}`;
	const agent = wf.nodes.find((n) => n.name === 'AI Agent');
	agent.parameters.text = `${agent.parameters.text}\nscript: ${JSON.stringify({ steps })}`;
	changeCrew(wf.nodes.find((n) => n.name === 'Research Crew'));
	return wf;
}

function loadVariants() {
	// The example a user imports (examples/agent-with-crew-tools.json), its OpenAI credential and
	// model the scripted model's.
	const base = loadExample('agent-with-crew-tools.json', {
		id: 'e2eAgentCrewTl01',
		credentials: { openAiApi: OPENAI_CREDENTIAL },
		set: {
			'OpenAI Chat Model': { 'model.value': 'scripted-model' },
			'Research Crew': { 'options.pollInterval': 0.5, 'options.timeout': 120 },
		},
		// The example's crew has one input, topic; this test's crew has three.
		toolInputs: { 'Research Crew': ['audience', 'current_year'] },
	});
	const research = (...calls) => ({ tool: 'research_crew', calls });
	return {
		one: variant(base, 'o1', [research(ASKED)]),
		two: variant(base, 't2', [
			research(ASKED, { topic: 'winds', audience: 'pilots', current_year: '2027' }),
		]),
		failing: variant(base, 'f3', [research(ASKED)], (crew) => {
			crew.parameters.options.meta = JSON.stringify({
				reference: { outcome: 'failure', error: FAILURE, durationMs: 500 },
			});
		}),
		wrongToken: variant(base, 'w4', [research(ASKED)], (crew) => {
			crew.credentials.crewApi = WRONG_CREDENTIAL;
		}),
		// A Crew tool as it is before its panel was ever opened: no fields loaded.
		editor: variant(base, 'e6', [], (crew) => {
			crew.parameters.inputs = { mappingMode: 'defineBelow', value: null };
		}),
		timeout: variant(
			base,
			'x5',
			[research(ASKED), { tool: 'research_status', fromLastAnswer: 'kickoff_id' }],
			(crew) => {
				crew.parameters.options.meta = JSON.stringify({ reference: { durationMs: 4000 } });
				crew.parameters.options.timeout = 1;
			},
		),
	};
}

function assertNoToken(text, tokens, where) {
	for (const [kind, token] of Object.entries(tokens))
		assert.ok(!text.includes(token), `the ${kind} token appears in ${where}`);
}

/** In the editor: the Crew tool's panel loads the crew's inputs; the saved fields are the model's. */
async function editorCheck({ t, check, expected, major, docs }) {
	let context;
	// A screenshot in test/e2e/screenshots/, and with --docs (n8n 2.x) the docs' copy.
	const shot = async (page, name) => {
		fs.mkdirSync(SHOTS, { recursive: true });
		const file = path.join(SHOTS, `n8n${major}-${name}.png`);
		await page.screenshot({ path: file });
		say(`    screenshot ${path.relative(process.cwd(), file)}`);
		if (docs && major === '2') {
			const doc = path.join(DOCS, `${name}.png`);
			fs.copyFileSync(file, doc);
			say(`    docs screenshot ${path.relative(process.cwd(), doc)}`);
		}
	};
	try {
		await check(
			"the editor fills a Crew tool's input fields with the model's placeholders, as the sample has them",
			async () => {
				const url = t.baseUrl;
				context = await t.browser.newContext({ viewport: { width: 1440, height: 900 } });
				const page = await context.newPage();
				page.setDefaultTimeout(45000);
				await signIn(page, url, OWNER);
				const { id } = t.workflows.editor;
				await page.goto(`${url}/workflow/${id}`);
				const node = page.locator('[data-test-id="canvas-node"][data-node-name="Research Crew"]');
				await node.waitFor({ state: 'visible' });
				await node.dblclick();
				await page.locator('[data-test-id="ndv"]').waitFor({ state: 'visible' });
				await page
					.locator('[data-test-id="resource-mapper-container"]')
					.getByText('current_year')
					.first()
					.waitFor({ state: 'visible' });
				await shot(page, 'agent-tool');
				await page.keyboard.press('Escape');
				await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
				await shot(page, 'agent-workflow');
				await page.keyboard.press('Control+s');
				const { rest } = t;
				const deadline = Date.now() + 30000;
				let inputs;
				for (;;) {
					const workflow = await rest.get(`workflows/${id}`);
					inputs = workflow.nodes.find((n) => n.name === 'Research Crew').parameters.inputs;
					if ((inputs && inputs.value) || Date.now() > deadline) break;
					await new Promise((r) => setTimeout(r, 500));
				}
				assert.deepEqual(inputs.value, expected, 'the saved values');
				say(`    saved: ${JSON.stringify(inputs.value)}`);
				say(
					`    the saved fields keep their starting value: ${inputs.schema.every((f) => f.defaultValue === expected[f.id])}`,
				);
			},
		);
	} finally {
		if (context) await context.close();
	}
}

async function runSuite(t) {
	const { major, check } = t;
	const { crew, workflows, tokens, model, rest } = t;
	const docs = t.opts.docs;
	const ready = await check(
		'the scripted model, the crew with three inputs, and the agent workflows imported',
		async () => {
			await assertImported(rest, workflows, [OPENAI_CREDENTIAL.id]);
		},
	);
	if (!ready) return;

	/** Runs one variant over REST; gives what n8n logged, what the crew and the model saw. */
	const run = async (workflow) => {
		await t.resetService();
		const exec = await t.run(workflow.id);
		assert.equal(
			exec.code,
			0,
			`execution ${exec.executionId} ${exec.status}: ${errorText(exec.run) || procs.tail(exec.output)}`,
		);
		assertNoToken(exec.output, tokens, "n8n's output");
		assertNoToken(
			model.requests.map((r) => r.raw).join('\n'),
			tokens,
			'the requests the model received',
		);
		const failures = model.requests.filter((r) => r.error);
		assert.deepEqual(
			failures.map((r) => r.error),
			[],
			'the model could not answer',
		);
		return {
			exec,
			requests: await crew.requests(),
			runs: await crew.runs(),
			answers: model.toolAnswers(),
		};
	};
	const kickoffs = (requests) => requests.filter((r) => r.route === 'kickoff');

	let first;
	await check(
		"the model is offered the crew's three inputs, by name, as required string parameters with a description",
		async () => {
			first = await run(workflows.one);
			const offered = model.requests[0].body.tools.find((t) => t.function.name === 'Research_Crew');
			assert.ok(
				offered,
				`offered: ${model.requests[0].body.tools.map((t) => t.function.name).join(', ')}`,
			);
			const { properties, required } = offered.function.parameters;
			assert.deepEqual(Object.keys(properties).sort(), ['audience', 'current_year', 'topic']);
			assert.deepEqual([...required].sort(), ['audience', 'current_year', 'topic']);
			for (const [name, schema] of Object.entries(properties)) {
				assert.equal(schema.type, 'string', name);
				assert.equal(schema.description, `The crew's input "${name}"`);
			}
			say(`    offered: ${JSON.stringify(offered.function.parameters.properties)}`);
		},
	);

	await check(
		"the first tool call succeeds: one POST /kickoff, no 422, the model's values arrive, the answer is short",
		async () => {
			assert.ok(first, 'the first run did not happen');
			const posts = kickoffs(first.requests);
			assert.deepEqual(
				posts.map((r) => r.status),
				[200],
				'one kickoff, answered 200',
			);
			assert.equal(first.requests.filter((r) => r.status === 422).length, 0, 'no 422');
			assert.deepEqual(
				first.runs.map((r) => r.inputs),
				[ASKED],
			);
			const [answer] = first.answers;
			const result = resultFor(ASKED);
			assert.ok(answer.includes(result), `the answer holds the result: ${answer}`);
			assert.ok(answer.includes(first.runs[0].kickoffId), 'the answer holds the kickoff id');
			assert.ok(!answer.includes('"response"'), `the raw record is not in the answer: ${answer}`);
			assert.ok(
				answer.length <= 1.5 * result.length + 200,
				`answer ${answer.length} chars, result ${result.length}`,
			);
			say(
				`    tool answer (${answer.length} chars for a ${result.length}-character result): ${answer}`,
			);
			say(
				`    chat completion requests: ${model.requests.length}, streamed: ${model.requests.filter((r) => r.stream).length}`,
			);
		},
	);

	await check(
		'two tool calls in one answer start two crews, each with its own values',
		async () => {
			const { requests, runs, answers } = await run(workflows.two);
			assert.equal(kickoffs(requests).length, 2);
			assert.deepEqual(runs.map((r) => r.inputs.topic).sort(), ['tides', 'winds']);
			assert.deepEqual(runs.find((r) => r.inputs.topic === 'winds').inputs, {
				topic: 'winds',
				audience: 'pilots',
				current_year: '2027',
			});
			assert.equal(answers.length, 2, `two tool answers: ${answers.join(' | ')}`);
			for (const r of runs)
				assert.ok(
					answers.some((a) => a.includes(r.kickoffId) && a.includes(resultFor(r.inputs))),
					`an answer for ${r.kickoffId}`,
				);
		},
	);

	await check(
		'a failing crew reaches the model as a message with the reason and the fix',
		async () => {
			const { runs, answers } = await run(workflows.failing);
			const [answer] = answers;
			assert.ok(
				answer.includes(`The crew failed (kickoff ID ${runs[0].kickoffId}): ${FAILURE}`),
				answer,
			);
			assert.match(answer, /Fix its cause/);
			say(`    ${answer}`);
		},
	);

	await check(
		'a wrong token reaches the model as a message naming the credential to fix',
		async () => {
			const { answers } = await run(workflows.wrongToken);
			const [answer] = answers;
			// Node version 1.2 detects crew or flow first, so GET /inputs is the request refused.
			assert.match(answer, /answered 401 while reading the crew's inputs/);
			assert.match(answer, /Check the bearer token in the Crew API credential/);
			say(`    ${answer}`);
		},
	);

	await check(
		"a timeout reaches the model with the kickoff id and Get Status; the model's Get Status call reads that crew",
		async () => {
			const { runs, answers } = await run(workflows.timeout);
			const [kickoffId] = runs.map((r) => r.kickoffId);
			assert.equal(runs.length, 1, 'one crew');
			const [timeout, status] = answers;
			assert.ok(timeout.includes(`kickoff ID ${kickoffId}`), timeout);
			assert.match(timeout, /did not finish within 1 seconds/);
			assert.match(timeout, /Read its result later with the Get Status operation/);
			assert.ok(status && status.includes(kickoffId), `the Get Status answer: ${status}`);
			assert.match(status, /"state":"(running|pending|completed)"/);
			say(`    ${timeout}`);
			say(`    then Get Status: ${status}`);
		},
	);

	await check('the scripted model answers a streamed chat completion as OpenAI does', async () => {
		const tools = [
			{
				type: 'function',
				function: {
					name: 'Research_Crew',
					parameters: {
						type: 'object',
						properties: { topic: { type: 'string' } },
						required: ['topic'],
					},
				},
			},
		];
		const body = {
			model: 'scripted-model',
			stream: true,
			tools,
			messages: [
				{
					role: 'user',
					content: `go\nscript: ${JSON.stringify({ steps: [{ tool: 'research', calls: [{ topic: 'tides', extra: 'not offered' }] }] })}`,
				},
			],
		};
		const res = await fetch(`${model.url}/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		assert.equal(res.headers.get('content-type'), 'text/event-stream');
		const { message, finishReason } = assembleStream(await res.text());
		assert.equal(finishReason, 'tool_calls');
		assert.deepEqual(
			JSON.parse(message.tool_calls[0].function.arguments),
			{ topic: 'tides' },
			'only the offered parameter',
		);
	});

	const sample = workflows.one.nodes.find((n) => n.name === 'Research Crew');
	await editorCheck({ t, check, expected: sample.parameters.inputs.value, major, docs });
}

module.exports = {
	name: 'agent',
	title: 'The Crew tools under an AI Agent with a scripted model',
	majors: ['1', '2'],
	seconds: 75,
	needs: { server: true, model: true, browser: true },
	service: { inputs: THREE_INPUTS, durationMs: 1000 },
	workflows: () => loadVariants(),
	run: runSuite,
};
