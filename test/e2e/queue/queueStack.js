'use strict';
// n8n in queue mode on one machine, offline: Redis (Debian's redis-server, no persistence)
// on a free loopback port, one `n8n start` (main: webhooks, REST, enqueues executions) and
// `n8n worker` processes (they run the executions), all on ONE shared sqlite file, the same
// encryption key, each with its own user folder (the package installed in each, as n8n
// installs a community package) and its own task-broker port. Every process is started by
// lib/procs.js as its own process-group leader and stopped by its pid.
//
// The recipe: n8n's queue mode as test/e2e/queue/README.md describes it.

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const procs = require('../lib/procs');
const pkg = require('../lib/pkg');
const { N8n, freePort, OWNER } = require('../lib/n8n');
const { ensureN8n } = require('../lib/install');
const { waitForWebhook } = require('../lib/webhookReady');
const { publish } = require('../lib/rest');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Debian's redis-server, installed when missing (needs root: the machines here run as root). */
async function ensureRedis({ log = () => {} } = {}) {
	const found = await procs.run('sh', ['-c', 'command -v redis-server'], { timeoutMs: 10000 });
	if (found.code === 0) return found.stdout.trim();
	log('redis-server not found: apt-get install -y --no-install-recommends redis-server');
	const r = await procs.run(
		'sh',
		[
			'-c',
			'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server',
		],
		{ timeoutMs: 300000, name: 'apt-get redis-server' },
	);
	if (r.code !== 0)
		throw new Error(`installing redis-server failed (exit ${r.code}):\n${procs.tail(r.output)}`);
	const again = await procs.run('sh', ['-c', 'command -v redis-server'], { timeoutMs: 10000 });
	if (again.code !== 0) throw new Error('redis-server is still not on PATH after apt-get install');
	return again.stdout.trim();
}

/** redis-server on a free 127.0.0.1 port: no RDB snapshots, no AOF, its dir a temp folder. */
async function startRedis({ dir, logFile }) {
	fs.mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const proc = procs.start(
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			dir,
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
		],
		{ name: 'redis-server', logFile },
	);
	await proc.waitFor(/Ready to accept connections/, 20000);
	return { proc, port, host: '127.0.0.1' };
}

/**
 * An n8n (lib/n8n.js) whose every command also gets the queue-mode settings shared by
 * all processes of the cluster: one Redis, one sqlite file, queue mode.
 */
class QueueN8n extends N8n {
	constructor(layout, root, shared, role) {
		super(layout, root);
		this.shared = shared;
		this.role = role;
	}

	async env(extra = {}) {
		return super.env({ ...this.shared, ...extra });
	}

	/** `n8n worker --concurrency=C`; resolves when its health server answers /healthz/readiness. */
	async startWorker({ concurrency, timeoutMs = 180000 }) {
		const healthPort = await freePort();
		const env = await this.env({
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		});
		const proc = procs.start(
			this.layout.nodeBin,
			[this.layout.n8nBin, 'worker', `--concurrency=${concurrency}`],
			{
				env,
				cwd: this.root,
				name: `n8n ${this.role}`,
				logFile: this.logFile(this.role),
			},
		);
		const url = `http://127.0.0.1:${healthPort}`;
		await waitHttp200(`${url}/healthz/readiness`, proc, `n8n ${this.role}`, timeoutMs);
		this.server = { proc, url, port: healthPort };
		return this.server;
	}
}

async function waitHttp200(url, proc, name, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (proc.done) throw new Error(`${name} exited early:\n${procs.tail(proc.output())}`);
		try {
			const res = await fetch(url);
			if (res.status === 200) return;
		} catch {
			/* not listening yet */
		}
		if (Date.now() > deadline)
			throw new Error(`${name} not ready within ${timeoutMs} ms:\n${procs.tail(proc.output())}`);
		await sleep(500);
	}
}

/**
 * The whole cluster, ready to take webhook calls.
 * @param {object} o
 * @param {string} o.major
 * @param {string} o.root          a fresh folder
 * @param {object} o.packed        pkg.pack() result (or a pack of a patched copy)
 * @param {number} o.workers       how many `n8n worker` processes
 * @param {number} o.concurrency   each worker's --concurrency
 * @param {object[]} o.credentials in n8n's import format
 * @param {object[]} o.workflows   workflow objects to import and publish
 * @param {object} [o.env]         more settings for every process (e.g. WEBHOOK_URL)
 * @param {object} [o.mainEnv]     more settings for main only (e.g. a fixed N8N_PORT)
 * @param {(m:string)=>void} [o.log]
 * @param {(name:string, proc:object)=>void} [o.onProcess] told of every long-running process
 */
