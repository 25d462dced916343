'use strict';
// The e2e runner's core: loads the suites (test/e2e/suites/*.js, contract in suites/README.md),
// builds one stack per n8n major — the n8n user folder with the package, credentials and every
// suite's workflows imported once, the reference service, the scripted model, one `n8n start`
// signed in over REST, Chromium — shared by that major's suites, runs the majors side by side,
// records one line per check and a table per suite, and ends with the token check over every
// n8n log and database of the run.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const procs = require('./procs');
const { prepare } = require('./stack');
const { versionInfo } = require('./install');
const { freePort } = require('./n8n');
const { restClient, runManually, publish } = require('./rest');
const { startScriptedModel } = require('./scriptedModel');
const { assertNoToken, leakedTokens } = require('./tokens');
const { secs, say } = require('./report');
const fixtures = require('./fixtures');
const { resolveOptions } = require('../../crew-service/options');
const { waitForWebhook } = require('./webhookReady');
const { until } = require('./until');

const SUITES_DIR = path.join(__dirname, '..', 'suites');

// The scripted model's credential, in every shared stack whose suites need the model.
const { OPENAI_CREDENTIAL } = fixtures;

// What the reference service is set back to before each suite (and by t.resetService): the
// service's own defaults (test/crew-service/options.js) for every option a suite may change,
// then the suite's `service`. Not host, port, tokens (fixed for the run) nor plan and now.
const CONFIGURABLE = ['inputs', 'inputsShape', 'recordShape', 'statusPaths', 'errorShape', 'durationMs', 'webhookTargets', 'eventStream', 'flowFeedback', 'dialect', 'deployment', 'chat', 'registrationLagReads', 'registrationDelayMs', 'coldStartMs'];
const SERVICE_BASE = Object.fromEntries(Object.entries(resolveOptions()).filter(([key]) => CONFIGURABLE.includes(key)));

/** Every suite module, in file-name order; each checked against the contract. */
/**
 * The suites, in file-name order; with `only`, just those (their files alone are loaded, so
 * `--only queue` needs none of the modules another suite requires, such as the MCP SDK).
 */
function loadSuites(dir = SUITES_DIR, only = undefined) {
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.js') && (!only || only.includes(f.slice(0, -3))))
		.sort()
		.map((f) => {
			const where = `suites/${f}`;
			let suite;
			try {
				suite = require(path.join(dir, f));
			} catch (err) {
				// A package of the e2e folder's own package.json, not installed: say how to install it.
				if (err.code === 'MODULE_NOT_FOUND' && !/^[./]/.test(String(err.message).split("'")[1] ?? '')) {
					err.message = `${where}: ${err.message.split('\n')[0]}; install the e2e folder's packages: npm ci --prefix test/e2e --no-audit --no-fund`;
				}
				throw err;
			}
			assert.equal(suite.name, f.slice(0, -3), `${where}: name must be the file name`);
			assert.ok(typeof suite.title === 'string' && suite.title, `${where}: title`);
			assert.ok(Array.isArray(suite.majors) && suite.majors.every((m) => ['1', '2'].includes(m)), `${where}: majors ['1', '2']`);
			assert.equal(typeof suite.run, 'function', `${where}: run(t)`);
			return { needs: {}, ...suite };
		});
}

/** Results of the whole run, one entry per check; the table and the closing line. */
function createResults() {
	const checks = [];
	const suites = [];
	return {
		checks,
		suites,
		record({ suite, major, label, name, err, ms }) {
			checks.push({ suite, major, name, err });
			if (!err) return say(`ok - [${label}] ${name} (${secs(ms)})`);
			say(`not ok - [${label}] ${name} (${secs(ms)})`);
			say(`    ${String((err && (err.stack && !err.message ? err.stack : err.message)) || err).split('\n').join('\n    ')}`);
		},
		table() {
			const rows = suites.map((s) => {
				const mine = checks.filter((c) => c.suite === s.suite && c.major === s.major);
				const failed = mine.filter((c) => c.err).length;
				return [s.suite, s.major, String(mine.length - failed), String(failed), (s.ms / 1000).toFixed(0)];
			});
			const head = ['suite', 'n8n', 'passed', 'failed', 'seconds'];
			const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
			const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
			say(line(head));
			for (const r of rows) say(line(r));
		},
		finish(t0) {
			const failed = checks.filter((c) => c.err).length;
			say(`total ${secs(Date.now() - t0)}`);
			say(`${checks.length - failed} passed, ${failed} failed`);
			return failed || !checks.length ? 1 : 0;
		},
	};
}

