'use strict';
// Live progress in a real n8n: a Webhook in streaming response mode (version 2.1) starts
// Kickoff and Wait, and the crew's progress reaches the HTTP client while the crew runs.
// `n8n execute` never streams (no HTTP response to write to), so this is `n8n start`.
//
//   node test/e2e/run.js --only streaming [--n8n 2|1|all]
//
// Per major, on the shared n8n: examples/streaming-webhook.json published and a
// copy whose Webhook answers with the last node's output ("When Last Node Finishes"), and:
//   a crew of 6 s with three tasks, streamed: NDJSON lines as n8n writes them; the Crew
//     node's chunks go begin, progress (state, each task by name), the final answer, end;
//     progress lines arrive before the crew ends on the service, the answer after; the
//     arrival times are printed;
//   the same crew with streaming off: one JSON body, today's normalized record, no chunk;
//   Wait By: Callback, streamed: the first phase streams, then the parked line and end; n8n
//     closes the response as the execution parks, and the crew's call still resumes it;
//   no token in what either client received or in n8n's logs.

const assert = require('node:assert/strict');

const { loadExample } = require('../lib/fixtures');
const { say } = require('../lib/report');
const { assertNoToken, assertNoTokenInN8n } = require('../lib/tokens');
const { postAndReadLines } = require('../lib/lines');

const CREW_NODE = 'Kickoff and Wait';
const CREW_MS = 6000;
const CALLBACK_FIRST_PHASE_S = 2;
// Today's output of Kickoff and Wait: the normalized record (README, "Output").
const RECORD_FIELDS = [
	'error',
	'kickoff_id',
	'response',
	'result',
	'result_json',
	'state',
	'task_id',
];

/** The streaming workflow, and a copy that differs only in the Webhook's response mode. */
function loadWorkflows() {
	// The example a user imports (examples/streaming-webhook.json), steered by the POSTed body.
	const streaming = loadExample('streaming-webhook.json', {
		id: 'e2eStreaming0001',
		set: {
			'Kickoff and Wait': {
				'options.meta': '={{ JSON.stringify({ reference: $json.body.reference || {} }) }}',
				'options.pollInterval': 0.5,
				'options.timeout': 120,
			},
		},
	});
	const notStreaming = JSON.parse(JSON.stringify(streaming));
	notStreaming.id = `${streaming.id.slice(0, -2)}n1`;
	notStreaming.name = `${streaming.name} (streaming off)`;
	const hook = notStreaming.nodes[0];
	hook.parameters.responseMode = 'lastNode';
	hook.parameters.path = `${hook.parameters.path}-off`;
	hook.webhookId = `${hook.webhookId.slice(0, -2)}n1`;
	for (const n of notStreaming.nodes) n.id = `${n.id.slice(0, -2)}n1`;
	const byCallback = JSON.parse(JSON.stringify(streaming));
	byCallback.id = `${streaming.id.slice(0, -2)}c1`;
	byCallback.name = `${streaming.name} (Wait By: Callback)`;
	byCallback.nodes[0].parameters.path = `${streaming.nodes[0].parameters.path}-callback`;
	byCallback.nodes[0].webhookId = `${streaming.nodes[0].webhookId.slice(0, -2)}c1`;
	for (const n of byCallback.nodes) n.id = `${n.id.slice(0, -2)}c1`;
	byCallback.nodes[1].parameters.waitBy = 'callback';
	byCallback.nodes[1].parameters.options.firstPhase = CALLBACK_FIRST_PHASE_S;
	return { streaming, notStreaming, byCallback };
}

