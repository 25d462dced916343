'use strict';
// Wait By: Callback against polling in n8n QUEUE MODE, measured in one run, on the run's queue
// stack (queue/cluster.js: Redis, an n8n main and 2 workers with concurrency 1, so 2 slots, the
// reference crew service) and three published webhook workflows:
// workflows/queue-webhook-kickoff-and-wait.json (polling, at the default 2 s interval),
// workflows/wait-callback/queue-wait-by-callback.json (Wait By: Callback) and
// workflows/wait-callback/queue-wait-by-callback-batch.json (one item per crew).
//
//   node test/e2e/run.js --only queueWaitByCallback [--keep]
//
// In the runner's own-stack lane, beside the majors' lanes. First the checks that hold under
// their load: the restart (executions waiting by callback, two single crews and a batch of 6; main
// and workers stopped and started again; the crews' calls after the restart still complete them),
// then polling, whose figures are slot arithmetic read on the service's own clock: 8 single crews
// (no more executions run their crews at once than there are slots; the wall, ideal ceil(N/2) × D,
// and the detection delay printed), one execution of 50 items (its slot in use the whole time) and
// 8 executions of 8 items (about 4 × one crew's time, at most 2 executions' crews at once). A
// loaded machine only lengthens a polling execution, never lets more of them run at once.
// Then, once the majors' lanes have ended (t.whenAlone()), the callback checks, whose figures are
// walls against the crews' own times: 8 single crews (ideal about D: the executions are parked,
// no slot held; the worker slots held while they wait, Bull's active jobs in Redis sampled; the
// detection delay, the crew's call → the execution's stoppedAt, median and max), one execution of
// 50 items (wall within 10% of the slowest crew; 0 slots held while it waits, every record right
// and in order, status reads per kickoff) and 8 executions of 8 items (about one crew's time).
//
// The crews are as short as the ratios allow. Polling's figures come from slot arithmetic (N
// executions on 2 slots run in ceil(N/2) rounds), so its crews are short (POLL_*). A callback
// check needs every execution parked before the first crew ends, and the 50-item batch's calls
// to be taken faster than they come (about 0.4 s each on a loaded machine), so those crews are
// longer. The restart's crews outlast a restart of main and workers (90 s), the batch's spread
// 1–1.25 × that (it was 1–1.67 ×).

const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { secs } = require('../lib/report');
const { until, sleep } = require('../lib/until');
const { activeJobs } = require('../queue/queueStack');
const { readExecution, nodeItems } = require('../queue/executions');
const { queueCluster, releaseQueueCluster } = require('../queue/cluster');

const CREW_NODE = 'Kickoff and Wait';
// Webhook-triggered executions per mode in the single-crew comparison, one crew each.
const CALLS = 8;
// The crews' durations: polled ones (single and batched), callback singles, callback batches.
const POLL_CREW_MS = 6000;
const POLL_BATCH_CREW_MS = 6000;
const CALLBACK_CREW_MS = 12000;
const BATCH_CREW_MS = 20000;
// 8 executions of 8: 64 calls, each through n8n's waiting-webhook path (about 0.4 s a call, one
// after another, see the 50-item check). Crews spread over 0.75–1.25 × 20 s end within 10 s, and
// their calls then queue for about 25 s: the wall measured n8n's call cost, not the crews'. At 40 s
// the calls fit in the spread, and the check is about the crews again.
const MANY_BATCHES_CREW_MS = 40000;
// The restart's single crews; the batch's last 1–1.25 × this.
const RESTART_CREW_MS = 90000;

const rand = () => crypto.randomBytes(4).toString('hex');
const median = (list) => {
	const s = [...list].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function post(url, body) {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(600000),
	});
	const text = await res.text();
	return { status: res.status, text, endedAt: Date.now() };
}