/**
 * One n8n major's shared stack, built on first use (by the first suite that needs it):
 * prepare() with every lane suite's workflows, the scripted model and its credential, then
 * `n8n start`, the owner, and the REST client.
 */
function createLane({ major, suites, root, packed, opts }) {
	const lane = { major, version: versionInfo(major).version };
	let building;
	lane.stack = () => {
		if (!building) building = build();
		return building;
	};
	async function build() {
		const t0 = Date.now();
		const model = suites.some((s) => s.needs.model) ? await startScriptedModel() : null;
		// The port is chosen before the workflows are made, so that they can name n8n's own URLs
		// (a Crew Webhook URL, a resume URL's base); WEBHOOK_URL makes n8n build them the same.
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const owners = {};
		const byKey = {};
		const shared = suites.filter((s) => s.needs.server);
		for (const suite of shared) {
			if (!suite.workflows) continue;
			byKey[suite.name] = suite.workflows(fixtures, { major, model, baseUrl });
			for (const wf of Object.values(byKey[suite.name])) {
				assert.ok(wf.id, `suite ${suite.name}: a workflow without an id (${wf.name})`);
				assert.ok(!owners[wf.id] || owners[wf.id] === suite.name, `workflow id ${wf.id} is used by suites ${owners[wf.id]} and ${suite.name}`);
				owners[wf.id] = suite.name;
			}
		}
		const stack = await prepare({
			major,
			root: path.join(root, `shared-${major}`),
			packed,
			withPackage: !opts.withoutPackage,
			log: (m) => say(`  [n8n ${lane.version}] ${m}`),
			// A suite's Crew API credentials (e.g. with callback secrets) go in before the organization
			// credential, which new nodes in the editor must keep getting.
			moreCredentials: ({ crewUrl, tokens }) => shared.flatMap((suite) => (suite.credentials ? suite.credentials({ major, model, baseUrl, tokens, crewUrl }) : [])),
			editWorkflows: (workflows) => {
				for (const k of Object.keys(workflows)) delete workflows[k];
				Object.assign(workflows, ...Object.values(byKey).map((w) => Object.fromEntries(Object.values(w).map((wf) => [wf.id, wf]))));
			},
		});
		const credentials = model ? [{ ...OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-scripted-e2e', url: model.url } }] : [];
		if (credentials.length) await stack.n8n.importCredentials(credentials);
		// n8n 2.x lets Read/Write Files from Disk read only under N8N_RESTRICT_FILE_ACCESS_TO (default
		// ~/.n8n-files, outside the run's folder): a folder of the run's own, where a suite writes the
		// files its workflows read (t.filesDir). 1.x gets the same; no other node reads from disk here.
		const filesDir = path.join(root, `shared-${major}`, 'files');
		fs.mkdirSync(filesDir, { recursive: true });
		const env = { N8N_PORT: String(port), WEBHOOK_URL: `${baseUrl}/`, N8N_RESTRICT_FILE_ACCESS_TO: filesDir };
		await stack.n8n.start({ env });
		await stack.n8n.setupOwner();
		const rest = await restClient(stack.n8n.server.url);
		/** Stops and starts the shared n8n on the same port and user folder; signs in again. */
		const restart = async () => {
			await stack.n8n.stop();
			await stack.n8n.start({ env });
			// n8n 1.x answers readiness before its REST routes exist: 404 (or 503) means "not yet".
			const signedIn = await until('n8n\'s REST API back after the restart', () =>
				restClient(stack.n8n.server.url).catch((err) => {
					if (/: (404|503) /.test(err.message)) return null;
					throw err;
				}),
			90000, 1000);
			Object.assign(rest, signedIn);
		};
		say(`  [n8n ${lane.version}] shared stack ready in ${secs(Date.now() - t0)}: ${stack.n8n.server.url}, crew service ${stack.crew.url}`);
		return { ...stack, model, rest, restart, baseUrl, filesDir, workflowsBySuite: byKey };
	}
	let browser;
	lane.browser = async () => {
		if (!browser) browser = require('./browser').launch();
		return browser;
	};
	lane.close = async () => {
		if (building) {
			const stack = await building.catch(() => null);
			building = Promise.reject(new Error(`the shared n8n ${lane.version} was stopped after the last suite declared to need it`));
			building.catch(() => {});
			if (stack) {
				await stack.n8n.stop();
				await stack.crew.stop();
				if (stack.model) await stack.model.close();
			}
		}
		if (browser) {
			const closing = browser;
			browser = undefined;
			await (await closing.catch(() => null))?.close().catch(() => {});
		}
	};
	return lane;
}

/** The `t` a suite's run(t) gets (see suites/README.md). */
async function suiteContext({ suite, lane, results, root, packed, opts, whenAlone }) {
	const label = `${suite.name}, n8n ${lane.version}`;
	const grep = opts.grep && opts.grep.toLowerCase();
	const counted = { ran: 0 };
	const check = async (name, fn, { label: own } = {}) => {
		if (grep && !name.toLowerCase().includes(grep)) return false;
		counted.ran += 1;
		const started = Date.now();
		try {
			await fn();
			results.record({ suite: suite.name, major: lane.major, label: own || label, name, err: null, ms: Date.now() - started });
			return true;
		} catch (err) {
			results.record({ suite: suite.name, major: lane.major, label: own || label, name, err, ms: Date.now() - started });
			return false;
		}
	};
	const t = {
		major: lane.major,
		version: lane.version,
		label,
		opts,
		packed,
		root: path.join(root, `${suite.name}-${lane.major}`),
		say: (line) => say(`  [${label}] ${line}`),
		check,
		counted,
		// Resolves once the majors' lanes have ended (at once for a suite in one of them): a check
		// that measures ratios of time awaits it, so that no other lane's load bends its figures.
		whenAlone: () => whenAlone,
		// For suites written before this harness: their (label, name, fn) report calls.
		report: {
			check: (l, name, fn) => check(name, fn, { label: `${suite.name}, ${l}` }),
			record: (l, name, err, ms) => {
				if (grep && !name.toLowerCase().includes(grep)) return;
				counted.ran += 1;
				results.record({ suite: suite.name, major: lane.major, label: `${suite.name}, ${l}`, name, err, ms: ms || 0 });
			},
		},
	};
	if (suite.needs.server) {
		const stack = await lane.stack();
		Object.assign(t, {
			n8n: stack.n8n,
			rest: stack.rest,
			crew: stack.crew,
			tokens: stack.tokens,
			model: stack.model,
			installedAt: stack.installedAt,
			baseUrl: stack.baseUrl,
			filesDir: stack.filesDir,
			restartN8n: stack.restart,
			workflows: stack.workflowsBySuite[suite.name] || {},
		});
		t.resetService = async (overrides = {}) => {
			await stack.crew.reset();
			await stack.crew.configure({ ...SERVICE_BASE, ...(suite.service || {}), ...overrides });
			if (stack.model) stack.model.reset();
		};
		t.assertNoToken = (text, where) => assertNoToken(text, stack.tokens, where);
		t.run = (key, { timeoutMs } = {}) => runManually({ n8n: stack.n8n, rest: stack.rest, workflowId: (t.workflows[key] || { id: key }).id, timeoutMs });
		t.served = (webhookPath, method = 'POST') => waitForWebhook(stack.n8n.server.url, webhookPath, method, stack.n8n.server.proc);
		t.publish = (key) => publish({ n8n: stack.n8n, rest: stack.rest, workflowId: (t.workflows[key] || { id: key }).id });
		// Every workflow of the suite published, each first node's webhook (parameters.path) served.
		t.publishAll = async () => {
			for (const [key, wf] of Object.entries(t.workflows)) {
				await t.publish(key);
				if (wf.nodes[0].parameters.path) await t.served(wf.nodes[0].parameters.path);
			}
		};
		t.execute = (key, o) => stack.n8n.execute((t.workflows[key] || { id: key }).id, o);
		await t.resetService();
	}
	if (suite.needs.browser) t.browser = await lane.browser();
	return t;
}

/** Runs one major's suites in order; each suite's time and checks go to results. */
async function runLane({ lane, suites, results, root, packed, opts, whenAlone = Promise.resolve() }) {
	// The suites on the shared n8n first; it is stopped after the last of them, so that it does
	// not take the machine's memory and cores while suites with their own stack run.
	const ordered = [...suites.filter((s) => s.needs.server), ...suites.filter((s) => !s.needs.server)];
	const lastShared = ordered.filter((s) => s.needs.server).at(-1);
	try {
		for (const suite of ordered) {
			const started = Date.now();
			say(`# ${suite.title} (${suite.name}), n8n ${lane.version}`);
			try {
				const t = await suiteContext({ suite, lane, results, root, packed, opts, whenAlone });
				await suite.run(t);
			} catch (err) {
				results.record({ suite: suite.name, major: lane.major, label: `${suite.name}, n8n ${lane.version}`, name: 'the suite ran to its end', err, ms: Date.now() - started });
			}
			results.suites.push({ suite: suite.name, major: lane.major, ms: Date.now() - started });
			if (suite === lastShared) await lane.close();
		}
	} finally {
		await lane.close();
	}
}

/** The whole run; returns the exit code. */
async function runAll(opts, { pack }) {
	const t0 = Date.now();
	const results = createResults();
	const root = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'n8n-crewai-e2e-'));
	const all = loadSuites(SUITES_DIR, opts.only);
	if (opts.only) for (const name of opts.only) if (!all.some((s) => s.name === name)) throw new Error(`--only: no suite "${name}" (see --list)`);
	try {
		let packed;
		try {
			packed = await pack(path.join(root, 'pack'));
			say(`packed ${path.basename(packed.tarball)} (${packed.files.length} files)`);
		} catch (err) {
			results.record({ suite: 'setup', major: '-', label: 'setup', name: 'npm pack of the package', err, ms: 0 });
		}
		if (packed) {
			const laneOf = (major, suites) => ({ lane: createLane({ major, suites, root, packed, opts }), suites });
			const go = ({ lane, suites }, whenAlone) => runLane({ lane, suites, results, root, packed, opts, whenAlone });
			const lanes = opts.majors.map((major) => laneOf(major, all.filter((s) => s.majors.includes(major) && !s.alone)));
			// The suites with a stack of their own (queue mode's Redis, main and workers), one major at a
			// time, in a lane beside the majors' lanes: most of their time is spent waiting on crews.
			// Their checks that measure ratios of time first await t.whenAlone(), the end of the majors'
			// lanes, so that no other lane's load bends their figures.
			const ownLanes = opts.majors.map((major) => laneOf(major, all.filter((s) => s.majors.includes(major) && s.alone))).filter((l) => l.suites.length > 0);
			if (opts.serial) {
				for (const l of [...lanes, ...ownLanes]) await go(l);
			} else {
				let lanesEnded;
				const whenAlone = new Promise((resolve) => (lanesEnded = resolve));
				const majors = Promise.allSettled(lanes.map((l) => go(l))).finally(lanesEnded);
				const own = (async () => {
					// Started once the shared stacks are up, so that the own stacks' n8n processes do
					// not start in the same seconds as theirs.
					await Promise.allSettled(lanes.filter((l) => l.suites.some((s) => s.needs.server)).map((l) => l.lane.stack()));
					for (const l of ownLanes) await go(l, whenAlone);
				})();
				for (const settled of await Promise.allSettled([majors, own])) if (settled.status === 'rejected') throw settled.reason;
				for (const settled of await majors) if (settled.status === 'rejected') throw settled.reason;
			}
			const started = Date.now();
			const leaks = leakedTokens(root);
			results.record({
				suite: 'tokens',
				major: opts.majors.join(','),
				label: 'tokens',
				name: 'no crew token in clear in any n8n log or database of the run',
				err: leaks.length ? new Error(leaks.map((l) => `the ${l.kind} token appears in ${l.file}`).join('\n')) : null,
				ms: Date.now() - started,
			});
		}
	} finally {
		await procs.stopAll();
		if (opts.keep) say(`kept ${root}`);
		else fs.rmSync(root, { recursive: true, force: true });
	}
	results.table();
	return results.finish(t0);
}

module.exports = { loadSuites, runAll, SERVICE_BASE, OPENAI_CREDENTIAL, SUITES_DIR };