async function startCluster({
	major,
	root,
	packed,
	workers,
	concurrency,
	credentials,
	workflows,
	env = {},
	mainEnv = {},
	log = () => {},
	onProcess = () => {},
}) {
	const layout = await ensureN8n(major, { log });
	await ensureRedis({ log });
	const redis = await startRedis({
		dir: path.join(root, 'redis'),
		logFile: path.join(root, 'redis.log'),
	});
	onProcess('redis-server', redis.proc);
	log(`redis-server on 127.0.0.1:${redis.port} (pid ${redis.proc.pid})`);

	const dbFile = path.join(root, 'shared', 'database.sqlite');
	fs.mkdirSync(path.dirname(dbFile), { recursive: true });
	const shared = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'sqlite',
		DB_SQLITE_DATABASE: dbFile,
		// A worker asked to shut down waits this long for running executions (default 30 s).
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		...env,
	};
	const main = new QueueN8n(layout, path.join(root, 'main'), shared, 'main');
	const workerNodes = Array.from(
		{ length: workers },
		(_, i) => new QueueN8n(layout, path.join(root, `worker-${i + 1}`), shared, `worker-${i + 1}`),
	);
	for (const n of [main, ...workerNodes]) await pkg.installInto(n.userFolder, packed);
	log(`installed ${packed.name}@${packed.version} into main and ${workers} worker user folders`);

	// Credentials and workflows go into the shared database before anything runs; they are
	// published over REST once main is up (one `n8n publish:workflow` per workflow was an n8n
	// start each, about 20 s apiece on a loaded machine).
	await main.importCredentials(credentials);
	await main.importWorkflows(workflows);
	log(`imported ${credentials.length} credentials and ${workflows.length} workflow(s)`);

	const t0 = Date.now();
	const [mainServer, ...workerServers] = await Promise.all([
		main.start({ env: mainEnv }).then((s) => (onProcess('n8n main', s.proc), s)),
		...workerNodes.map((w) =>
			w.startWorker({ concurrency }).then((s) => (onProcess(`n8n ${w.role}`, s.proc), s)),
		),
	]);
	log(
		`main ${mainServer.url} (pid ${mainServer.proc.pid}); ${workerServers.map((s, i) => `worker-${i + 1} pid ${s.proc.pid}`).join(', ')}; ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
	);
	const rest = await ownerSession(mainServer.url);
	for (const wf of workflows) await publish({ n8n: { major }, rest, workflowId: wf.id });
	log(`${workflows.length} workflow(s) published`);
	// /healthz/readiness answers before n8n has activated the published workflows.
	for (const wf of workflows) {
		for (const node of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.webhook')) {
			await waitForWebhook(
				mainServer.url,
				node.parameters.path,
				node.parameters.httpMethod || 'GET',
				mainServer.proc,
			);
		}
	}
	log(`webhooks registered ${((Date.now() - t0) / 1000).toFixed(1)} s after the start`);
	return { layout, redis, main, workers: workerNodes, rest, dbFile, mainEnv };
}

/**
 * Creates the owner over REST (POST /rest/owner/setup) and keeps its `n8n-auth` cookie.
 * Returns a small client for /rest/... calls as that owner.
 */
async function ownerSession(baseUrl, owner = OWNER) {
	const browserId = 'n8n-nodes-crewai-queue-e2e';
	const deadline = Date.now() + 90000;
	let res;
	for (;;) {
		res = await fetch(`${baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': browserId },
			body: JSON.stringify(owner),
		});
		if (res.ok) break;
		if (res.status !== 404 || Date.now() > deadline)
			throw new Error(`POST /rest/owner/setup: ${res.status} ${await res.text()}`);
		await sleep(1000);
	}
	const cookie = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('POST /rest/owner/setup set no n8n-auth cookie');
	const call = async (method, route, body) => {
		const r = await fetch(`${baseUrl}/rest/${route}`, {
			method,
			headers: {
				cookie,
				'browser-id': browserId,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await r.text();
		if (!r.ok) throw new Error(`${method} /rest/${route}: ${r.status} ${text.slice(0, 500)}`);
		const json = text ? JSON.parse(text) : null;
		return json && typeof json === 'object' && 'data' in json ? json.data : json;
	};
	return {
		cookie,
		owner,
		get: (route) => call('GET', route),
		post: (route, body) => call('POST', route, body ?? {}),
		patch: (route, body) => call('PATCH', route, body ?? {}),
	};
}

/** Parses one RESP reply from buf at i: [value, next index], or null while incomplete. */
function parseResp(buf, i = 0) {
	const eol = buf.indexOf('\r\n', i);
	if (eol < 0) return null;
	const type = String.fromCharCode(buf[i]);
	const line = buf.toString('utf8', i + 1, eol);
	const next = eol + 2;
	if (type === '+') return [line, next];
	if (type === '-') return [new Error(line), next];
	if (type === ':') return [Number(line), next];
	if (type === '$') {
		const len = Number(line);
		if (len < 0) return [null, next];
		if (buf.length < next + len + 2) return null;
		return [buf.toString('utf8', next, next + len), next + len + 2];
	}
	if (type === '*') {
		const n = Number(line);
		if (n < 0) return [null, next];
		const out = [];
		let at = next;
		for (let k = 0; k < n; k++) {
			const r = parseResp(buf, at);
			if (!r) return null;
			out.push(r[0]);
			at = r[1];
		}
		return [out, at];
	}
	throw new Error(`unexpected RESP reply type ${JSON.stringify(type)}`);
}

/** One command to the Redis on 127.0.0.1:port over a fresh connection (no client library needed). */
function redisCommand(port, ...args) {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1');
		let buf = Buffer.alloc(0);
		socket.setTimeout(5000, () =>
			socket.destroy(new Error(`redis ${args[0]}: no answer within 5 s`)),
		);
		socket.on('error', reject);
		socket.on('data', (chunk) => {
			buf = Buffer.concat([buf, chunk]);
			const r = parseResp(buf);
			if (!r) return;
			socket.end();
			if (r[0] instanceof Error) reject(r[0]);
			else resolve(r[0]);
		});
		socket.write(
			`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(String(a))}\r\n${a}\r\n`).join('')}`,
		);
	});
}

/** Bull job ids a worker is running now (n8n's queue "jobs" under the default prefix "bull"). */
async function activeJobs(port) {
	return (await redisCommand(port, 'LRANGE', 'bull:jobs:active', '0', '-1')).map(String);
}

module.exports = {
	ensureRedis,
	startRedis,
	QueueN8n,
	startCluster,
	ownerSession,
	redisCommand,
	activeJobs,
};