async function run(t, figures, samplers) {
	const cluster = await queueCluster(t);
	if (!cluster) return;
	const { rest, decode, redis, crew } = cluster;
	const { polling, callback, batch } = cluster.workflows;
	const executions = async (workflowId) =>
		(
			await rest.get(
				`executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`,
			)
		).results;
	/** The workflow's executions started since `before`: when all `count` were waiting at once, then all of them once ended. */
	const parkedThenEnded = async (workflowId, before, count, crewMs) => {
		const mine = async () =>
			(await executions(workflowId)).filter((e) => !before.has(String(e.id)));
		const allWaitingAt = await until(
			`${count} executions waiting`,
			async () => {
				const list = await mine();
				return list.length === count && list.every((e) => e.status === 'waiting') && Date.now();
			},
			crewMs * 2,
		);
		// A hang guard, not a check (the walls are asserted against the crews): room for a loaded machine.
		const done = await until(
			'every execution finished',
			async () => {
				const list = await mine();
				return (
					list.length === count &&
					list.every((e) => !['new', 'running', 'waiting'].includes(e.status)) &&
					list
				);
			},
			crewMs * 4 + 120000,
		);
		return { allWaitingAt, done };
	};
	const runsTagged = async (prefix) =>
		(await crew.runs()).filter((r) => r.meta && String(r.meta.tag).startsWith(prefix));
	/**
	 * Bull's active jobs, sampled every 250 ms until stop() — the worker slots in use. A failed
	 * read ends the sampling and is thrown by stop(); a check that fails before its stop() leaves
	 * the sampler to `samplers.stopAll()` at the suite's end, before Redis is stopped.
	 */
	const sampleSlots = () => {
		const samples = [];
		let on = true;
		let failure;
		const loop = (async () => {
			while (on) {
				try {
					samples.push({ at: Date.now(), active: (await activeJobs(redis.port)).length });
				} catch (err) {
					failure = err;
					return;
				}
				await sleep(250);
			}
		})();
		const stop = async () => {
			on = false;
			await loop;
			if (failure) throw failure;
		};
		samplers.push(stop);
		return { samples, stop };
	};

	/** N crews whose durations spread evenly over 0.75–1.25 × the duration, tagged `${tag}-${i}`. */
	const spreadCrews = (tag, count, durationMs) =>
		Array.from({ length: count }, (_, i) => ({
			tag: `${tag}-${i}`,
			inputs: { topic: `${tag} ${i}` },
			reference: {
				durationMs: Math.round(durationMs * (0.75 + (count === 1 ? 0 : (0.5 * i) / (count - 1)))),
			},
		}));
	const slowestOf = (crews) => Math.max(...crews.map((c) => c.reference.durationMs));
	/** Each item is its own crew's record, in input order. */
	const assertRecordsInOrder = (items, crews, runs) => {
		assert.equal(items.length, crews.length, 'one item per crew');
		items.forEach((item, i) => {
			const run = runs.find((r) => r.meta.tag === crews[i].tag);
			assert.ok(run, `no kickoff for ${crews[i].tag}`);
			const json = item.json ?? item;
			assert.equal(json.kickoff_id, run.kickoffId, `item ${i}: another crew's record`);
			assert.equal(json.state, 'completed', `item ${i}: ${JSON.stringify(json).slice(0, 200)}`);
			if (item.pairedItem !== undefined) assert.deepEqual(item.pairedItem, { item: i });
		});
	};
	const readsPerKickoff = (runs) =>
		runs.reduce((sum, r) => sum + r.statusRequests, 0) / runs.length;
	/**
	 * The most executions that had a crew running at the same moment, by the service's own clock
	 * (each execution's first kickoff to its last crew's end): a polling execution holds its worker
	 * slot while its crews run, so no more than the slots, however loaded the machine is.
	 */
	const mostAtOnce = (runsPerExecution) => {
		const spans = runsPerExecution.map((list) => [
			Math.min(...list.map((r) => r.createdAt)),
			Math.max(...list.map((r) => r.completesAt)),
		]);
		return Math.max(
			...spans.map(([from]) => spans.filter(([start, end]) => start <= from && from < end).length),
		);
	};
	/** Polling batches: one webhook call per execution; the answer is the Crew node's items. */
	const pollBatches = async (executionCount, itemCount, durationMs) => {
		const tag = `pollb-${rand()}`;
		const batches = Array.from({ length: executionCount }, (_, e) =>
			spreadCrews(`${tag}-${e}`, itemCount, durationMs),
		);
		const slots = sampleSlots();
		const t0 = Date.now();
		const answers = await Promise.all(
			batches.map((crews) =>
				post(cluster.webhookUrl('polling'), { crews, pollInterval: 2, timeout: 600 }),
			),
		);
		const wallMs = Math.max(...answers.map((a) => a.endedAt)) - t0;
		await slots.stop();
		const runs = await runsTagged(tag);
		answers.forEach((a, e) => {
			assert.equal(a.status, 200, `execution ${e}: ${a.status} ${a.text.slice(0, 200)}`);
			assertRecordsInOrder(JSON.parse(a.text), batches[e], runs);
		});
		// Between the first kickoff and the last answer, less the edges: a slot in use at every sample.
		const during = slots.samples.filter((x) => x.at > t0 + 2000 && x.at < t0 + wallMs - 2000);
		const busy = during.filter((x) => x.active >= Math.min(executionCount, cluster.slots)).length;
		// The slowest crew's time in this run: from the first webhook call to the last crew's end (kickoffs included).
		const slowestMs = Math.max(...runs.map((r) => r.completesAt)) - t0;
		const executionsAtOnce = mostAtOnce(
			batches.map((crews) => runs.filter((r) => crews.some((c) => c.tag === r.meta.tag))),
		);
		return {
			wallMs,
			slowestMs,
			longestCrewMs: slowestOf(batches.flat()),
			busyShare: busy / during.length,
			samples: during.length,
			reads: readsPerKickoff(runs),
			executionsAtOnce,
		};
	};
	/** Callback batches: one webhook call per execution; they park, and each resumes when its last crew calls. */
	const callbackBatches = async (executionCount, itemCount, durationMs) => {
		const tag = `cbb-${rand()}`;
		const batches = Array.from({ length: executionCount }, (_, e) =>
			spreadCrews(`${tag}-${e}`, itemCount, durationMs),
		);
		const before = new Set((await executions(batch.id)).map((e) => String(e.id)));
		const slots = sampleSlots();
		const t0 = Date.now();
		const answers = await Promise.all(
			batches.map((crews) =>
				post(cluster.webhookUrl('batch'), { crews, firstPhase: 1, timeout: 300 }),
			),
		);
		answers.forEach((a, e) =>
			assert.equal(a.status, 200, `execution ${e}: ${a.status} ${a.text.slice(0, 200)}`),
		);
		const { allWaitingAt, done } = await parkedThenEnded(
			batch.id,
			before,
			executionCount,
			durationMs,
		);
		await slots.stop();
		const wallMs = Math.max(...done.map((e) => Date.parse(e.stoppedAt))) - t0;
		const runs = await runsTagged(tag);
		for (const e of done) {
			assert.equal(e.status, 'success', `execution ${e.id}: ${e.status}`);
			const items = nodeItems(await readExecution(rest, decode, e.id), CREW_NODE);
			const first = runs.find((r) => r.kickoffId === (items[0].json ?? {}).kickoff_id);
			assert.ok(first, `execution ${e.id}: its first item is no crew of this run`);
			const crews = batches.find((b) => b[0].tag === first.meta.tag);
			assert.ok(crews, `execution ${e.id}: its first item is not its first crew`);
			assertRecordsInOrder(items, crews, runs);
		}
		const firstEnd = Math.min(...runs.map((r) => r.completesAt));
		const waitingSamples = slots.samples.filter((x) => x.at >= allWaitingAt && x.at < firstEnd);
		assert.ok(waitingSamples.length > 0, 'no slot sample while every execution waited');
		const slowestMs = Math.max(...runs.map((r) => r.completesAt)) - t0;
		return {
			wallMs,
			slowestMs,
			longestCrewMs: slowestOf(batches.flat()),
			held: Math.max(...waitingSamples.map((x) => x.active)),
			samples: waitingSamples.length,
			reads: readsPerKickoff(runs),
		};
	};

	await t.check(
		"an n8n restart (main and workers) while executions wait by callback: the crews' calls after it still complete them",
		async () => {
			const tag = `restart-${rand()}`;
			// Longer than main and workers take to stop and start again on this machine, loaded (a restart took 63 s
			// at a load of 25, when the cluster's first start had taken 21 s: no figure of the run predicts it).
			const restartCrewMs = RESTART_CREW_MS;
			const before = new Set((await executions(callback.id)).map((e) => String(e.id)));
			for (let i = 0; i < 2; i++) {
				const a = await post(cluster.webhookUrl('callback'), {
					topic: `${tag} ${i}`,
					tag: `${tag}-${i}`,
					reference: { durationMs: restartCrewMs },
				});
				assert.equal(a.status, 200);
			}
			const mine = async () =>
				(await executions(callback.id)).filter((e) => !before.has(String(e.id)));
			await until(
				'2 executions waiting',
				async () => {
					const list = await mine();
					return list.length === 2 && list.every((e) => e.status === 'waiting');
				},
				60000,
			);
			// And a batch of 6 whose crews end one after another after the restart.
			const batchTag = `restartb-${rand()}`;
			// 1–1.25 × the single crews' time: the first crew ends after n8n is back, the others one after another.
			const batchCrews = Array.from({ length: 6 }, (_, i) => ({
				tag: `${batchTag}-${i}`,
				inputs: { topic: `${batchTag} ${i}` },
				reference: { durationMs: Math.round(restartCrewMs * (1 + 0.05 * i)) },
			}));
			const batchBefore = new Set((await executions(batch.id)).map((e) => String(e.id)));
			assert.equal(
				(
					await post(cluster.webhookUrl('batch'), {
						crews: batchCrews,
						firstPhase: 1,
						timeout: 600,
					})
				).status,
				200,
			);
			const batchExecution = await until(
				'the batch waiting',
				async () =>
					(await executions(batch.id)).find(
						(e) => !batchBefore.has(String(e.id)) && e.status === 'waiting',
					),
				60000,
			);
			const t0 = Date.now();
			await Promise.all([cluster.main.stop(), ...cluster.workers.map((w) => w.stop())]);
			const stoppedAt = Date.now();
			const [mainServer, ...workerServers] = await Promise.all([
				cluster.main.start({ env: cluster.mainEnv }),
				...cluster.workers.map((w) => w.startWorker({ concurrency: cluster.CONCURRENCY })),
			]);
			// The new processes, for the teardown check.
			cluster.pids.push(
				{ name: 'n8n main (restarted)', pid: mainServer.proc.pid },
				...workerServers.map((s, i) => ({
					name: `n8n worker-${i + 1} (restarted)`,
					pid: s.proc.pid,
				})),
			);
			t.say(`  stopped in ${secs(stoppedAt - t0)}, up again ${secs(Date.now() - stoppedAt)} later`);
			const runs = await runsTagged(tag);
			assert.ok(
				runs.every((r) => r.completesAt > Date.now()),
				`a crew ended before n8n was back (crews of ${secs(restartCrewMs)}): raise RESTART_CREW_MS`,
			);
			// The owner's session cookie outlives the restart (signed with the instance's key).
			const restAfter = rest;
			const done = await until(
				'both finished',
				async () => {
					const list = (
						await restAfter.get(
							`executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: callback.id }))}&limit=100`,
						)
					).results.filter((e) => !before.has(String(e.id)));
					return list.every((e) => !['new', 'running', 'waiting'].includes(e.status)) && list;
				},
				restartCrewMs + 60000,
				1000,
			);
			for (const e of done) {
				assert.equal(e.status, 'success', `execution ${e.id}: ${e.status}`);
				const [item] = nodeItems(await readExecution(restAfter, decode, e.id), CREW_NODE);
				assert.equal(item.json.state, 'completed');
			}
			const calls = (await (await fetch(`${crew.url}/_reference/webhooks`)).json()).filter((d) =>
				runs.some((r) => r.kickoffId === d.kickoffId),
			);
			assert.deepEqual(
				calls.map((d) => d.status),
				[200, 200],
				'one call per crew, answered 200 after the restart',
			);
			const batchRuns = await runsTagged(batchTag);
			const batchDone = await until(
				'the batch finished',
				async () => {
					const e = await restAfter.get(`executions/${batchExecution.id}`);
					return !['new', 'running', 'waiting'].includes(e.status) && e;
				},
				restartCrewMs * 1.25 + 60000,
				1000,
			);
			assert.equal(batchDone.status, 'success', `the batch: ${batchDone.status}`);
			assertRecordsInOrder(
				nodeItems(await readExecution(restAfter, decode, batchExecution.id), CREW_NODE),
				batchCrews,
				batchRuns,
			);
			const batchCalls = (await (await fetch(`${crew.url}/_reference/webhooks`)).json()).filter(
				(d) => batchRuns.some((r) => r.kickoffId === d.kickoffId),
			);
			assert.deepEqual(
				batchCalls.map((d) => d.status),
				Array(6).fill(200),
				"the batch's calls, all after the restart, answered 200",
			);
			t.say(
				`  the batch of 6 resumed after the restart: ${readsPerKickoff(await runsTagged(batchTag)).toFixed(2)} status reads per kickoff`,
			);
		},
	);

	/**
	 * `count` crews kicked off straight at the service (as a workflow's Kickoff would) and paused for
	 * a person after research_task, `crewMs / 3` into their run; their `{kickoff_id, task_id}`.
	 */
	const pausedCrews = async (tag, count, reference) => {
		const ids = [];
		for (let i = 0; i < count; i++) {
			const res = await fetch(`${crew.url}/kickoff`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					authorization: `Bearer ${crew.tokens.organization}`,
				},
				body: JSON.stringify({
					inputs: { topic: `${tag} ${i}` },
					meta: {
						tag: `${tag}-${i}`,
						reference: { humanInput: { taskId: 'research_task' }, ...reference },
					},
				}),
			});
			const text = await res.text();
			assert.equal(res.status, 200, text);
			ids.push(JSON.parse(text).kickoff_id);
		}
		await until(
			`${count} crews paused`,
			async () =>
				(await crew.runs()).filter((r) => ids.includes(r.kickoffId) && r.state === 'paused')
					.length === count,
			60000,
			250,
		);
		return ids.map((kickoffId) => ({ kickoff_id: kickoffId, task_id: 'research_task' }));
	};
	const { resume } = cluster.workflows;
	/** A check against the service in its live dialect, where a resume starts a new run (`resumedFrom`), as the hosted service does. */
	const live = (check) => async () => {
		await crew.configure({ dialect: 'live' });
		try {
			await check();
		} finally {
			await crew.configure({ dialect: 'documented' });
		}
	};

	await t.check(
		"Resume by Callback on 3 paused crews: the execution holds no worker slot while the resumed runs work, and their calls complete it with each run's record, naming the paused one, in order",
		live(async () => {
			const tag = `resume-${rand()}`;
			// Paused 4 s in; the resumed runs then work 8 s more, long after the execution has parked.
			const paused = await pausedCrews(tag, 3, { durationMs: 12000 });
			const before = new Set((await executions(resume.id)).map((e) => String(e.id)));
			const slots = sampleSlots();
			assert.equal(
				(await post(cluster.webhookUrl('resume'), { paused, firstPhase: 1, timeout: 300 })).status,
				200,
			);
			const { allWaitingAt, done } = await parkedThenEnded(resume.id, before, 1, 12000);
			await slots.stop();
			const runs = (await crew.runs()).filter((r) =>
				paused.some((p) => p.kickoff_id === r.resumedFrom),
			);
			assert.equal(runs.length, 3, 'one resumed run per paused crew');
			const firstEnd = Math.min(...runs.map((r) => r.completesAt));
			const waiting = slots.samples.filter((x) => x.at >= allWaitingAt && x.at < firstEnd);
			assert.ok(waiting.length > 0, 'no slot sample while the execution waited');
			assert.equal(
				Math.max(...waiting.map((x) => x.active)),
				0,
				`worker slots held while the execution waited: ${JSON.stringify(waiting.map((x) => x.active))}`,
			);
			const [execution] = done;
			assert.equal(execution.status, 'success', `execution ${execution.id}: ${execution.status}`);
			const items = nodeItems(await readExecution(rest, decode, execution.id), 'Resume');
			assert.deepEqual(
				items.map((item) => [item.json.state, item.json.resumed_kickoff_id, item.json.kickoff_id]),
				paused.map((p) => [
					'completed',
					p.kickoff_id,
					runs.find((r) => r.resumedFrom === p.kickoff_id).kickoffId,
				]),
			);
			t.say(
				`  ${waiting.length} samples while it waited, 0 slots held; resumed by the last run's call ${secs(Date.parse(execution.stoppedAt) - Math.max(...runs.map((r) => r.completesAt)))} after its end`,
			);
		}),
	);

	await t.check(
		'Resume by Callback: the execution stopped from main while the node watches the 3 resumed runs (its first phase) stops each of them once',
		live(async () => {
			const tag = `resumestop-${rand()}`;
			const paused = await pausedCrews(tag, 3, { durationMs: 3000, outcome: 'never' });
			const before = new Set((await executions(resume.id)).map((e) => String(e.id)));
			// A first phase longer than the check: the node is still running on its worker at the stop.
			const answer = post(cluster.webhookUrl('resume'), { paused, firstPhase: 120, timeout: 300 });
			const resumedRuns = async () =>
				(await crew.runs()).filter((r) => paused.some((p) => p.kickoff_id === r.resumedFrom));
			await until('3 resumed runs', async () => (await resumedRuns()).length === 3, 60000, 250);
			const execution = await until(
				'the execution running',
				async () =>
					(await executions(resume.id)).find(
						(e) => !before.has(String(e.id)) && e.status === 'running',
					),
				30000,
				250,
			);
			await rest.post(`executions/${execution.id}/stop`);
			const runs = await until(
				'the 3 resumed runs stopped',
				async () => {
					const list = await resumedRuns();
					return list.every((r) => r.state === 'revoked') && list;
				},
				30000,
				250,
			);
			const stops = (await crew.requests()).filter(
				(r) => r.route === 'stop' && runs.some((run) => run.kickoffId === r.kickoffId),
			);
			assert.deepEqual(
				stops.map((r) => r.kickoffId).sort(),
				runs.map((r) => r.kickoffId).sort(),
				'one stop per resumed run',
			);
			assert.equal((await answer).status, 200);
			const ended = await until(
				'the execution ended',
				async () => {
					const e = await rest.get(`executions/${execution.id}`);
					return !['new', 'running', 'waiting'].includes(e.status) && e;
				},
				30000,
				250,
			);
			assert.equal(ended.status, 'canceled');
		}),
	);

	await t.check(
		`polling: ${CALLS} webhook executions × ${secs(POLL_CREW_MS)} crews on ${cluster.WORKERS} slots: no more executions run their crews at once than there are slots`,
		async () => {
			const tag = `poll-${rand()}`;
			const slots = sampleSlots();
			const t0 = Date.now();
			const answers = await Promise.all(
				Array.from({ length: CALLS }, (_, i) =>
					post(cluster.webhookUrl('polling'), {
						crews: [
							{
								tag: `${tag}-${i}`,
								inputs: { topic: `${tag} ${i}` },
								reference: { durationMs: POLL_CREW_MS },
							},
						],
						pollInterval: 2,
						timeout: 600,
					}),
				),
			);
			const wallMs = Math.max(...answers.map((a) => a.endedAt)) - t0;
			await slots.stop();
			answers.forEach((a, i) =>
				assert.equal(a.status, 200, `call ${i}: ${a.status} ${a.text.slice(0, 200)}`),
			);
			const runs = await runsTagged(tag);
			const byExecution = new Map((await executions(polling.id)).map((e) => [String(e.id), e]));
			const delays = runs.map(
				(r) => Date.parse(byExecution.get(String(r.meta.executionId)).stoppedAt) - r.completesAt,
			);
			const held = Math.max(...slots.samples.map((s) => s.active));
			const atOnce = mostAtOnce(runs.map((r) => [r]));
			figures.push({
				mode: 'polling',
				crewMs: POLL_CREW_MS,
				wallMs,
				idealMs: Math.ceil(CALLS / cluster.WORKERS) * POLL_CREW_MS,
				held,
				delays,
			});
			t.say(
				`  POLLING: wall ${secs(wallMs)} (ideal ceil(${CALLS}/${cluster.WORKERS}) × ${secs(POLL_CREW_MS)}); worker slots held at most ${held}; at most ${atOnce} executions' crews running at once; detection (crew end → execution end) median ${median(delays)} ms, max ${Math.max(...delays)} ms`,
			);
			assert.ok(
				atOnce <= cluster.slots,
				`${atOnce} executions had their crews running at once on ${cluster.slots} slots`,
			);
		},
	);

	// Polling's figures are slot arithmetic, asserted against the crews' own times on the service's
	// clock (busy slots, executions at once), which a loaded machine only lengthens: they run beside
	// the majors' lanes. Their walls are kept for the callback checks' lines below.
	let polled50;
	await t.check(
		`one execution of 50 items polled (crews spread 0.75–1.25 × ${secs(POLL_BATCH_CREW_MS)}): it holds its slot the whole time`,
		async () => {
			const polled = await pollBatches(1, 50, POLL_BATCH_CREW_MS);
			polled50 = polled;
			t.say(
				`  POLLING 1 × 50: wall ${secs(polled.wallMs)} (slowest crew: ended ${secs(polled.slowestMs)} after the webhook call, ran ${secs(polled.longestCrewMs)}); a slot in use in ${(polled.busyShare * 100).toFixed(0)}% of ${polled.samples} samples; ${polled.reads.toFixed(2)} status reads per kickoff`,
			);
			figures.push({
				mode: 'polling, 1 × 50 items',
				wallMs: polled.wallMs,
				idealMs: polled.slowestMs,
				held: `in use ${(polled.busyShare * 100).toFixed(0)}% of the wait`,
				delays: [],
			});
			assert.equal(polled.busyShare, 1, 'polling held its slot the whole time');
		},
	);

	let polled88;
	await t.check(
		`8 executions of 8 items polled on ${cluster.WORKERS}×${cluster.CONCURRENCY} slots: about 4 × one crew's time, never more executions' crews at once than slots`,
		async () => {
			const polled = await pollBatches(8, 8, POLL_BATCH_CREW_MS);
			polled88 = polled;
			// Against one crew's run (the longest of its spread): polling runs 4 rounds of 2 executions.
			const polledCrewMs = polled.longestCrewMs;
			t.say(
				`  POLLING 8 × 8: wall ${secs(polled.wallMs)} = ${(polled.wallMs / polledCrewMs).toFixed(2)} × the longest crew (${secs(polledCrewMs)}); at most ${polled.executionsAtOnce} executions' crews running at once`,
			);
			figures.push({
				mode: 'polling, 8 × 8 items',
				wallMs: polled.wallMs,
				idealMs: 4 * polledCrewMs,
				held: '-',
				delays: [],
			});
			assert.ok(
				polled.wallMs >= polledCrewMs * 3.5,
				`polling wall ${secs(polled.wallMs)} is not about 4 × one crew's time`,
			);
			assert.ok(
				polled.executionsAtOnce <= cluster.slots,
				`${polled.executionsAtOnce} executions had their crews running at once on ${cluster.slots} slots`,
			);
		},
	);

	// The checks below compare the callback walls with the crews' own times, and a batch's calls go
	// one after another through n8n's waiting-webhook path (about 0.1 s each on an idle machine, 0.4 s
	// on a loaded one; 64 calls of the 8 × 8 outlasted their hang guard at a load of 25): they wait
	// for the majors' lanes to end.
	const waitedFrom = Date.now();
	await t.whenAlone();
	t.say(`  the majors' lanes have ended (waited ${secs(Date.now() - waitedFrom)} for them)`);

	await t.check(
		`callback: the same ${CALLS} crews all wait at once, no worker slot held while waiting, each ends with its own record`,
		async () => {
			const tag = `cb-${rand()}`;
			const before = new Set((await executions(callback.id)).map((e) => String(e.id)));
			const slots = sampleSlots();
			const t0 = Date.now();
			const answers = await Promise.all(
				Array.from({ length: CALLS }, (_, i) =>
					post(cluster.webhookUrl('callback'), {
						topic: `${tag} ${i}`,
						tag: `${tag}-${i}`,
						reference: { durationMs: CALLBACK_CREW_MS },
					}),
				),
			);
			answers.forEach((a, i) =>
				assert.equal(a.status, 200, `call ${i}: ${a.status} ${a.text.slice(0, 200)}`),
			);
			const { allWaitingAt, done } = await parkedThenEnded(
				callback.id,
				before,
				CALLS,
				CALLBACK_CREW_MS,
			);
			await slots.stop();
			const wallMs = Math.max(...done.map((e) => Date.parse(e.stoppedAt))) - t0;
			const runs = await runsTagged(tag);
			const calls = (await (await fetch(`${crew.url}/_reference/webhooks`)).json()).filter(
				(d) => d.kind === 'stream',
			);
			const callAt = new Map(calls.map((d) => [d.kickoffId, d.at]));
			const byExecution = new Map(done.map((e) => [String(e.id), e]));
			for (const r of runs) {
				const e = byExecution.get(String(r.meta.executionId));
				assert.ok(e, `no execution for kickoff ${r.kickoffId}`);
				assert.equal(e.status, 'success', `execution ${e.id}: ${e.status}`);
				const [item] = nodeItems(await readExecution(rest, decode, e.id), CREW_NODE);
				assert.equal(item.json.kickoff_id, r.kickoffId, `execution ${e.id}: another crew's record`);
				assert.equal(item.json.state, 'completed');
			}
			const delays = runs.map(
				(r) =>
					Date.parse(byExecution.get(String(r.meta.executionId)).stoppedAt) -
					callAt.get(r.kickoffId),
			);
			// While every execution waited and before the first crew's call: what the workers held.
			const firstCall = Math.min(...runs.map((r) => callAt.get(r.kickoffId)));
			const waitingSamples = slots.samples.filter((s) => s.at >= allWaitingAt && s.at < firstCall);
			assert.ok(waitingSamples.length > 0, 'no slot sample while every execution waited');
			const held = Math.max(...waitingSamples.map((s) => s.active));
			figures.push({
				mode: 'callback',
				crewMs: CALLBACK_CREW_MS,
				wallMs,
				idealMs: CALLBACK_CREW_MS,
				held,
				delays,
			});
			t.say(
				`  CALLBACK: wall ${secs(wallMs)} (ideal about ${secs(CALLBACK_CREW_MS)}); all ${CALLS} waiting ${secs(allWaitingAt - t0)} after the calls; worker slots held while waiting ${held} (${waitingSamples.length} samples); detection (crew's call → execution end) median ${median(delays)} ms, max ${Math.max(...delays)} ms`,
			);
			assert.equal(held, 0, 'worker slots held while the executions wait');
			assert.equal(runs.length, CALLS);
		},
	);

	await t.check(
		`one execution of 50 items by callback (crews spread 0.75–1.25 × ${secs(BATCH_CREW_MS)}): it holds no slot while waiting and resumes soon after the slowest crew, every record in order`,
		async () => {
			const called = await callbackBatches(1, 50, BATCH_CREW_MS);
			t.say(
				`  CALLBACK 1 × 50: wall ${secs(called.wallMs)} = ${(called.wallMs / called.slowestMs).toFixed(3)} × the slowest crew (ended ${secs(called.slowestMs)} after the webhook call, ran ${secs(called.longestCrewMs)}); worker slots held while waiting ${called.held} (${called.samples} samples); ${called.reads.toFixed(2)} status reads per kickoff${polled50 ? `; polled: wall ${secs(polled50.wallMs)}` : ''}`,
			);
			figures.push({
				mode: 'callback, 1 × 50 items',
				wallMs: called.wallMs,
				idealMs: called.slowestMs,
				held: called.held,
				delays: [],
				reads: called.reads,
			});
			assert.equal(called.held, 0, 'worker slots held while the batch waits');
			// n8n 2.41's waiting-webhook path (WaitingWebhooks.executeWebhook: the execution loaded, an expression
			// isolate acquired, per call) is the cost per call; on a machine shared with other jobs it took about 0.4 s,
			// and 50 calls arriving 5 a second then queue up (README, Running at scale).
			t.say(
				`  callback wall against the slowest crew: ${((called.wallMs / called.slowestMs - 1) * 100).toFixed(1)}% over (within 10% required)`,
			);
			assert.ok(
				called.wallMs <= called.slowestMs * 1.1,
				`callback wall ${secs(called.wallMs)} is not within 10% of the slowest crew`,
			);
			assert.ok(called.reads <= 3, `${called.reads.toFixed(2)} status reads per kickoff`);
		},
	);

	await t.check(
		`8 executions of 8 items by callback on ${cluster.WORKERS}×${cluster.CONCURRENCY} slots: about one crew's time`,
		async () => {
			const called = await callbackBatches(8, 8, MANY_BATCHES_CREW_MS);
			// Against one crew's run (the longest of its spread): callback runs one round.
			const crewMs = called.longestCrewMs;
			t.say(
				`  CALLBACK 8 × 8: wall ${secs(called.wallMs)} = ${(called.wallMs / crewMs).toFixed(2)} × the longest crew (${secs(crewMs)}), ${(called.wallMs / called.slowestMs).toFixed(2)} × the last crew's end; slots held while waiting ${called.held}, ${called.reads.toFixed(2)} status reads per kickoff${polled88 ? `; polled: wall ${secs(polled88.wallMs)} = ${(polled88.wallMs / polled88.longestCrewMs).toFixed(2)} × its longest crew` : ''}`,
			);
			figures.push({
				mode: 'callback, 8 × 8 items',
				wallMs: called.wallMs,
				idealMs: crewMs,
				held: called.held,
				delays: [],
				reads: called.reads,
			});
			assert.equal(called.held, 0, 'worker slots held while the batches wait');
			assert.ok(
				called.wallMs <= crewMs * 1.5,
				`callback wall ${secs(called.wallMs)} is not about one crew's time`,
			);
		},
	);
}

