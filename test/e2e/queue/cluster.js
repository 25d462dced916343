'use strict';
// The one queue-mode stack of a run, shared by the queue suites (suites/queue.js,
// suites/queueWaitByCallback.js): Redis, one `n8n start` (main) and 2 `n8n worker` processes
// with concurrency 1 (2 slots: the slot counts the queue suites' ratios are about), the
// reference crew service, and every queue workflow imported and published once. Built by the
// first queue suite that runs; stopped, with the teardown check, by the last selected one.
//
// CREW_E2E_WITHOUT_CANCEL_SIGNAL=1 installs a pack of a patched COPY of dist/ whose Crew node
// never gets the execution's cancel signal (queue/patched.js): the queue suite's stop checks
// must then fail.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const procs = require('../lib/procs');
const { startCrewService } = require('../lib/crew');
const { credentialsFor, WORKFLOWS_DIR } = require('../lib/fixtures');
const { freePort } = require('../lib/n8n');
const { secs } = require('../lib/report');
const { until } = require('../lib/until');
const { startCluster } = require('./queueStack');
const { packWithoutCancelSignal } = require('./patched');
const { decoderFor } = require('./executions');

/** The suites that share the stack, in the order the runner runs them (file names). */
const QUEUE_SUITES = ['queue', 'queueWaitByCallback'];
const WORKERS = 2;
const CONCURRENCY = 1;
const WORKFLOW_FILES = {
	polling: 'queue-webhook-kickoff-and-wait.json',
	callback: path.join('wait-callback', 'queue-wait-by-callback.json'),
	batch: path.join('wait-callback', 'queue-wait-by-callback-batch.json'),
	resume: path.join('wait-callback', 'queue-resume-by-callback.json'),
};

const withoutCancelSignal = () => process.env.CREW_E2E_WITHOUT_CANCEL_SIGNAL === '1';

let building = null;
const done = new Set();

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
			if (env.includes(root))
				alive.push(
					`pid ${entry} (${fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').replace(/\0/g, ' ').slice(0, 120)})`,
				);
		} catch {
			/* gone, or not ours to read */
		}
	}
	return alive;
}

async function build(t) {
	// Beside the suites' own folders, under the run's folder (the closing token check covers it).
	const root = path.join(path.dirname(t.root), `queue-cluster-${t.major}`);
	fs.mkdirSync(root, { recursive: true });
	const pids = [];
	const packed = withoutCancelSignal()
		? await packWithoutCancelSignal(path.join(root, 'pack-patched'))
		: t.packed;
	t.say(
		`package ${path.basename(packed.tarball)}${packed.patched ? ` from a patched copy (${packed.patched}: no cancel signal)` : ''}`,
	);
	const crew = await startCrewService({ logFile: path.join(root, 'crew-service.log') });
	pids.push({ name: 'crew-service', pid: crew.proc.pid });
	const workflows = Object.fromEntries(
		Object.entries(WORKFLOW_FILES).map(([key, file]) => [
			key,
			JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, file), 'utf8')),
		]),
	);
	const port = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const tokens = {
		organization: crew.tokens.organization,
		user: crew.tokens.user,
		wrong: `wrong-tok-${crypto.randomBytes(8).toString('hex')}`,
	};
	const cluster = await startCluster({
		major: t.major,
		root,
		packed,
		workers: WORKERS,
		concurrency: CONCURRENCY,
		credentials: credentialsFor(crew.url, tokens),
		workflows: Object.values(workflows),
		// The resume URL a worker builds must point at main, which takes the crews' calls.
		env: { WEBHOOK_URL: `${baseUrl}/` },
		mainEnv: { N8N_PORT: String(port) },
		log: (m) => t.say(m),
		onProcess: (name, proc) => pids.push({ name, pid: proc.pid }),
	});
	const webhookUrl = (key) =>
		`${baseUrl}/webhook/${workflows[key].nodes.find((n) => n.type === 'n8n-nodes-base.webhook').parameters.path}`;
	return {
		...cluster,
		root,
		crew,
		pids,
		workflows,
		baseUrl,
		webhookUrl,
		decode: decoderFor(cluster.layout),
		slots: WORKERS * CONCURRENCY,
		WORKERS,
		CONCURRENCY,
	};
}

/** The run's queue stack, built on the first call (as a check of the calling suite). */
async function queueCluster(t) {
	if (!building) {
		// Built even when --grep leaves this check out: the checks it selects need the stack.
		const started = Date.now();
		let failure = null;
		try {
			building = await build(t);
			t.say(
				`n8n ${building.layout.version}; main ${building.baseUrl}; run data decoded with ${building.decode.from}`,
			);
		} catch (err) {
			failure = err;
			building = 'failed';
		}
		t.report.record(
			`n8n ${t.version}`,
			`queue mode up: redis, n8n main + ${WORKERS} workers (concurrency ${CONCURRENCY}), shared sqlite, package on every process, the queue workflows published`,
			failure,
			Date.now() - started,
		);
	}
	return building === 'failed' ? null : building;
}

/**
 * Called by each queue suite at its end: after the last of the selected queue suites, stops
 * every process of the stack and checks that each is gone.
 */
async function releaseQueueCluster(t, suiteName) {
	done.add(suiteName);
	const selected = QUEUE_SUITES.filter((name) => !t.opts.only || t.opts.only.includes(name));
	if (!selected.every((name) => done.has(name)) || !building || building === 'failed') return;
	const cluster = building;
	building = 'failed';
	const t0 = Date.now();
	for (const { pid } of cluster.pids) {
		const proc = procs.live.get(pid);
		if (proc) await procs.stop(proc);
	}
	await t.check(
		`every queue process torn down by its own pid (${cluster.pids.map((p) => `${p.name} ${p.pid}`).join(', ')})`,
		async () => {
			// A process killed a moment ago may not have been reaped yet: wait for that, with a hang guard.
			await until(
				'every queue process gone',
				async () => leftovers(cluster.pids, cluster.root).length === 0,
				10000,
			).catch(() => {});
			assert.deepEqual(leftovers(cluster.pids, cluster.root), [], 'still running');
			t.say(`stopped in ${secs(Date.now() - t0)}`);
		},
	);
}

module.exports = { queueCluster, releaseQueueCluster, QUEUE_SUITES, withoutCancelSignal };
