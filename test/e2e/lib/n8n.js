'use strict';
// One real n8n (from the cache install) with a throwaway user folder: CLI commands
// (import, execute) and `n8n start`, all in a quiet, offline environment.

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const procs = require('./procs');
const { ensureN8n } = require('./install');

// The editor login made by setupOwner(); n8n wants 8+ characters, a digit and an upper-case letter.
const OWNER = {
	email: 'crew-e2e@example.com',
	firstName: 'Crew',
	lastName: 'Tester',
	password: 'Crew-e2e-2025',
};

// Fixed so that a user folder made by one command can be read by the next.
const ENCRYPTION_KEY = 'n8n-nodes-crewai-e2e-encryption-key';

/** Linux's range for the local ports of outgoing connections (and of listen(0)). */
function ephemeralRange() {
	try {
		const [low, high] = fs
			.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
			.trim()
			.split(/\s+/)
			.map(Number);
		if (low > 0 && high >= low) return { low, high };
	} catch {
		/* not Linux: the IANA range */
	}
	return { low: 49152, high: 65535 };
}

function canListen(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

const handedOut = new Set();

/**
 * A loopback port free now, for a process started next. Taken below the ephemeral range: a port
 * from listen(0) comes from the range the OS also draws outgoing connections' local ports from,
 * so a Redis or HTTP client could take it before the process binds it (seen: a worker restarted
 * in the queue test found its health port "already in use"). Never the same port twice here.
 */
async function freePort() {
	const { low } = ephemeralRange();
	const floor = 10000;
	// A machine whose ephemeral range starts low leaves nothing below it: any port then.
	const [from, span] = low - floor >= 1000 ? [floor, low - floor] : [1024, 65535 - 1024];
	for (let attempt = 0; attempt < 200; attempt++) {
		const port = from + Math.floor(Math.random() * span);
		if (handedOut.has(port)) continue;
		if (await canListen(port)) {
			handedOut.add(port);
			return port;
		}
	}
	throw new Error('no free loopback port found below the ephemeral range');
}

// Settings that keep n8n off the network and its logs short. Every one of them is a
// documented n8n environment variable; unknown ones are ignored by older versions.
const QUIET_OFFLINE = {
	N8N_DIAGNOSTICS_ENABLED: 'false', // telemetry (PostHog, RudderStack)
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false', // "new version" check
	N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false', // templates gallery
	N8N_PERSONALIZATION_ENABLED: 'false', // onboarding survey
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_DYNAMIC_BANNERS_ENABLED: 'false', // banners fetched from n8n's API
	N8N_VERIFIED_PACKAGES_ENABLED: 'false', // list of vetted community nodes from n8n's API
	N8N_LICENSE_AUTO_RENEW_ENABLED: 'false', // license server
	N8N_AI_ENABLED: 'false',
	N8N_METRICS: 'false',
	N8N_SENTRY_DSN: '',
	N8N_FRONTEND_SENTRY_DSN: '',
	EXTERNAL_FRONTEND_HOOKS_URLS: '',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
	N8N_HOST: '127.0.0.1',
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
	N8N_SECURE_COOKIE: 'false',
	N8N_LOG_LEVEL: 'info',
	N8N_LOG_OUTPUT: 'console',
	GENERIC_TIMEZONE: 'UTC',
	TZ: 'UTC',
	DB_TYPE: 'sqlite',
	DB_SQLITE_POOL_SIZE: '2',
	NO_COLOR: '1',
};

// Per major: what that line of n8n needs on this machine.
const PER_MAJOR = {
	// mcp-registry reaches out to the internet at start.
	2: { N8N_DISABLED_MODULES: 'mcp-registry', N8N_PYTHON_ENABLED: 'false' }, // no Python runner: its venv is not installed
	// 1.x's default expression engine needs a native addon that --ignore-scripts does not build.
	1: { N8N_EXPRESSION_ENGINE: 'legacy', N8N_RUNNERS_ENABLED: 'true' },
};

class N8n {
	/**
	 * @param {string|number} major
	 * @param {string} root a fresh folder for this instance (user folder, logs, temp files)
	 */
	constructor(layout, root) {
		this.layout = layout;
		this.major = layout.major;
		this.version = layout.version;
		this.root = root;
		this.userFolder = path.join(root, 'user');
		this.logDir = path.join(root, 'logs');
		fs.mkdirSync(path.join(this.userFolder, '.n8n', 'nodes'), { recursive: true });
		fs.mkdirSync(this.logDir, { recursive: true });
		this.seq = 0;
	}

	static async create(major, root, { log } = {}) {
		const layout = await ensureN8n(major, { log });
		return new N8n(layout, root);
	}

	async env(extra = {}) {
		const base = {};
		// Nothing of the caller's own n8n configuration leaks in.
		for (const [k, v] of Object.entries(process.env)) {
			if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|NODES_|WEBHOOK_URL$|NODE_OPTIONS$|NODE_PATH$)/.test(k))
				continue;
			base[k] = v;
		}
		const nodeDir = path.dirname(this.layout.nodeBin);
		return {
			...base,
			PATH: nodeDir + path.delimiter + (process.env.PATH || ''),
			...QUIET_OFFLINE,
			...(PER_MAJOR[this.major] || {}),
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			N8N_PORT: String(await freePort()),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			...extra,
		};
	}

	/** Everything this n8n's processes logged so far (the crew service's log beside them left out). */
	loggedText() {
		return fs
			.readdirSync(this.logDir)
			.filter((f) => f.endsWith('.log') && !/^crew-service/.test(f))
			.map((f) => fs.readFileSync(path.join(this.logDir, f), 'utf8'))
			.join('\n');
	}

	logFile(name) {
		this.seq += 1;
		return path.join(
			this.logDir,
			`${String(this.seq).padStart(2, '0')}-${name.replace(/[^\w.-]+/g, '_')}.log`,
		);
	}

	/** Runs `n8n <args>` to its end. */
	async cli(args, { timeoutMs = 180000, env = {}, name } = {}) {
		const label = name || args[0];
		return procs.run(this.layout.nodeBin, [this.layout.n8nBin, ...args], {
			env: await this.env(env),
			cwd: this.root,
			name: `n8n ${label}`,
			logFile: this.logFile(label),
			timeoutMs,
		});
	}

	async mustCli(args, opts) {
		const r = await this.cli(args, opts);
		if (r.code !== 0)
			throw new Error(
				`n8n ${args.join(' ')} failed (exit ${r.code}${r.timedOut ? ', timed out' : ''}):\n${procs.tail(r.output)}`,
			);
		return r;
	}

	async importCredentials(credentials) {
		const file = path.join(this.root, `credentials-${Date.now()}.json`);
		fs.writeFileSync(file, JSON.stringify(credentials, null, 2));
		try {
			return await this.mustCli(['import:credentials', `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true }); // holds tokens in clear
		}
	}

	/** Imports workflow objects (each with its own fixed id). */
	async importWorkflows(workflows) {
		const dir = path.join(this.root, `workflows-${Date.now()}`);
		fs.mkdirSync(dir);
		for (const wf of workflows)
			fs.writeFileSync(path.join(dir, `${wf.id}.json`), JSON.stringify(wf, null, 2));
		return this.mustCli(['import:workflow', '--separate', `--input=${dir}`]);
	}

	/** `n8n execute --id=ID --rawOutput`: the run as n8n reports it. */
	async execute(id, { timeoutMs = 180000 } = {}) {
		const r = await this.cli(['execute', `--id=${id}`, '--rawOutput'], {
			timeoutMs,
			name: `execute-${id}`,
		});
		const run = extractRunJson(r.stdout);
		// Seen on n8n 2.41 (Node 24) under load: the process dies by SIGSEGV after it printed the
		// finished run. The run is n8n's own report of a finished execution: taken as the exit 0 it
		// would have been, the crash named in crashedAfterRun (and in n8n's log file).
		if (
			r.code === null &&
			r.signal &&
			!r.timedOut &&
			run &&
			run.finished === true &&
			run.status === 'success'
		) {
			return { ...r, code: 0, crashedAfterRun: r.signal, run };
		}
		return { ...r, run };
	}

	/** `n8n start` on a free loopback port; resolves when /healthz/readiness answers 200. */
	async start({ env = {}, timeoutMs = 180000 } = {}) {
		const fullEnv = await this.env(env);
		const port = Number(fullEnv.N8N_PORT);
		const proc = procs.start(this.layout.nodeBin, [this.layout.n8nBin, 'start'], {
			env: fullEnv,
			cwd: this.root,
			name: 'n8n start',
			logFile: this.logFile('start'),
		});
		const url = `http://127.0.0.1:${port}`;
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (proc.done) throw new Error(`n8n start exited early:\n${procs.tail(proc.output())}`);
			try {
				const res = await fetch(`${url}/healthz/readiness`);
				if (res.status === 200) break;
			} catch {
				/* not listening yet */
			}
			if (Date.now() > deadline) {
				await procs.stop(proc);
				throw new Error(
					`n8n start not ready within ${timeoutMs} ms:\n${procs.tail(proc.output())}`,
				);
			}
			await new Promise((r) => setTimeout(r, 500));
		}
		this.server = { proc, url, port };
		return this.server;
	}

	/** Creates the instance owner over REST (what the first visit's setup form does). */
	async setupOwner(owner = OWNER) {
		// n8n 1.x answers /healthz/readiness before its REST routes exist: 404 means "not yet",
		// and so does 503 "Database is not ready!" (seen on 1.123 on a busy machine).
		// A connection refused or reset is "not yet" too (seen on a machine at a load of 35), unless
		// the process has ended.
		const deadline = Date.now() + 90000;
		for (;;) {
			const res = await fetch(`${this.server.url}/rest/owner/setup`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(owner),
			}).catch((err) => {
				if (this.server.proc.done)
					throw new Error(
						`n8n start exited before the owner was set up:\n${procs.tail(this.server.proc.output())}`,
					);
				if (Date.now() > deadline) throw err;
				return { ok: false, status: 503, text: async () => String(err.cause || err.message) };
			});
			if (res.ok) return owner;
			if (![404, 503].includes(res.status) || Date.now() > deadline)
				throw new Error(`POST /rest/owner/setup: ${res.status} ${await res.text()}`);
			await new Promise((r) => setTimeout(r, 1000));
		}
	}

	async stop() {
		if (this.server) await procs.stop(this.server.proc);
		this.server = undefined;
	}
}

/**
 * The run JSON in `n8n execute --rawOutput` output: a pretty-printed object whose first
 * line is "{" and last line "}" (log lines may come before or after it). On a failed run
 * n8n logs the same JSON at info level before the error.
 */
function extractRunJson(text) {
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (lines[i].trimEnd() !== '{') continue;
		for (let j = i + 1; j < lines.length; j++) {
			if (lines[j].trimEnd() !== '}') continue;
			try {
				return JSON.parse(lines.slice(i, j + 1).join('\n'));
			} catch {
				/* a nested "}" line of something else: keep looking */
			}
		}
	}
	return null;
}

module.exports = { N8n, freePort, extractRunJson, ENCRYPTION_KEY, OWNER };