function printFigures(t, figures) {
	if (!figures.length) return;
	t.say('# figures (2 workers × concurrency 1)');
	for (const f of figures) {
		if (f.delays.length === 0) {
			t.say(
				`#   ${f.mode}: wall ${secs(f.wallMs)} (against ${secs(f.idealMs)}); slots held while waiting ${f.held}${f.reads === undefined ? '' : `; ${f.reads.toFixed(2)} status reads per kickoff`}`,
			);
			continue;
		}
		t.say(
			`#   ${f.mode}: ${CALLS} × ${secs(f.crewMs)} crews: wall ${secs(f.wallMs)} (ideal ${secs(f.idealMs)}); slots held while waiting ${f.held}; detection median ${median(f.delays)} ms, max ${Math.max(...f.delays)} ms`,
		);
	}
}

module.exports = {
	name: 'queueWaitByCallback',
	title: 'Queue mode: Wait By: Callback holds no worker slot while it waits, against polling',
	majors: ['2'],
	// The queue stack's lane, beside the majors' lanes; its checks of walls against crews' times
	// await t.whenAlone().
	alone: true,
	async run(t) {
		const figures = [];
		const samplers = [];
		try {
			await run(t, figures, samplers);
		} finally {
			await Promise.all(samplers.map(async (stop) => await stop().catch(() => {})));
			printFigures(t, figures);
			await releaseQueueCluster(t, 'queueWaitByCallback');
		}
	},
};