async function run(t) {
	const { check } = t;
	const stack = { n8n: t.n8n, crew: t.crew, workflows: t.workflows, tokens: t.tokens };
	const ctx = { baseUrl: t.baseUrl };
	const ready = await check(
		'the streaming Webhook workflow and its streaming-off copy published on the shared n8n',
		async () => {
			await t.publishAll();
		},
	);
	if (!ready) return;
	const { crew, workflows, tokens } = stack;
	await crew.configure({
		recordShape: 'contract',
		statusPaths: 'both',
		inputsShape: 'names',
		errorShape: 'documented',
	});
	const call = (workflow, topic) =>
		postAndReadLines(`${ctx.baseUrl}/webhook/${workflow.nodes[0].parameters.path}`, {
			topic,
			reference: { durationMs: CREW_MS },
		});
	const runOf = async (topic) => {
		const run = (await crew.runs()).find((r) => r.inputs.topic === topic);
		assert.ok(run, `no crew run for topic ${topic}`);
		return run;
	};

	await check(
		`a ${CREW_MS / 1000} s crew, streamed: begin, progress with each task while it runs, the final answer after it ends, end`,
		async () => {
			const answer = await call(workflows.streaming, 'streaming');
			assert.equal(answer.status, 200, answer.text.slice(0, 300));
			assert.match(String(answer.contentType), /application\/json/);
			assertNoToken(answer.text, tokens, 'the streamed response');
			const run = await runOf('streaming');
			const chunks = answer.lines.map(({ at, line }) => ({ at, ...JSON.parse(line) }));
			const crewChunks = chunks.filter((c) => c.metadata?.nodeName === CREW_NODE);
			assert.ok(crewChunks.length > 0, `no chunk from ${CREW_NODE}: ${answer.text.slice(0, 500)}`);
			assert.equal(crewChunks[0].type, 'begin');
			assert.equal(crewChunks.at(-1).type, 'end');
			const items = crewChunks.filter((c) => c.type === 'item');
			const final = items.at(-1);
			assert.equal(
				final.content,
				'Crew finished: topic=streaming',
				'the final answer is the last item',
			);
			const texts = items.map((c) => c.content);
			// The kickoff ID once, on the first line; Markdown hard breaks; the answer after a blank line.
			assert.match(
				texts[0],
				new RegExp(`^The crew (is queued|is running) \\(kickoff ID ${run.kickoffId}\\)  \n$`),
				texts.join(''),
			);
			assert.equal(texts.join('').split(run.kickoffId).length, 2, texts.join(''));
			assert.ok(
				texts.join('').endsWith('The crew completed\n\nCrew finished: topic=streaming'),
				texts.join(''),
			);
			assert.deepEqual(
				texts.filter((t) => t.startsWith('Task finished:')),
				[
					'Task finished: research_task (1 of 3)  \n',
					'Task finished: analysis_task (2 of 3)  \n',
					'Task finished: report_task (3 of 3)  \n',
				],
			);
			// The service's clock is real time here: completesAt is when the crew ended.
			const beforeEnd = items.filter((c) => c.at < run.completesAt);
			assert.ok(
				beforeEnd.length >= 3,
				`only ${beforeEnd.length} progress chunks reached the client before the crew ended`,
			);
			assert.ok(final.at >= run.completesAt, 'the final answer came after the crew ended');
			const offsets = items.map(
				(c) =>
					`${((c.at - run.createdAt) / 1000).toFixed(1)}s ${JSON.stringify(c.content.trim().slice(0, 48))}`,
			);
			say(
				`    crew ${run.kickoffId} ran ${((run.completesAt - run.createdAt) / 1000).toFixed(1)} s; chunks received (from kickoff): ${offsets.join(', ')}`,
			);
			say(
				`    other lines in the stream: ${JSON.stringify([...new Set(chunks.filter((c) => c.metadata?.nodeName !== CREW_NODE).map((c) => `${c.type}:${c.metadata?.nodeName ?? ''}`))])}`,
			);
		},
	);

	await check(
		"the same crew with streaming off: one JSON body, today's normalized record, no chunk",
		async () => {
			const answer = await call(workflows.notStreaming, 'not streaming');
			assert.equal(answer.status, 200, answer.text.slice(0, 300));
			assertNoToken(answer.text, tokens, 'the response');
			const run = await runOf('not streaming');
			const body = JSON.parse(answer.text);
			assert.deepEqual(Object.keys(body).sort(), RECORD_FIELDS);
			assert.equal(body.kickoff_id, run.kickoffId);
			assert.equal(body.state, 'completed');
			assert.equal(body.result, 'Crew finished: topic=not streaming');
			assert.equal(body.error, null);
			assert.equal(answer.text.includes('"type":"begin"'), false);
		},
	);

	await check(
		`Wait By: Callback, streamed: its ${CALLBACK_FIRST_PHASE_S} s first phase streams, the stream ends when the execution parks, the crew's call back still resumes it`,
		async () => {
			const answer = await call(workflows.byCallback, 'by callback');
			const endedAt = Date.now();
			assert.equal(answer.status, 200, answer.text.slice(0, 300));
			assertNoToken(answer.text, tokens, 'the streamed response');
			const run = await runOf('by callback');
			assert.ok(
				endedAt < run.completesAt,
				'n8n ended the streamed response before the crew ended (the execution parked)',
			);
			const crewChunks = answer.lines
				.map(({ at, line }) => ({ at, ...JSON.parse(line) }))
				.filter((c) => c.metadata?.nodeName === CREW_NODE);
			assert.equal(crewChunks[0].type, 'begin');
			assert.equal(crewChunks.at(-1).type, 'end');
			const texts = crewChunks.filter((c) => c.type === 'item').map((c) => c.content);
			assert.match(
				texts[0],
				new RegExp(`^The crew (is queued|is running) \\(kickoff ID ${run.kickoffId}\\)  \n$`),
				texts.join(''),
			);
			assert.match(
				texts.at(-1),
				/^The crew is still running \(kickoff ID [^)]+\)\. This execution now waits for the crew to call back; its result will not stream here/,
			);
			say(
				`    the stream ended ${((endedAt - run.createdAt) / 1000).toFixed(1)} s after the kickoff, the crew ${((run.completesAt - run.createdAt) / 1000).toFixed(1)} s`,
			);
			// The crew's event stream call to the resume URL: n8n resumes the execution (answered 200).
			const deadline = Date.now() + 30000;
			let callBack;
			while (!callBack && Date.now() < deadline) {
				const deliveries = await (await fetch(`${crew.url}/_reference/webhooks`)).json();
				callBack = deliveries.find(
					(d) =>
						d.kind === 'stream' && d.kickoffId === run.kickoffId && (d.status !== null || d.error),
				);
				if (!callBack) await new Promise((resolve) => setTimeout(resolve, 250));
			}
			assert.ok(callBack, 'the crew did not call back');
			assert.equal(
				callBack.status,
				200,
				`the call back got ${callBack.status} ${callBack.error || ''}`,
			);
		},
	);

	await check("no token in clear in n8n's logs", async () => {
		assertNoTokenInN8n(stack.n8n, tokens);
	});
}

module.exports = {
	name: 'streaming',
	title: 'Live progress in a streaming Webhook response',
	majors: ['1', '2'],
	seconds: 20,
	needs: { server: true },
	workflows: () => loadWorkflows(),
	run,
};
