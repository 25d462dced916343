#!/usr/bin/env node
'use strict';
// The Crew node in n8n QUEUE MODE, for real: Redis, one `n8n start` (main) and two
// `n8n worker` processes on one shared sqlite file, the packed package installed on main and
// on every worker, the reference crew service, and a published webhook workflow
// (Webhook "respond when last node finishes" → Split Out → Crew "Kickoff and Wait").
//
//   node test/e2e/queue/run.js [--workers 2] [--concurrency 3] [--calls 8]
//                              [--load-calls 12] [--load-duration 3000] [--keep]
//                              [--without-cancel-signal]
//
//   --workers N            `n8n worker` processes (default 2)
//   --concurrency C        each worker's --concurrency (default 3)
//   --calls N              concurrent webhook calls in the pairing check, 2 crews each (default 8)
//   --load-calls N         concurrent webhook calls in the load figure, 1 crew each (default 12)
//   --load-duration MS     each load crew's duration (default 3000)
//   --keep                 keep the temporary folder (user folders, one log per process)
//   --without-cancel-signal  install a pack of a patched COPY of dist/ whose Crew node never
//                          gets the execution's cancel signal: the stop check must then fail
//
// Checks: concurrent calls each get their own crews' results, items paired; executions run on
// the workers (both), not on main; a failed crew and a timeout give the right execution errors
// (read back through GET /rest/executions/<id>); stopping an execution from main
// (POST /rest/executions/<id>/stop) makes the worker's node stop polling the crew within about
// a second and the worker let go of the job (it leaves Bull's active list in Redis: n8n aborts
// the node's HTTP requests on a stop by itself, so a node that ignores the signal shows no more
// reads at the service but loops on, holding the worker's slot, until its own timeout); no crew
// is kicked off twice; every process is torn down by its own pid. Prints a
// load figure (wall time of N calls × D on W workers × C against ceil(N / (W·C)) × D), and
// ends with "N passed, N failed"; exits 1 when anything failed.
//
// Expects dist/ to be built (`npm run build`). n8n 2.41.1 comes from the harness's cache
// (`node test/e2e/lib/install.js 2` installs it ahead of time); redis-server from Debian is
// installed when missing (apt-get, as root).

const { printHeaderAndExit, tearDown, runMain } = require('../lib/cli');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const procs = require('../lib/procs');
const pkg = require('../lib/pkg');
const { startCrewService } = require('../lib/crew');
const { credentialsFor, WORKFLOWS_DIR } = require('../lib/fixtures');
const { createReport, secs, say } = require('../lib/report');
const { startCluster, activeJobs } = require('./stack');
const { packWithoutCancelSignal } = require('./patched');
const { decoderFor, readExecution, executionError, nodeItems } = require('./executions');

const WORKFLOW_FILE = 'queue-webhook-kickoff-and-wait.json';
const CREW_NODE = 'Kickoff and Wait';
const SPLIT_NODE = 'One item per crew';
// The whole run is bounded: a hang anywhere ends it as a failure.
const WATCHDOG_MS = 12 * 60 * 1000;
// How soon after the stop request the worker's node must have made its last status read.
const STOP_LIMIT_MS = 1500;
// How long the status-read count is watched after the stop.
const STOP_WATCH_MS = 3000;
// How soon the worker must have let go of the stopped execution's job (seen at 0.1-1.3 s here;
// without the node's cancel handling it holds it until the node's own timeout, 60 s).
const RELEASE_LIMIT_MS = 5000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rand = () => crypto.randomBytes(4).toString('hex');

