'use strict';
// The Crew node in n8n QUEUE MODE, for real, on the run's queue stack (queue/cluster.js: Redis,
// one `n8n start` (main) and two `n8n worker` processes on one shared sqlite file, the packed
// package on every process, the reference crew service) and its published webhook workflow
// workflows/queue-webhook-kickoff-and-wait.json (Webhook "respond when last node finishes" →
// Split Out → Crew "Kickoff and Wait"). See queue/README.md.
//
//   node test/e2e/run.js --only queue [--keep]
//   CREW_E2E_WITHOUT_CANCEL_SIGNAL=1 node test/e2e/run.js --only queue   (the stop checks must fail)
//
// Checks: concurrent calls each get their own crews' results, items paired; executions run on
// the workers (both), not on main; a failed crew and a timeout give the right execution errors
// (read back through GET /rest/executions/<id>); stopping an execution from main
// (POST /rest/executions/<id>/stop) makes the worker's node stop polling the crew within about
// a second and the worker let go of the job (it leaves Bull's active list in Redis: n8n aborts
// the node's HTTP requests on a stop by itself, so a node that ignores the signal shows no more
// reads at the service but loops on, holding the worker's slot, until its own timeout); no crew
// is kicked off twice; chat with the chat guide's Data Table example, a chat's second message on
// the other worker than its first, continuing its flow session; a file uploaded to main's webhook
// reaches the crew byte for byte from the worker (n8n's binary data in its database, queue mode's
// default); every process is torn down by its own pid (by the last queue suite).
// Prints a load figure (wall time of N calls × D on the workers' slots against ceil(N / slots) × D).

const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { secs } = require('../lib/report');
const { until: waitFor, sleep } = require('../lib/until');
const { activeJobs } = require('../queue/queueStack');
const { readExecution, executionError, nodeItems } = require('../queue/executions');
const { queueCluster, releaseQueueCluster, withoutCancelSignal } = require('../queue/cluster');
const { waitForWebhook } = require('../lib/webhookReady');
const { loadExample, CREDENTIALS } = require('../lib/fixtures');
const { postAndReadLines } = require('../lib/lines');
const { assertNoToken } = require('../lib/tokens');

const CREW_NODE = 'Kickoff and Wait';
const SPLIT_NODE = 'One item per crew';
// Concurrent webhook calls in the pairing check, 2 crews each, and those crews' durations.
const CALLS = 8;
const PAIR_DURATIONS_MS = [1000, 750];
// The load figure: concurrent calls, 1 crew each, of this duration.
const LOAD_CALLS = 4;
const LOAD_DURATION_MS = 2000;
// How soon after the stop request the worker's node must have made its last status read.
const STOP_LIMIT_MS = 1500;
// How long the status-read count is watched after the stop.
const STOP_WATCH_MS = 3000;
// How soon the worker must have let go of the stopped execution's job (seen at 0.1-1.3 s here;
// without the node's cancel handling it holds it until the node's own timeout, 60 s).
const RELEASE_LIMIT_MS = 5000;

const rand = () => crypto.randomBytes(4).toString('hex');

/** POSTs one call to the published webhook; never throws for an HTTP status. */
async function callWebhook(url, body, timeoutMs = 120000) {
	const t0 = Date.now();
	try {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
			signal: AbortSignal.timeout(timeoutMs),
		});
		const text = await res.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: res.status, json, text, ms: Date.now() - t0, endedAt: Date.now() };
	} catch (err) {
		return {
			status: 0,
			error: err,
			text: String(err.message || err),
			ms: Date.now() - t0,
			endedAt: Date.now(),
		};
	}
}

/** A crew request for the workflow: one item of its `crews` list. */
function crewSpec(tag, reference) {
	return {
		tag,
		inputs: { topic: `queue ${tag} ${rand()}`, audience: 'queue-mode test' },
		reference,
	};
}

/** The service's runs whose kickoff meta carries one of these tags. */
async function runsFor(crew, tags) {
	const wanted = new Set(tags);
	return (await crew.runs()).filter((r) => r.meta && wanted.has(r.meta.tag));
}

