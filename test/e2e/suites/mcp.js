'use strict';
// The Crew tool served by n8n's MCP Server Trigger, called by a real MCP client (the MCP SDK's
// own, @modelcontextprotocol/sdk, over streamable HTTP).
//
//   node test/e2e/run.js --only mcp --n8n 2
//
// n8n 2.x only, on the shared n8n: examples/mcp-server.json (MCP Server Trigger with
// "Research Crew", Kickoff and Wait with the inputs as the editor fills them for a Crew tool)
// published over REST, against a crew with three inputs. Checks:
//   the client lists the tool with the crew's three inputs as required string parameters;
//   a call with the three values starts one crew with them and answers in short (state,
//     result, kickoff id; at most 1.5 × the result + 200 characters), without a token;
//   a call for a failing crew (a second Crew tool, "Failing Crew", added for this check)
//     answers with the reason and what to do.

const assert = require('node:assert/strict');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const procs = require('../lib/procs');
const { loadExample } = require('../lib/fixtures');
const { say } = require('../lib/report');

const THREE_INPUTS = [{ name: 'topic' }, { name: 'audience' }, { name: 'current_year' }];
const VALUES = { topic: 'tides', audience: 'sailors', current_year: '2026' };
const FAILURE = 'Task execution failed: invalid API key';

function assertNoToken(text, tokens, where) {
	for (const [kind, token] of Object.entries(tokens))
		assert.ok(!text.includes(token), `the ${kind} token appears in ${where}`);
}

/** n8n answers readiness before it has registered a published workflow's MCP route: wait for the route. */
async function connectWhenServed(url, proc, timeoutMs = 60000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const client = new Client({ name: 'n8n-nodes-crewai-e2e', version: '1.0.0' });
		try {
			await client.connect(new StreamableHTTPClientTransport(new URL(url)));
			return client;
		} catch (err) {
			if (proc.done) throw new Error(`n8n exited: ${procs.tail(proc.output())}`);
			if (Date.now() > deadline)
				throw new Error(`no MCP server at ${url} within ${timeoutMs} ms: ${err.message}`);
			await new Promise((r) => setTimeout(r, 1000));
		}
	}
}

async function run(t) {
	const { check } = t;
	const stack = { n8n: t.n8n, crew: t.crew, tokens: t.tokens };
	let client;
	const ctx = { baseUrl: t.baseUrl };
	const ready = await check(
		'the MCP Server Trigger workflow published on the shared n8n; an MCP client connects',
		async () => {
			const workflow = t.workflows.mcp;
			await t.publish('mcp');
			client = await connectWhenServed(
				`${ctx.baseUrl}/mcp/${workflow.nodes[0].parameters.path}`,
				stack.n8n.server.proc,
			);
		},
	);
	if (!ready) return;
	const { crew, tokens } = stack;
	try {
		let tool;
		await check(
			"the client lists the Crew tool with the crew's three inputs as required string parameters",
			async () => {
				const { tools } = await client.listTools();
				tool = tools.find((t) => t.name === 'Research_Crew');
				assert.ok(tool, `listed: ${tools.map((t) => t.name).join(', ')}`);
				const { properties, required } = tool.inputSchema;
				assert.deepEqual(Object.keys(properties).sort(), ['audience', 'current_year', 'topic']);
				assert.deepEqual([...required].sort(), ['audience', 'current_year', 'topic']);
				for (const [name, schema] of Object.entries(properties))
					assert.equal(schema.type, 'string', name);
				say(`    ${tool.name}: ${tool.description}; ${JSON.stringify(properties)}`);
			},
		);

		await check(
			"calling it starts one crew with the client's values and answers in short",
			async () => {
				assert.ok(tool, 'the tool was not listed');
				await crew.reset();
				const result = await client.callTool({ name: tool.name, arguments: VALUES });
				const text = result.content.map((c) => c.text || '').join('');
				assertNoToken(JSON.stringify(result), tokens, 'the MCP answer');
				const runs = await crew.runs();
				assert.deepEqual(
					runs.map((r) => r.inputs),
					[VALUES],
				);
				assert.equal(
					(await crew.requests()).filter((r) => r.route === 'kickoff').length,
					1,
					'one kickoff',
				);
				const crewResult = `Crew finished: topic=tides; audience=sailors; current_year=2026`;
				assert.ok(
					text.includes(crewResult) &&
						text.includes(runs[0].kickoffId) &&
						text.includes('"state":"completed"'),
					text,
				);
				assert.ok(!text.includes('"response"'), `the raw record is not in the answer: ${text}`);
				assert.ok(text.length <= 1.5 * crewResult.length + 200, `answer ${text.length} chars`);
				say(`    answer (${text.length} chars): ${text}`);
			},
		);

		await check('a failing crew answers with the reason and what to do', async () => {
			await crew.reset();
			await crew.configure({ inputs: THREE_INPUTS, durationMs: 1000 });
			const result = await client.callTool({ name: 'Failing_Crew', arguments: VALUES });
			const text = result.content.map((c) => c.text || '').join('');
			const [run] = await crew.runs();
			assert.ok(run, 'a crew was started');
			assert.ok(text.includes(`The crew failed (kickoff ID ${run.kickoffId}): ${FAILURE}`), text);
			assert.match(text, /Fix its cause/);
			assertNoToken(JSON.stringify(result), tokens, 'the MCP answer');
			say(`    answer: ${text}`);
		});
	} finally {
		if (client) await client.close().catch(() => {});
	}
}

/** The example a user imports (examples/mcp-server.json), with a second Crew tool whose crew fails. */
function loadWorkflow() {
	const workflow = loadExample('mcp-server.json', {
		id: 'e2eMcpCrewTool01',
		set: { 'Research Crew': { 'options.pollInterval': 0.5, 'options.timeout': 120 } },
		// The example's crew has one input, topic; this test's crew has three.
		toolInputs: { 'Research Crew': ['audience', 'current_year'] },
	});
	// A second Crew tool whose crew fails, for the failure check only.
	const failing = JSON.parse(
		JSON.stringify(workflow.nodes.find((n) => n.name === 'Research Crew')),
	);
	Object.assign(failing, {
		name: 'Failing Crew',
		id: 'b9e2e001-0003-4c2e-9a11-6d6370740001',
		position: [220, 220],
	});
	failing.parameters.options.meta = JSON.stringify({
		reference: { outcome: 'failure', error: FAILURE, durationMs: 500 },
	});
	workflow.nodes.push(failing);
	workflow.connections['Failing Crew'] = {
		ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]],
	};
	return { mcp: workflow };
}

module.exports = {
	name: 'mcp',
	title: 'The MCP Server Trigger with a Crew tool and the MCP SDK client',
	majors: ['2'],
	seconds: 5,
	needs: { server: true },
	service: { inputs: THREE_INPUTS, durationMs: 1000 },
	workflows: () => loadWorkflow(),
	run,
};