function parse() {
	const { values } = parseArgs({
		options: {
			n8n: { type: 'string' },
			workers: { type: 'string' },
			concurrency: { type: 'string' },
			calls: { type: 'string' },
			'load-calls': { type: 'string' },
			'load-duration': { type: 'string' },
			keep: { type: 'boolean' },
			'without-cancel-signal': { type: 'boolean' },
			help: { type: 'boolean' },
		},
	});
	if (values.help) printHeaderAndExit(__filename);
	const int = (v, d, name) => {
		if (v === undefined) return d;
		if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`--${name} needs a positive integer, got "${v}"`);
		return Number(v);
	};
	const major = values.n8n || '2';
	// publish:workflow and the Redis/worker settings used here are n8n 2.x's.
	if (major !== '2') throw new Error(`--n8n: the queue test runs on n8n 2.x only (got "${major}")`);
	return {
		major,
		workers: int(values.workers, 2, 'workers'),
		concurrency: int(values.concurrency, 3, 'concurrency'),
		calls: int(values.calls, 8, 'calls'),
		loadCalls: int(values['load-calls'], 12, 'load-calls'),
		loadDurationMs: int(values['load-duration'], 3000, 'load-duration'),
		keep: Boolean(values.keep),
		withoutCancelSignal: Boolean(values['without-cancel-signal']),
	};
}

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
		return { status: 0, error: err, text: String(err.message || err), ms: Date.now() - t0, endedAt: Date.now() };
	}
}

/** A crew request for the workflow: one item of its `crews` list. */
function crewSpec(tag, reference) {
	return { tag, inputs: { topic: `queue ${tag} ${rand()}`, audience: 'queue-mode test' }, reference };
}

/** The service's runs whose kickoff meta carries one of these tags. */
async function runsFor(crew, tags) {
	const wanted = new Set(tags);
	return (await crew.runs()).filter((r) => r.meta && wanted.has(r.meta.tag));
}

async function waitFor(what, fn, timeoutMs, everyMs = 100) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const v = await fn();
		if (v) return v;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(everyMs);
	}
}

/** Execution ids each process logged as "Worker started execution <id>". */
function startedOn(proc) {
	return [...proc.output().matchAll(/Worker started execution (\S+) \(job/g)].map((m) => m[1]);
}

/** Every pid (and process group) gone, and no process whose environment points into root. */
function leftovers(pids, root) {
	const alive = [];
	for (const { name, pid } of pids) {
		for (const target of [-pid, pid]) {
			try {
				process.kill(target, 0);
				alive.push(`${name} (${target < 0 ? 'group ' + pid : 'pid ' + pid})`);
				break;
			} catch (err) {
				if (err.code === 'EPERM') alive.push(`${name} (${pid}, EPERM)`);
			}
		}
	}
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const env = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
			if (env.includes(root)) alive.push(`pid ${entry} (${fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').replace(/\0/g, ' ').slice(0, 120)})`);
		} catch {
			/* gone, or not ours to read */
		}
	}
	return alive;
}