/** Execution ids each process logged as "Worker started execution <id>". */
function startedOn(proc) {
	return [...proc.output().matchAll(/Worker started execution (\S+) \(job/g)].map((m) => m[1]);
}

const FILE_PATH = 'crewai-queue-file';
const FILE_NAME = 'q3-report.pdf';
// Big enough to take many stream chunks, small enough to cost the case no time.
const FILE_BYTES = 1024 * 1024;

/**
 * A file uploaded to a Webhook (multipart/form-data: `topic`, `tag` and the file `document`) →
 * Kickoff and Wait sending it With the Kickoff; the webhook answers with the crew's record.
 * Main takes the upload and stores the file in n8n's binary data; the worker that runs the
 * execution reads it from there, so the file crosses processes as a user's upload does.
 */
function fileWorkflow() {
	return {
		name: 'E2E queue: a file uploaded to a webhook → Kickoff and Wait',
		nodes: [
			{
				parameters: {
					httpMethod: 'POST',
					path: FILE_PATH,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '3c1f7a52-9d0e-4b8a-a6f1-7175657565ff',
			},
			{
				parameters: {
					operation: 'kickoffAndWait',
					inputsMode: 'json',
					inputsJson: '={{ JSON.stringify({ topic: $json.body.topic }) }}',
					sendFiles: 'multipart',
					files: { file: [{ fieldName: 'document', binaryPropertyName: 'document' }] },
					options: {
						meta: '={{ JSON.stringify({ reference: { durationMs: 300 }, tag: $json.body.tag, executionId: $execution.id }) }}',
						pollInterval: 0.5,
						timeout: 60,
					},
				},
				name: CREW_NODE,
				type: 'n8n-nodes-crewai.crew',
				typeVersion: 1.3,
				position: [220, 0],
				credentials: { crewApi: CREDENTIALS.organization },
			},
		],
		connections: { Webhook: { main: [[{ node: CREW_NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/**
 * A file through a worker: uploaded to main's webhook, sent to the crew by the worker that runs
 * the execution, byte for byte. n8n 2.x keeps binary data in its database in queue mode (its
 * default there, N8N_DEFAULT_BINARY_DATA_MODE=database; the queue stack sets nothing), which
 * every process reads; each process here has a user folder of its own, so a file kept on one
 * process's disk would not reach another.
 */
async function fileThroughAWorker(t, { cluster, workerProcs, mainProc, expectedKickoffs }) {
	const { rest, decode, crew } = cluster;
	const t0 = Date.now();
	let address;
	const ready = await t.check(
		'a workflow taking a file upload at its Webhook → Kickoff and Wait with Files, published on main',
		async () => {
			const saved = await rest.post('workflows', fileWorkflow());
			await rest.post(`workflows/${saved.id}/activate`, { versionId: saved.versionId });
			await waitForWebhook(cluster.baseUrl, FILE_PATH, 'POST', mainProc);
			address = `${cluster.baseUrl}/webhook/${FILE_PATH}`;
		},
	);
	if (!ready) return;
	await t.check(
		`a file uploaded to main's webhook reaches the crew byte for byte (sha256, name, type) from the worker that ran the execution, n8n's binary data in its database`,
		async () => {
			const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), crypto.randomBytes(FILE_BYTES)]);
			const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
			const tag = `file-${rand()}`;
			const topic = `queue file ${rand()}`;
			expectedKickoffs.push(topic);
			const form = new FormData();
			form.append('topic', topic);
			form.append('tag', tag);
			form.append('document', new Blob([bytes], { type: 'application/pdf' }), FILE_NAME);
			const res = await fetch(address, {
				method: 'POST',
				body: form,
				signal: AbortSignal.timeout(120000),
			});
			const text = await res.text();
			assert.equal(res.status, 200, text.slice(0, 500));
			assertNoToken(
				text,
				{ organization: crew.tokens.organization, user: crew.tokens.user },
				"the webhook's answer",
			);
			const [run, ...more] = await runsFor(crew, [tag]);
			assert.ok(run, 'the service got no kickoff');
			assert.equal(more.length, 0, 'more than one kickoff');
			assert.deepEqual(
				(run.files || []).map((f) => ({
					field: f.field,
					name: f.name,
					type: f.type,
					size: f.size,
					sha256: f.sha256,
					via: f.via,
				})),
				[
					{
						field: 'document',
						name: FILE_NAME,
						type: 'application/pdf',
						size: bytes.length,
						sha256,
						via: 'multipart',
					},
				],
			);
			const answer = JSON.parse(text);
			assert.equal(answer.state, 'completed', text.slice(0, 500));
			assert.equal(answer.kickoff_id, run.kickoffId);
			assert.ok(
				String(answer.result).includes(sha256),
				`the crew's result names no file: ${String(answer.result).slice(0, 500)}`,
			);

			const executionId = String(run.meta.executionId);
			const on = workerProcs
				.map((p, w) => (startedOn(p).includes(executionId) ? w + 1 : 0))
				.filter(Boolean);
			assert.equal(
				on.length,
				1,
				`execution ${executionId} started on ${on.length ? 'workers ' + on.join(', ') : 'no worker'}`,
			);
			assert.match(
				mainProc.output(),
				new RegExp(`Enqueued execution ${executionId} \\(job`),
				`main did not enqueue execution ${executionId}`,
			);
			assert.doesNotMatch(
				mainProc.output(),
				/Worker started execution/,
				'main ran an execution itself',
			);
			const e = await readExecution(rest, decode, executionId);
			const [upload] = nodeItems(e, 'Webhook');
			const stored = upload.binary && upload.binary.document;
			assert.ok(
				stored,
				`the Webhook's item has no binary "document": ${JSON.stringify(upload).slice(0, 300)}`,
			);
			// The id names the store the worker read the file from.
			assert.match(String(stored.id), /^database:/, `binary data id ${stored.id}`);
			const out = nodeItems(e, CREW_NODE);
			assert.equal(out.length, 1);
			assert.deepEqual(
				[out[0].pairedItem].flat().map((p) => (typeof p === 'number' ? p : p.item)),
				[0],
			);
			t.say(
				`    ${bytes.length} bytes uploaded to main, sent by worker-${on[0]} (execution ${executionId}), binary data ${String(stored.id).split(':')[0]}; ${secs(Date.now() - t0)} with publishing`,
			);
		},
	);
}

const CHAT_EXAMPLE = 'chat-keeping-flow-sessions-in-a-data-table.json';
const CHAT_NODE = 'Send Message to the Flow';
// A person's pause between two messages of one chat.
const PERSON_PAUSE_MS = 3000;
const replyTo = (n, message) =>
	`Reply ${n} to "${message}": this session has ${n} message${n === 1 ? '' : 's'} from you.`;

/** The text the Crew node streamed in a chat answer, and its chunks. */
function chatChunks(answer) {
	const chunks = answer.lines
		.map(({ at, line }) => {
			try {
				return { at, ...JSON.parse(line) };
			} catch {
				return { at, type: 'unparsed', content: line };
			}
		})
		.filter((c) => c.metadata && c.metadata.nodeName === CHAT_NODE);
	return {
		chunks,
		told: chunks
			.filter((c) => c.type === 'item')
			.map((c) => c.content)
			.join(''),
	};
}

/**
 * Chat in queue mode, where a worker never reads the workflow's static data back for a new
 * execution: the example keeps each chat session's flow session in a Data Table. Each worker's
 * one slot is taken by a "blocker" (a crew that never ends, stopped from main later), so that
 * the second message of a chat provably runs on the other worker than the first.
 */
async function chatInQueueMode(t, { cluster, call, execIdOf, workerProcs, figures }) {
	const { rest, crew } = cluster;
	const t0 = Date.now();
	const admin = async (method, route, body) => {
		const res = await fetch(`${crew.url}/_reference/${route}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return await res.json();
	};
	const sessions = () => admin('GET', 'chat/sessions');
	const workerOf = (executionId) =>
		workerProcs.findIndex((p) => startedOn(p).includes(executionId));
	const startedSince = (before) =>
		workerProcs.map((p, w) => startedOn(p).filter((id) => !before[w].includes(id)));
	const snapshot = () => workerProcs.map(startedOn);
	const blockers = [];
	const block = async (tag) => {
		const fullTag = `${tag}-${rand()}`;
		const pending = call(
			[crewSpec(fullTag, { outcome: 'never' })],
			{ pollInterval: 1, timeout: 120 },
			150000,
		);
		const { executionId } = await execIdOf(fullTag);
		await waitFor(
			`blocker ${executionId} started on a worker`,
			async () => workerOf(executionId) >= 0,
			30000,
			100,
		);
		const blocker = { executionId, worker: workerOf(executionId), pending };
		blockers.push(blocker);
		return blocker;
	};
	const unblock = async (blocker) => {
		await rest.post(`executions/${blocker.executionId}/stop`);
		await Promise.race([blocker.pending, sleep(15000)]);
		blocker.stopped = true;
	};
	let chat;
	const ready = await t.check(
		`the chat guide's Data Table example (${CHAT_EXAMPLE}) published on main, its Data Table created over REST`,
		async () => {
			await crew.configure({ chat: {} });
			const project = await rest.get('projects/personal');
			const table = await rest.post(`projects/${project.id}/data-tables`, {
				name: `Chat flow sessions ${rand()}`,
				columns: [
					{ name: 'chat_session_id', type: 'string' },
					{ name: 'flow_session_id', type: 'string' },
				],
			});
			const example = loadExample(CHAT_EXAMPLE, {
				text: { REPLACE_WITH_YOUR_DATA_TABLE_ID: table.id },
				credentials: { crewApi: CREDENTIALS.organization },
			});
			const saved = await rest.post('workflows', { ...example, id: undefined, active: false });
			await rest.post(`workflows/${saved.id}/activate`, { versionId: saved.versionId });
			const trigger = example.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger');
			await waitForWebhook(
				cluster.baseUrl,
				`${trigger.webhookId}/chat`,
				'POST',
				cluster.main.server.proc,
			);
			chat = { address: `${cluster.baseUrl}/webhook/${trigger.webhookId}/chat`, project, table };
		},
	);
	if (!ready) return;
	const send = (sessionId, chatInput, onLine) =>
		postAndReadLines(chat.address, { action: 'sendMessage', sessionId, chatInput }, { onLine });
	const chatA = `queue-chat-A-${rand()}`;
	const chatB = `queue-chat-B-${rand()}`;
	const ran = {};
	try {
		await t.check(
			"chat A, first message (the other worker busy): the reply streams to the person while the flow's turn runs",
			async () => {
				const first = await block('chat-blocker-1');
				await crew.configure({ chat: { hold: true } });
				const before = snapshot();
				let released = false;
				const seen = [];
				const answer = await send(chatA, 'Hello from A', async (line, lines) => {
					const chunk = JSON.parse(line);
					if (chunk.type !== 'item' || chunk.metadata?.nodeName !== CHAT_NODE) return;
					const mine = (await sessions()).find((s) =>
						s.messages.some((m) => m.content === 'Hello from A'),
					);
					seen.push({
						content: chunk.content,
						turnActive: Boolean(mine && mine.activeKickoffId !== null),
					});
					// The turn ends only once the person has the whole text.
					if (!released && chatChunks({ lines }).told === replyTo(1, 'Hello from A')) {
						released = true;
						await admin('POST', 'chat/release', {});
					}
				});
				await crew.configure({ chat: {} });
				assert.equal(answer.status, 200, answer.text.slice(0, 300));
				assertNoToken(
					answer.text,
					{ organization: cluster.crew.tokens.organization, user: cluster.crew.tokens.user },
					'the streamed chat answer',
				);
				assert.equal(
					chatChunks(answer).told,
					replyTo(1, 'Hello from A'),
					answer.text.slice(0, 500),
				);
				assert.ok(seen.length >= 5, `only ${seen.length} text chunks`);
				assert.ok(
					seen.every((c) => c.turnActive),
					"every text chunk arrived while the flow's turn was still running",
				);
				const started = startedSince(before);
				assert.deepEqual(
					started[first.worker],
					[],
					`worker-${first.worker + 1} held the blocker, yet ran ${started[first.worker].join(', ')}`,
				);
				assert.equal(
					started.flat().length,
					1,
					`executions started meanwhile: ${JSON.stringify(started)}`,
				);
				ran.a1 = {
					worker: started.findIndex((ids) => ids.length === 1),
					executionId: started.flat()[0],
				};
				const [session] = (await sessions()).filter((s) =>
					s.messages.some((m) => m.content === 'Hello from A'),
				);
				ran.flowSessionA = session.id;
				t.say(
					`    ${seen.length} text chunks while the turn ran; execution ${ran.a1.executionId} on worker-${ran.a1.worker + 1} (blocker on worker-${first.worker + 1}); flow session ${session.id}`,
				);
			},
		);

		await t.check(
			`chat A, second message after a person's pause (${PERSON_PAUSE_MS / 1000} s), run on the OTHER worker: the same flow session answers, and its turn sees the first`,
			async () => {
				assert.ok(ran.a1, 'no first message');
				const pauseFrom = Date.now();
				// The first message's worker gets the next blocker; the first blocker's worker is then freed.
				const second = await block('chat-blocker-2');
				assert.equal(
					second.worker,
					ran.a1.worker,
					`the second blocker ran on worker-${second.worker + 1}`,
				);
				await unblock(blockers[0]);
				await sleep(Math.max(0, PERSON_PAUSE_MS - (Date.now() - pauseFrom)));
				const before = snapshot();
				const answer = await send(chatA, 'Again from A');
				assert.equal(answer.status, 200, answer.text.slice(0, 300));
				const { told, chunks } = chatChunks(answer);
				if (told !== replyTo(2, 'Again from A')) {
					const ids = startedSince(before).flat();
					const runs = [];
					for (const id of ids) {
						const e = await readExecution(rest, cluster.decode, id).catch((err) => ({
							err: String(err),
						}));
						runs.push({
							id,
							status: e.status,
							error: e.data ? executionError(e) : e.err,
							runData: e.data
								? Object.fromEntries(
										Object.entries(e.data.resultData.runData).map(([k, v]) => [
											k,
											v[0].error ? v[0].error.message : JSON.stringify(v[0].data).slice(0, 400),
										]),
									)
								: null,
						});
					}
					t.say(
						`    what ran, and the flow sessions: ${JSON.stringify({ runs, sessions: await sessions() }).slice(0, 4000)}`,
					);
				}
				assert.equal(told, replyTo(2, 'Again from A'), answer.text.slice(0, 500));
				assert.ok(
					chunks.filter((c) => c.type === 'item').length >= 5,
					'the reply streamed in pieces',
				);
				const started = startedSince(before);
				assert.equal(
					started.flat().length,
					1,
					`executions started meanwhile: ${JSON.stringify(started)}`,
				);
				const worker = started.findIndex((ids) => ids.length === 1);
				assert.notEqual(worker, ran.a1.worker, `both messages ran on worker-${worker + 1}`);
				const mine = (await sessions()).filter((s) =>
					s.messages.some(
						(m) => m.content.startsWith('Hello from A') || m.content.startsWith('Again from A'),
					),
				);
				assert.equal(mine.length, 1, `chat A's messages are in ${mine.length} flow sessions`);
				assert.equal(mine[0].id, ran.flowSessionA);
				assert.deepEqual(
					mine[0].messages.filter((m) => m.role === 'user').map((m) => m.content),
					['Hello from A', 'Again from A'],
				);
				t.say(
					`    execution ${started.flat()[0]} on worker-${worker + 1} (the first on worker-${ran.a1.worker + 1}), ${secs(Date.now() - pauseFrom)} after the first reply: flow session ${mine[0].id}`,
				);
			},
		);

		await t.check(
			"chat B, a second chat session: its own flow session; chat A's row in the Data Table names chat A's flow session",
			async () => {
				const answer = await send(chatB, 'Hello from B');
				assert.equal(answer.status, 200, answer.text.slice(0, 300));
				assert.equal(
					chatChunks(answer).told,
					replyTo(1, 'Hello from B'),
					answer.text.slice(0, 500),
				);
				const all = await sessions();
				const b = all.filter((s) => s.messages.some((m) => m.content === 'Hello from B'));
				assert.equal(b.length, 1);
				assert.notEqual(b[0].id, ran.flowSessionA);
				const rows = await rest.get(
					`projects/${chat.project.id}/data-tables/${chat.table.id}/rows?take=50`,
				);
				const list = Array.isArray(rows) ? rows : rows.data || rows.rows || [];
				const kept = Object.fromEntries(list.map((r) => [r.chat_session_id, r.flow_session_id]));
				assert.deepEqual(
					kept,
					{ [chatA]: ran.flowSessionA, [chatB]: b[0].id },
					JSON.stringify(rows).slice(0, 500),
				);
			},
		);
	} finally {
		for (const blocker of blockers) if (!blocker.stopped) await unblock(blocker).catch(() => {});
		await crew.configure({ chat: {} }).catch(() => {});
		figures.chat = { ms: Date.now() - t0 };
		t.say(`  chat in queue mode: ${secs(Date.now() - t0)}`);
	}
}

async function run(t) {
	const cluster = await queueCluster(t);
	if (!cluster) return;
	const { rest, decode, crew } = cluster;
	const webhookUrl = cluster.webhookUrl('polling');
	const workerProcs = cluster.workers.map((w) => w.server.proc);
	const mainProc = cluster.main.server.proc;
	const figures = {};
	const expectedKickoffs = []; // topics the workflow was asked to kick off, one entry per crew
	const call = (crews, extra = {}, timeoutMs) => {
		for (const c of crews) expectedKickoffs.push(c.inputs.topic);
		return callWebhook(webhookUrl, { crews, pollInterval: 0.5, timeout: 60, ...extra }, timeoutMs);
	};
	const execIdOf = async (tag) => {
		const [run] = await waitFor(
			`the crew tagged ${tag} kicked off`,
			async () => {
				const r = await runsFor(crew, [tag]);
				return r.length ? r : null;
			},
			30000,
			100,
		);
		return { run, executionId: String(run.meta.executionId) };
	};
	// The service's earlier runs (another queue suite's) are not this suite's to count.
	const runsBefore = (await crew.runs()).length;
	const kickoffsBefore = (await crew.requests()).filter(
		(r) => r.route === 'kickoff' && r.method === 'POST',
	).length;

	// 1. Concurrent calls, 2 crews each: every call gets its own crews back, in item order.
	let concurrentIds = [];
	await t.check(
		`${CALLS} concurrent webhook calls (2 crews each) each get their own crews' results, in item order`,
		async () => {
			const specs = Array.from({ length: CALLS }, (_, i) => [
				crewSpec(`pair-${i}-0`, { durationMs: PAIR_DURATIONS_MS[0] }),
				crewSpec(`pair-${i}-1`, { durationMs: PAIR_DURATIONS_MS[1] }),
			]);
			const t0 = Date.now();
			const answers = await Promise.all(specs.map((crews) => call(crews)));
			t.say(`  ${CALLS} calls answered in ${secs(Date.now() - t0)}`);
			const runs = await runsFor(
				crew,
				specs.flat().map((s) => s.tag),
			);
			const byTopic = new Map(runs.map((r) => [r.inputs.topic, r]));
			answers.forEach((a, i) => {
				assert.equal(a.status, 200, `call ${i}: HTTP ${a.status} ${a.text.slice(0, 300)}`);
				assert.ok(
					Array.isArray(a.json) && a.json.length === 2,
					`call ${i}: expected 2 items, got ${a.text.slice(0, 300)}`,
				);
				specs[i].forEach((spec, j) => {
					const item = a.json[j];
					const run = byTopic.get(spec.inputs.topic);
					assert.ok(run, `call ${i} item ${j}: the service never saw topic "${spec.inputs.topic}"`);
					assert.equal(item.state, 'completed', `call ${i} item ${j}: state`);
					assert.equal(
						item.kickoff_id,
						run.kickoffId,
						`call ${i} item ${j}: another crew's kickoff id`,
					);
					assert.ok(
						String(item.result).includes(spec.inputs.topic),
						`call ${i} item ${j}: another crew's result: "${item.result}"`,
					);
				});
			});
			concurrentIds = [...new Set(runs.map((r) => String(r.meta.executionId)))];
			assert.equal(
				concurrentIds.length,
				CALLS,
				`one execution per call (got ${concurrentIds.length} execution ids)`,
			);
		},
	);

	await t.check(
		'the stored executions keep every output item paired with its input item (GET /rest/executions/<id>)',
		async () => {
			assert.ok(concurrentIds.length, 'no executions from the previous check');
			const kickoffByTopic = new Map((await crew.runs()).map((r) => [r.inputs.topic, r.kickoffId]));
			for (const id of concurrentIds) {
				const e = await readExecution(rest, decode, id);
				assert.equal(e.status, 'success', `execution ${id}: status ${e.status}`);
				assert.equal(e.mode, 'webhook', `execution ${id}: mode`);
				const inputs = nodeItems(e, SPLIT_NODE);
				const outputs = nodeItems(e, CREW_NODE);
				assert.equal(
					outputs.length,
					inputs.length,
					`execution ${id}: ${outputs.length} items out for ${inputs.length} in`,
				);
				outputs.forEach((item, j) => {
					const paired = Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem];
					assert.deepEqual(
						paired.map((p) => (typeof p === 'number' ? p : p.item)),
						[j],
						`execution ${id} item ${j}: pairedItem ${JSON.stringify(item.pairedItem)}`,
					);
					const topic = inputs[j].json.inputs.topic;
					assert.ok(
						String(item.json.result).includes(topic),
						`execution ${id} item ${j}: "${item.json.result}" is not the result of its input (${topic})`,
					);
					assert.equal(
						item.json.kickoff_id,
						kickoffByTopic.get(topic),
						`execution ${id} item ${j}: another crew's kickoff id`,
					);
				});
			}
		},
	);

	await t.check(
		`the executions ran on the workers, on all ${cluster.WORKERS} of them, and none on main`,
		async () => {
			assert.ok(concurrentIds.length, 'no executions to look for');
			const perWorker = workerProcs.map(startedOn);
			const mainText = mainProc.output();
			for (const id of concurrentIds) {
				const on = perWorker.map((ids, w) => (ids.includes(id) ? w + 1 : 0)).filter(Boolean);
				assert.equal(
					on.length,
					1,
					`execution ${id} started on ${on.length ? 'workers ' + on.join(', ') : 'no worker'}`,
				);
				assert.match(
					mainText,
					new RegExp(`Enqueued execution ${id} \\(job`),
					`main did not enqueue execution ${id}`,
				);
			}
			assert.doesNotMatch(mainText, /Worker started execution/, 'main ran an execution itself');
			const counts = perWorker.map((ids) => ids.filter((id) => concurrentIds.includes(id)).length);
			t.say(
				`  "Worker started execution" per worker: ${counts.map((c, w) => `worker-${w + 1} ${c}`).join(', ')}`,
			);
			counts.forEach((c, w) =>
				assert.ok(c > 0, `worker-${w + 1} ran none of the ${concurrentIds.length} executions`),
			);
		},
	);

	// 2. Failures, read back through REST.
	await t.check(
		"a failed crew fails the execution with the crew's reason and kickoff ID (read through REST)",
		async () => {
			const reason = `queue failure ${rand()}`;
			const answer = await call(
				[crewSpec('fail', { outcome: 'failure', durationMs: 300, error: reason })],
				{ pollInterval: 0.2, timeout: 30 },
			);
			assert.notEqual(answer.status, 200, `the webhook answered 200: ${answer.text.slice(0, 300)}`);
			const { run, executionId } = await execIdOf('fail');
			const e = await readExecution(rest, decode, executionId);
			assert.equal(e.status, 'error', `execution ${executionId}: status`);
			const err = executionError(e);
			assert.ok(err, `execution ${executionId} has no error`);
			assert.equal(e.data.resultData.lastNodeExecuted, CREW_NODE);
			assert.ok(
				err.message.includes(`The crew failed (kickoff ID ${run.kickoffId}): ${reason}`),
				`error message: ${err.message}`,
			);
			t.say(`  execution ${executionId} (webhook answered ${answer.status}): ${err.message}`);
		},
	);

	await t.check(
		'a crew past the timeout fails the execution with the timeout error and kickoff ID (read through REST)',
		async () => {
			const answer = await call([crewSpec('timeout', { outcome: 'never' })], {
				pollInterval: 0.5,
				timeout: 2,
			});
			assert.notEqual(answer.status, 200, `the webhook answered 200: ${answer.text.slice(0, 300)}`);
			const { run, executionId } = await execIdOf('timeout');
			const e = await readExecution(rest, decode, executionId);
			assert.equal(e.status, 'error', `execution ${executionId}: status`);
			const err = executionError(e);
			assert.ok(err, `execution ${executionId} has no error`);
			assert.ok(
				err.message.includes(`did not finish within 2 seconds (kickoff ID ${run.kickoffId})`),
				`error message: ${err.message}`,
			);
			assert.match(err.description, /not stopped|Get Status/, `description: ${err.description}`);
			t.say(`  execution ${executionId}: ${err.message}`);
		},
	);

	// 3. Stop from main: the worker's node stops polling.
	let stopped;
	await t.check(
		`stopping the execution from main (POST /rest/executions/<id>/stop): the worker's node stops waiting and polling within ${STOP_LIMIT_MS / 1000} s, the worker lets go of the job`,
		async () => {
			const pending = call(
				[crewSpec('stop', { outcome: 'never' })],
				{ pollInterval: 0.2, timeout: 60 },
				90000,
			);
			const { run, executionId } = await execIdOf('stop');
			// When the service received each status read of this crew (its clock is this machine's).
			const readTimes = async () =>
				(await crew.requests())
					.filter((r) => r.route === 'status' && r.kickoffId === run.kickoffId)
					.map((r) => r.at);
			await waitFor(
				'3 status reads of the crew',
				async () => (await readTimes()).length >= 3,
				30000,
				100,
			);
			const a = (await readTimes()).length;
			await sleep(1000);
			const b = (await readTimes()).length;
			assert.ok(
				b > a,
				`the node was not polling before the stop (${a} → ${b} status reads in 1 s)`,
			);
			// The execution's Bull job, in Redis's list of jobs a worker is running.
			const [, jobId] =
				mainProc.output().match(new RegExp(`Enqueued execution ${executionId} \\(job (\\S+)\\)`)) ||
				[];
			assert.ok(jobId, `main did not log "Enqueued execution ${executionId} (job ...)"`);
			assert.ok(
				(await activeJobs(cluster.redis.port)).includes(jobId),
				`job ${jobId} is not among the active jobs before the stop`,
			);

			const stopAt = Date.now();
			await rest.post(`executions/${executionId}/stop`);
			const stopAnsweredMs = Date.now() - stopAt;
			const answered = pending.then((answer) => ({ answer, afterStopMs: answer.endedAt - stopAt }));
			// The node's own word that it stopped waiting: its item error, which the worker logs.
			const stoppedLine = `The execution was stopped while waiting for the crew (kickoff ID ${run.kickoffId})`;
			let releasedMs = null;
			let nodeStoppedMs = null;
			for (;;) {
				const elapsed = Date.now() - stopAt;
				if (nodeStoppedMs === null && workerProcs.some((p) => p.output().includes(stoppedLine)))
					nodeStoppedMs = elapsed;
				if (releasedMs === null && !(await activeJobs(cluster.redis.port)).includes(jobId))
					releasedMs = elapsed;
				if (elapsed >= STOP_WATCH_MS && (releasedMs !== null || elapsed >= RELEASE_LIMIT_MS)) break;
				await sleep(25);
			}
			const times = await readTimes();
			const after = times.filter((t) => t > stopAt);
			const lastBeforeMs = stopAt - Math.max(...times.filter((t) => t <= stopAt));
			const lastAfterMs = after.length ? Math.max(...after) - stopAt : null;
			const watchedMs = Date.now() - stopAt;
			stopped = { executionId, answered };
			figures.stop = {
				rate: b - a,
				after: after.length,
				lastAfterMs,
				lastBeforeMs,
				stopAnsweredMs,
				releasedMs,
				nodeStoppedMs,
				watchedMs,
			};
			t.say(
				`    before the stop: ${b - a} status reads/s (poll interval 0.2 s), the last ${lastBeforeMs} ms before the stop request ` +
					`(answered in ${stopAnsweredMs} ms). Watched ${secs(watchedMs)} after it: ${after.length} status read(s)` +
					`${after.length ? ` (the last ${lastAfterMs} ms after the stop)` : ''}; the node reported the stop ` +
					`${nodeStoppedMs === null ? 'NEVER' : `${nodeStoppedMs} ms after it`}; the worker let go of job ${jobId} ` +
					`${releasedMs === null ? 'NEVER' : `${releasedMs} ms after it`}`,
			);
			assert.ok(
				lastAfterMs === null || lastAfterMs <= STOP_LIMIT_MS,
				`the worker kept polling the crew after the stop: ${after.length} status reads, the last ${lastAfterMs} ms after it`,
			);
			// n8n itself aborts the node's HTTP requests on a stop, so the service sees no more reads
			// even from a node that ignores the signal; such a node loops on (holding the worker's
			// slot) until its own timeout. Its own stop error, and the job leaving Bull's active
			// list, show that it really stopped waiting.
			assert.ok(
				nodeStoppedMs !== null && nodeStoppedMs <= STOP_LIMIT_MS,
				`the node did not report the stop within ${STOP_LIMIT_MS} ms (no "${stoppedLine}" from a worker ${nodeStoppedMs === null ? `in ${watchedMs} ms` : `until ${nodeStoppedMs} ms`}): it did not stop waiting`,
			);
			assert.ok(
				releasedMs !== null && releasedMs <= RELEASE_LIMIT_MS,
				`the worker still ran execution ${executionId} (job ${jobId}) ${releasedMs === null ? watchedMs : releasedMs} ms after the stop`,
			);
		},
	);

	await t.check('the stopped execution ends as canceled and its webhook call returns', async () => {
		assert.ok(stopped, 'no stopped execution from the previous check');
		const ended = await Promise.race([stopped.answered, sleep(10000).then(() => null)]);
		assert.ok(
			ended,
			`the webhook call had not returned ${STOP_WATCH_MS / 1000 + 10} s after the stop`,
		);
		figures.stop.webhookMs = ended.afterStopMs;
		const e = await readExecution(rest, decode, stopped.executionId, { timeoutMs: 10000 });
		assert.equal(e.status, 'canceled', `execution ${stopped.executionId}: status ${e.status}`);
		t.say(
			`  the webhook call returned ${ended.afterStopMs} ms after the stop: ${ended.answer.status} ${ended.answer.text.slice(0, 100)}`,
		);
	});

	// 3b. Stop from main with Stop Crews When the Execution Is Stopped: the worker's node stops the crews.
	await t.check(
		"stopping an execution waiting on 3 crews from main: the worker's node stops all 3 crews, exactly one stop each",
		async () => {
			const tags = ['cancel-0', 'cancel-1', 'cancel-2'].map((tag) => `${tag}-${rand()}`);
			const pending = call(
				tags.map((tag) => crewSpec(tag, { outcome: 'never' })),
				{ pollInterval: 60, timeout: 120, stopCrewsOnCancel: true },
				90000,
			);
			const runs = await waitFor(
				'the 3 crews kicked off',
				async () => {
					const r = await runsFor(crew, tags);
					return r.length === 3 ? r : null;
				},
				30000,
				100,
			);
			const ids = runs.map((r) => r.kickoffId);
			const answered = () =>
				crew
					.requests()
					.then(
						(rs) =>
							rs.filter(
								(r) => r.route === 'kickoff' && r.status === 200 && ids.includes(r.kickoffId),
							).length,
					);
			await waitFor('the 3 kickoffs answered', async () => (await answered()) === 3, 30000, 100);
			const executionId = String(runs[0].meta.executionId);
			const stopsOf = async () =>
				(await crew.requests()).filter((r) => r.route === 'stop' && ids.includes(r.kickoffId));
			const stopAt = Date.now();
			await rest.post(`executions/${executionId}/stop`);
			await waitFor('3 stops at the service', async () => (await stopsOf()).length >= 3, 30000, 50);
			const allStopsMs = Date.now() - stopAt;
			await Promise.race([pending, sleep(15000)]);
			const e = await readExecution(rest, decode, executionId, { timeoutMs: 10000 });
			// Read after the execution settled: no stop twice, none late.
			const stops = await stopsOf();
			assert.deepEqual(
				stops.map((r) => r.kickoffId).sort(),
				[...ids].sort(),
				`stops: ${JSON.stringify(stops.map((r) => r.kickoffId))}`,
			);
			const states = (await runsFor(crew, tags)).map((r) => r.state);
			assert.deepEqual(states, ['revoked', 'revoked', 'revoked']);
			assert.equal(e.status, 'canceled', `execution ${executionId}: status ${e.status}`);
			const stoppedBy = workerProcs.filter((p) =>
				p.output().includes(`(kickoff ID ${ids[0]}); the crew was stopped too`),
			).length;
			t.say(
				`    all 3 stops at the service ${allStopsMs} ms after POST /rest/executions/${executionId}/stop; the node's word from ${stoppedBy} worker(s)`,
			);
		},
	);

	// 4. The load figure: N calls × D on W workers × C.
	await t.check(
		`load: ${LOAD_CALLS} concurrent webhook calls × ${LOAD_DURATION_MS / 1000} s crews all complete`,
		async () => {
			const specs = Array.from({ length: LOAD_CALLS }, (_, i) =>
				crewSpec(`load-${i}`, { durationMs: LOAD_DURATION_MS }),
			);
			const doneBefore = workerProcs.map((p) => startedOn(p).length);
			const t0 = Date.now();
			const answers = await Promise.all(
				specs.map((s) => call([s], { pollInterval: 0.5, timeout: 120 })),
			);
			const wallMs = Math.max(...answers.map((a) => a.endedAt)) - t0;
			answers.forEach((a, i) => {
				assert.equal(a.status, 200, `call ${i}: HTTP ${a.status} ${a.text.slice(0, 200)}`);
				assert.ok(
					String(a.json[0].result).includes(specs[i].inputs.topic),
					`call ${i}: another crew's result: "${a.json[0].result}"`,
				);
			});
			const slots = cluster.WORKERS * cluster.CONCURRENCY;
			const idealMs = Math.ceil(LOAD_CALLS / slots) * LOAD_DURATION_MS;
			const perWorker = workerProcs.map((p, w) => startedOn(p).length - doneBefore[w]);
			const sorted = answers.map((a) => a.ms).sort((x, y) => x - y);
			figures.load = {
				wallMs,
				idealMs,
				perWorker,
				slots,
				min: sorted[0],
				max: sorted[sorted.length - 1],
			};
			t.say(
				`    LOAD: ${LOAD_CALLS} calls × ${secs(LOAD_DURATION_MS)} crews on ${cluster.WORKERS} workers × concurrency ${cluster.CONCURRENCY} ` +
					`(${slots} slots): wall ${secs(wallMs)}, ideal ceil(${LOAD_CALLS}/${slots}) × ${secs(LOAD_DURATION_MS)} = ${secs(idealMs)}, ` +
					`ratio ${(wallMs / idealMs).toFixed(2)}; per-call ${secs(sorted[0])} to ${secs(sorted[sorted.length - 1])}; ` +
					`executions per worker ${perWorker.map((c, w) => `worker-${w + 1} ${c}`).join(', ')}`,
			);
		},
	);

	// 5. Chat in queue mode: the chat guide's Data Table example, its messages on chosen workers.
	await chatInQueueMode(t, { cluster, call, execIdOf, workerProcs, figures });

	// 6. A file through a worker: uploaded to main, sent by a worker.
	await fileThroughAWorker(t, { cluster, workerProcs, mainProc, expectedKickoffs });

	await t.check(
		'no crew was kicked off twice: one POST /kickoff and one run per crew asked for',
		async () => {
			const kickoffs = (await crew.requests())
				.filter((r) => r.route === 'kickoff' && r.method === 'POST')
				.slice(kickoffsBefore);
			const runs = (await crew.runs()).slice(runsBefore);
			const counts = new Map();
			for (const r of runs) counts.set(r.inputs.topic, (counts.get(r.inputs.topic) || 0) + 1);
			const twice = [...counts].filter(([, n]) => n > 1).map(([t, n]) => `${t} ×${n}`);
			const never = expectedKickoffs.filter((t) => !counts.has(t));
			assert.deepEqual(twice, [], 'crews started more than once');
			assert.deepEqual(never, [], 'crews never started');
			assert.equal(
				kickoffs.length,
				expectedKickoffs.length,
				`${kickoffs.length} kickoff requests for ${expectedKickoffs.length} crews`,
			);
			assert.equal(
				runs.length,
				expectedKickoffs.length,
				`${runs.length} runs for ${expectedKickoffs.length} crews`,
			);
			t.say(
				`  ${expectedKickoffs.length} crews asked for, ${kickoffs.length} kickoff requests, ${runs.length} runs`,
			);
		},
	);

	if (figures.stop || figures.load) {
		t.say('# figures');
		if (figures.stop) {
			const s = figures.stop;
			const ms = (v) =>
				v === null || v === undefined ? `never (watched ${s.watchedMs} ms)` : `${v} ms`;
			t.say(
				`#   stop: node stopped waiting ${ms(s.nodeStoppedMs)} after POST /rest/executions/<id>/stop; ` +
					`${s.after} status read(s) after it${s.after ? ` (the last ${s.lastAfterMs} ms after it)` : ''}, ${s.rate} reads/s before; ` +
					`worker let go of the job ${ms(s.releasedMs)}; webhook call returned ${s.webhookMs === undefined ? 'not within 10 s' : s.webhookMs + ' ms'}`,
			);
		}
		if (figures.load) {
			const l = figures.load;
			t.say(
				`#   load: ${LOAD_CALLS} × ${secs(LOAD_DURATION_MS)} on ${cluster.WORKERS}×${cluster.CONCURRENCY} slots: ${secs(l.wallMs)} (ideal ${secs(l.idealMs)}, ×${(l.wallMs / l.idealMs).toFixed(2)})`,
			);
		}
	}
	if (withoutCancelSignal())
		t.say('WITHOUT the cancel signal: the stop checks are expected to fail');
}

module.exports = {
	name: 'queue',
	title: 'Queue mode: Kickoff and Wait on n8n workers, a stop from main',
	majors: ['2'],
	// The queue stack's lane, beside the majors' lanes: its time limits hold under their load (a stop within 1.5 s was seen at 50 ms).
	alone: true,
	async run(t) {
		try {
			await run(t);
		} finally {
			await releaseQueueCluster(t, 'queue');
		}
	},
};