async function main() {
	const opts = parse();
	procs.installExitHandlers();
	const started = Date.now();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-crewai-queue-'));
	const report = createReport();
	const watchdog = setTimeout(() => {
		report.record('queue', 'the whole run', new Error(`still running after ${WATCHDOG_MS / 60000} minutes: stopped`), Date.now() - started);
		procs.stopAll().finally(() => {
			if (!opts.keep) fs.rmSync(root, { recursive: true, force: true });
			process.exit(report.finish());
		});
	}, WATCHDOG_MS);
	watchdog.unref();
	const label = 'queue';
	const check = (name, fn) => report.check(label, name, fn);
	const pids = []; // every long-running process, for the teardown check
	const figures = {};
	let crew;
	let cluster;
	const expectedKickoffs = []; // topics the workflow was asked to kick off, one entry per crew
	try {
		let packed;
		const up = await check(
			`queue mode up: redis, n8n main + ${opts.workers} workers (concurrency ${opts.concurrency}), shared sqlite, package on every process`,
			async () => {
				packed = opts.withoutCancelSignal
					? await packWithoutCancelSignal(path.join(root, 'pack-patched'))
					: await pkg.pack(path.join(root, 'pack'));
				say(`  packed ${path.basename(packed.tarball)}${packed.patched ? ` from a patched copy (${packed.patched}: no cancel signal)` : ''}`);
				crew = await startCrewService({ logFile: path.join(root, 'crew-service.log') });
				pids.push({ name: 'crew-service', pid: crew.proc.pid });
				const workflow = JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, WORKFLOW_FILE), 'utf8'));
				const tokens = { organization: crew.tokens.organization, user: crew.tokens.user, wrong: `wrong-tok-${rand()}${rand()}` };
				cluster = await startCluster({
					major: opts.major,
					root,
					packed,
					workers: opts.workers,
					concurrency: opts.concurrency,
					credentials: credentialsFor(crew.url, tokens),
					workflows: [workflow],
					log: (m) => say(`  ${m}`),
					onProcess: (name, proc) => pids.push({ name, pid: proc.pid }),
				});
				const webhook = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
				cluster.webhookUrl = `${cluster.main.server.url}/webhook/${webhook.parameters.path}`;
				cluster.decode = decoderFor(cluster.layout);
				say(`  n8n ${cluster.layout.version}; webhook ${cluster.webhookUrl}; run data decoded with ${cluster.decode.from}`);
			},
		);
		if (!up) return;
		const { rest, decode, webhookUrl } = cluster;
		const workerProcs = cluster.workers.map((w) => w.server.proc);
		const mainProc = cluster.main.server.proc;
		const call = (crews, extra = {}, timeoutMs) => {
			for (const c of crews) expectedKickoffs.push(c.inputs.topic);
			return callWebhook(webhookUrl, { crews, pollInterval: 0.5, timeout: 60, ...extra }, timeoutMs);
		};
		const execIdOf = async (tag) => {
			const [run] = await waitFor(`the crew tagged ${tag}`, async () => {
				const r = await runsFor(crew, [tag]);
				return r.length ? r : null;
			}, 30000);
			return { run, executionId: String(run.meta.executionId) };
		};

		// 1. Concurrent calls, 2 crews each: every call gets its own crews back, in item order.
		let concurrentIds = [];
		await check(`${opts.calls} concurrent webhook calls (2 crews each) each get their own crews' results, in item order`, async () => {
			const specs = Array.from({ length: opts.calls }, (_, i) => [crewSpec(`pair-${i}-0`, { durationMs: 2000 }), crewSpec(`pair-${i}-1`, { durationMs: 1500 })]);
			const t0 = Date.now();
			const answers = await Promise.all(specs.map((crews) => call(crews)));
			say(`    ${opts.calls} calls answered in ${secs(Date.now() - t0)}`);
			const runs = await runsFor(crew, specs.flat().map((s) => s.tag));
			const byTopic = new Map(runs.map((r) => [r.inputs.topic, r]));
			answers.forEach((a, i) => {
				assert.equal(a.status, 200, `call ${i}: HTTP ${a.status} ${a.text.slice(0, 300)}`);
				assert.ok(Array.isArray(a.json) && a.json.length === 2, `call ${i}: expected 2 items, got ${a.text.slice(0, 300)}`);
				specs[i].forEach((spec, j) => {
					const item = a.json[j];
					const run = byTopic.get(spec.inputs.topic);
					assert.ok(run, `call ${i} item ${j}: the service never saw topic "${spec.inputs.topic}"`);
					assert.equal(item.state, 'completed', `call ${i} item ${j}: state`);
					assert.equal(item.kickoff_id, run.kickoffId, `call ${i} item ${j}: another crew's kickoff id`);
					assert.ok(String(item.result).includes(spec.inputs.topic), `call ${i} item ${j}: another crew's result: "${item.result}"`);
				});
			});
			concurrentIds = [...new Set(runs.map((r) => String(r.meta.executionId)))];
			assert.equal(concurrentIds.length, opts.calls, `one execution per call (got ${concurrentIds.length} execution ids)`);
		});

		await check('the stored executions keep every output item paired with its input item (GET /rest/executions/<id>)', async () => {
			assert.ok(concurrentIds.length, 'no executions from the previous check');
			const kickoffByTopic = new Map((await crew.runs()).map((r) => [r.inputs.topic, r.kickoffId]));
			for (const id of concurrentIds) {
				const e = await readExecution(rest, decode, id);
				assert.equal(e.status, 'success', `execution ${id}: status ${e.status}`);
				assert.equal(e.mode, 'webhook', `execution ${id}: mode`);
				const inputs = nodeItems(e, SPLIT_NODE);
				const outputs = nodeItems(e, CREW_NODE);
				assert.equal(outputs.length, inputs.length, `execution ${id}: ${outputs.length} items out for ${inputs.length} in`);
				outputs.forEach((item, j) => {
					const paired = Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem];
					assert.deepEqual(paired.map((p) => (typeof p === 'number' ? p : p.item)), [j], `execution ${id} item ${j}: pairedItem ${JSON.stringify(item.pairedItem)}`);
					const topic = inputs[j].json.inputs.topic;
					assert.ok(String(item.json.result).includes(topic), `execution ${id} item ${j}: "${item.json.result}" is not the result of its input (${topic})`);
					assert.equal(item.json.kickoff_id, kickoffByTopic.get(topic), `execution ${id} item ${j}: another crew's kickoff id`);
				});
			}
		});

		await check(`the executions ran on the workers, on all ${opts.workers} of them, and none on main`, async () => {
			assert.ok(concurrentIds.length, 'no executions to look for');
			const perWorker = workerProcs.map(startedOn);
			const mainText = mainProc.output();
			for (const id of concurrentIds) {
				const on = perWorker.map((ids, w) => (ids.includes(id) ? w + 1 : 0)).filter(Boolean);
				assert.equal(on.length, 1, `execution ${id} started on ${on.length ? 'workers ' + on.join(', ') : 'no worker'}`);
				assert.match(mainText, new RegExp(`Enqueued execution ${id} \\(job`), `main did not enqueue execution ${id}`);
			}
			assert.doesNotMatch(mainText, /Worker started execution/, 'main ran an execution itself');
			const counts = perWorker.map((ids) => ids.filter((id) => concurrentIds.includes(id)).length);
			say(`    "Worker started execution" per worker: ${counts.map((c, w) => `worker-${w + 1} ${c}`).join(', ')}`);
			counts.forEach((c, w) => assert.ok(c > 0, `worker-${w + 1} ran none of the ${concurrentIds.length} executions`));
		});

		// 2. Failures, read back through REST.
		await check('a failed crew fails the execution with the crew\'s reason and kickoff ID (read through REST)', async () => {
			const reason = `queue failure ${rand()}`;
			const answer = await call([crewSpec('fail', { outcome: 'failure', durationMs: 300, error: reason })], { pollInterval: 0.2, timeout: 30 });
			assert.notEqual(answer.status, 200, `the webhook answered 200: ${answer.text.slice(0, 300)}`);
			const { run, executionId } = await execIdOf('fail');
			const e = await readExecution(rest, decode, executionId);
			assert.equal(e.status, 'error', `execution ${executionId}: status`);
			const err = executionError(e);
			assert.ok(err, `execution ${executionId} has no error`);
			assert.equal(e.data.resultData.lastNodeExecuted, CREW_NODE);
			assert.ok(err.message.includes(`The crew failed (kickoff ID ${run.kickoffId}): ${reason}`), `error message: ${err.message}`);
			say(`    execution ${executionId} (webhook answered ${answer.status}): ${err.message}`);
		});

		await check('a crew past the timeout fails the execution with the timeout error and kickoff ID (read through REST)', async () => {
			const answer = await call([crewSpec('timeout', { outcome: 'never' })], { pollInterval: 0.5, timeout: 2 });
			assert.notEqual(answer.status, 200, `the webhook answered 200: ${answer.text.slice(0, 300)}`);
			const { run, executionId } = await execIdOf('timeout');
			const e = await readExecution(rest, decode, executionId);
			assert.equal(e.status, 'error', `execution ${executionId}: status`);
			const err = executionError(e);
			assert.ok(err, `execution ${executionId} has no error`);
			assert.ok(err.message.includes(`did not finish within 2 seconds (kickoff ID ${run.kickoffId})`), `error message: ${err.message}`);
			assert.match(err.description, /not stopped|Get Status/, `description: ${err.description}`);
			say(`    execution ${executionId}: ${err.message}`);
		});

		// 3. Stop from main: the worker's node stops polling.
		let stopped;
		await check(
			`stopping the execution from main (POST /rest/executions/<id>/stop): the worker's node stops waiting and polling within ${STOP_LIMIT_MS / 1000} s, the worker lets go of the job`,
			async () => {
				const pending = call([crewSpec('stop', { outcome: 'never' })], { pollInterval: 0.2, timeout: 60 }, 90000);
				const { run, executionId } = await execIdOf('stop');
				// When the service received each status read of this crew (its clock is this machine's).
				const readTimes = async () =>
					(await crew.requests()).filter((r) => r.route === 'status' && r.kickoffId === run.kickoffId).map((r) => r.at);
				await waitFor('status reads of the crew to begin', async () => (await readTimes()).length >= 3, 30000);
				const a = (await readTimes()).length;
				await sleep(1000);
				const b = (await readTimes()).length;
				assert.ok(b > a, `the node was not polling before the stop (${a} → ${b} status reads in 1 s)`);
				// The execution's Bull job, in Redis's list of jobs a worker is running.
				const [, jobId] = mainProc.output().match(new RegExp(`Enqueued execution ${executionId} \\(job (\\S+)\\)`)) || [];
				assert.ok(jobId, `main did not log "Enqueued execution ${executionId} (job ...)"`);
				assert.ok((await activeJobs(cluster.redis.port)).includes(jobId), `job ${jobId} is not among the active jobs before the stop`);

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
					if (nodeStoppedMs === null && workerProcs.some((p) => p.output().includes(stoppedLine))) nodeStoppedMs = elapsed;
					if (releasedMs === null && !(await activeJobs(cluster.redis.port)).includes(jobId)) releasedMs = elapsed;
					if (elapsed >= STOP_WATCH_MS && (releasedMs !== null || elapsed >= RELEASE_LIMIT_MS)) break;
					await sleep(25);
				}
				const times = await readTimes();
				const after = times.filter((t) => t > stopAt);
				const lastBeforeMs = stopAt - Math.max(...times.filter((t) => t <= stopAt));
				const lastAfterMs = after.length ? Math.max(...after) - stopAt : null;
				const watchedMs = Date.now() - stopAt;
				stopped = { executionId, answered };
				figures.stop = { rate: b - a, after: after.length, lastAfterMs, lastBeforeMs, stopAnsweredMs, releasedMs, nodeStoppedMs, watchedMs };
				say(
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

		await check('the stopped execution ends as canceled and its webhook call returns', async () => {
			assert.ok(stopped, 'no stopped execution from the previous check');
			const ended = await Promise.race([stopped.answered, sleep(10000).then(() => null)]);
			assert.ok(ended, `the webhook call had not returned ${STOP_WATCH_MS / 1000 + 10} s after the stop`);
			figures.stop.webhookMs = ended.afterStopMs;
			const e = await readExecution(rest, decode, stopped.executionId, { timeoutMs: 10000 });
			assert.equal(e.status, 'canceled', `execution ${stopped.executionId}: status ${e.status}`);
			say(`    the webhook call returned ${ended.afterStopMs} ms after the stop: ${ended.answer.status} ${ended.answer.text.slice(0, 100)}`);
		});

		// 4. The load figure: N calls × D on W workers × C.
		await check(`load: ${opts.loadCalls} concurrent webhook calls × ${opts.loadDurationMs / 1000} s crews all complete`, async () => {
			const specs = Array.from({ length: opts.loadCalls }, (_, i) => crewSpec(`load-${i}`, { durationMs: opts.loadDurationMs }));
			const doneBefore = workerProcs.map((p) => startedOn(p).length);
			const t0 = Date.now();
			const answers = await Promise.all(specs.map((s) => call([s], { pollInterval: 0.5, timeout: 120 })));
			const wallMs = Math.max(...answers.map((a) => a.endedAt)) - t0;
			answers.forEach((a, i) => {
				assert.equal(a.status, 200, `call ${i}: HTTP ${a.status} ${a.text.slice(0, 200)}`);
				assert.ok(String(a.json[0].result).includes(specs[i].inputs.topic), `call ${i}: another crew's result: "${a.json[0].result}"`);
			});
			const slots = opts.workers * opts.concurrency;
			const idealMs = Math.ceil(opts.loadCalls / slots) * opts.loadDurationMs;
			const perWorker = workerProcs.map((p, w) => startedOn(p).length - doneBefore[w]);
			const sorted = answers.map((a) => a.ms).sort((x, y) => x - y);
			figures.load = { wallMs, idealMs, perWorker, slots, min: sorted[0], max: sorted[sorted.length - 1] };
			say(
				`    LOAD: ${opts.loadCalls} calls × ${secs(opts.loadDurationMs)} crews on ${opts.workers} workers × concurrency ${opts.concurrency} ` +
					`(${slots} slots): wall ${secs(wallMs)}, ideal ceil(${opts.loadCalls}/${slots}) × ${secs(opts.loadDurationMs)} = ${secs(idealMs)}, ` +
					`ratio ${(wallMs / idealMs).toFixed(2)}; per-call ${secs(sorted[0])} to ${secs(sorted[sorted.length - 1])}; ` +
					`executions per worker ${perWorker.map((c, w) => `worker-${w + 1} ${c}`).join(', ')}`,
			);
		});

		await check('no crew was kicked off twice: one POST /kickoff and one run per crew asked for', async () => {
			const kickoffs = (await crew.requests()).filter((r) => r.route === 'kickoff' && r.method === 'POST');
			const runs = await crew.runs();
			const counts = new Map();
			for (const r of runs) counts.set(r.inputs.topic, (counts.get(r.inputs.topic) || 0) + 1);
			const twice = [...counts].filter(([, n]) => n > 1).map(([t, n]) => `${t} ×${n}`);
			const never = expectedKickoffs.filter((t) => !counts.has(t));
			assert.deepEqual(twice, [], 'crews started more than once');
			assert.deepEqual(never, [], 'crews never started');
			assert.equal(kickoffs.length, expectedKickoffs.length, `${kickoffs.length} kickoff requests for ${expectedKickoffs.length} crews`);
			assert.equal(runs.length, expectedKickoffs.length, `${runs.length} runs for ${expectedKickoffs.length} crews`);
			say(`    ${expectedKickoffs.length} crews asked for, ${kickoffs.length} kickoff requests, ${runs.length} runs`);
		});
	} finally {
		const t0 = Date.now();
		await procs.stopAll();
		await check(`every process torn down by its own pid (${pids.map((p) => `${p.name} ${p.pid}`).join(', ') || 'none started'})`, async () => {
			const left = leftovers(pids, root);
			assert.deepEqual(left, [], 'still running');
			say(`    stopped in ${secs(Date.now() - t0)}`);
		});
		clearTimeout(watchdog);
		if (figures.stop || figures.load) {
			say('# figures');
			if (figures.stop) {
				const s = figures.stop;
				const ms = (v) => (v === null || v === undefined ? `never (watched ${s.watchedMs} ms)` : `${v} ms`);
				say(
					`#   stop: node stopped waiting ${ms(s.nodeStoppedMs)} after POST /rest/executions/<id>/stop; ` +
						`${s.after} status read(s) after it${s.after ? ` (the last ${s.lastAfterMs} ms after it)` : ''}, ${s.rate} reads/s before; ` +
						`worker let go of the job ${ms(s.releasedMs)}; webhook call returned ${s.webhookMs === undefined ? 'not within 10 s' : s.webhookMs + ' ms'}`,
				);
			}
			if (figures.load) {
				const l = figures.load;
				say(`#   load: ${opts.loadCalls} × ${secs(opts.loadDurationMs)} on ${opts.workers}×${opts.concurrency} slots: ${secs(l.wallMs)} (ideal ${secs(l.idealMs)}, ×${(l.wallMs / l.idealMs).toFixed(2)})`);
			}
		}
		say(`# queue run: ${secs(Date.now() - started)}${opts.withoutCancelSignal ? ' (WITHOUT the cancel signal: the stop checks are expected to fail)' : ''}`);
		// Processes were stopped above, for the teardown check; this removes the folder.
		await tearDown({ root, keep: opts.keep });
		process.exitCode = report.finish();
	}
}

runMain(main);
