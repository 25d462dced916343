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
const { versionInfo, layout, isInstalled } = require('./install');
const { freePort } = require('./n8n');
const { restClient, runManually, publish } = require('./rest');
const { startScriptedModel } = require('./scriptedModel');
const { assertNoToken, leakedTokens } = require('./tokens');
const { secs, say } = require('./report');
const fixtures = require('./fixtures');
const { KNOWN_KEYS, resolveOptions } = require('../../crew-service/options');
const { waitForWebhook } = require('./webhookReady');
const { until } = require('./until');

const SUITES_DIR = path.join(__dirname, '..', 'suites');

// The scripted model's credential, in every shared stack whose suites need the model.
const { OPENAI_CREDENTIAL } = fixtures;

// What the reference service is set back to before each suite (and by t.resetService): the
// service's own defaults (test/crew-service/options.js) for every option a suite may change,
// then the suite's `service`. Not host, port, tokens (fixed for the run) nor plan and now.
const FIXED_FOR_THE_RUN = ['host', 'port', 'tokens', 'plan', 'now'];
const CONFIGURABLE = KNOWN_KEYS.filter((key) => !FIXED_FOR_THE_RUN.includes(key));
const SERVICE_BASE = Object.fromEntries(
	Object.entries(resolveOptions()).filter(([key]) => CONFIGURABLE.includes(key)),
);

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
				if (
					err.code === 'MODULE_NOT_FOUND' &&
					!/^[./]/.test(String(err.message).split("'")[1] ?? '')
				) {
					err.message = `${where}: ${err.message.split('\n')[0]}; install the e2e folder's packages: npm ci --prefix test/e2e --no-audit --no-fund`;
				}
				throw err;
			}
			assert.equal(suite.name, f.slice(0, -3), `${where}: name must be the file name`);
			assert.ok(typeof suite.title === 'string' && suite.title, `${where}: title`);
			assert.ok(
				Array.isArray(suite.majors) && suite.majors.every((m) => ['1', '2'].includes(m)),
				`${where}: majors ['1', '2']`,
			);
			assert.equal(typeof suite.run, 'function', `${where}: run(t)`);
			assert.ok(
				suite.seconds === undefined || (Number.isFinite(suite.seconds) && suite.seconds > 0),
				`${where}: seconds, a positive number`,
			);
			return { needs: {}, ...suite };
		});
}

/** Results of the whole run, one entry per check; the table and the closing line. */
function createResults() {
	const checks = [];
	const suites = [];
	const startedAt = Date.now();
	return {
		checks,
		suites,
		/** Seconds since the run started, for the lines that say when a suite or a lane began. */
		at: () => `${Math.round((Date.now() - startedAt) / 1000)} s`,
		record({ suite, major, label, name, err, ms }) {
			checks.push({ suite, major, name, err });
			if (!err) return say(`ok - [${label}] ${name} (${secs(ms)})`);
			say(`not ok - [${label}] ${name} (${secs(ms)})`);
			say(
				`    ${String((err && (err.stack && !err.message ? err.stack : err.message)) || err)
					.split('\n')
					.join('\n    ')}`,
			);
		},
		table() {
			const rows = suites.map((s) => {
				const mine = checks.filter((c) => c.suite === s.suite && c.major === s.major);
				const failed = mine.filter((c) => c.err).length;
				return [
					s.suite,
					s.major,
					String(mine.length - failed),
					String(failed),
					(s.ms / 1000).toFixed(0),
				];
			});
			const head = ['suite', 'n8n', 'passed', 'failed', 'seconds'];
			const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
			const line = (r) =>
				r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
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
 * `n8n start`, the owner, and the REST client. A major has `workers` such lanes, each with a
 * stack of its own (`index` tells them apart); they share the major's Chromium (`browser`).
 */
function createLane({ major, suites, root, packed, opts, index = 1, browser = sharedBrowser() }) {
	const lane = { major, version: versionInfo(major).version, index };
	const name = index === 1 ? `shared-${major}` : `shared-${major}-${index}`;
	const tag = index === 1 ? `n8n ${lane.version}` : `n8n ${lane.version} #${index}`;
	let building;
	lane.stack = () => {
		if (!building) building = build();
		return building;
	};
	/**
	 * The stack; on a failure, what had started of it stopped: the model's server would keep the run
	 * from ending, the n8n and the crew service would hold memory and cores until its end.
	 */
	async function build() {
		const model = suites.some((s) => s.needs.model) ? await startScriptedModel() : null;
		let prepared;
		try {
			return await buildOn(model, (stack) => (prepared = stack));
		} catch (err) {
			await prepared?.n8n.stop().catch(() => {});
			await prepared?.crew.stop().catch(() => {});
			await model?.close().catch(() => {});
			throw err;
		}
	}
	async function buildOn(model, onPrepared) {
		const t0 = Date.now();
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
				assert.ok(
					!owners[wf.id] || owners[wf.id] === suite.name,
					`workflow id ${wf.id} is used by suites ${owners[wf.id]} and ${suite.name}`,
				);
				owners[wf.id] = suite.name;
			}
		}
		const stack = await prepare({
			major,
			root: path.join(root, name),
			packed,
			withPackage: !opts.withoutPackage,
			log: (m) => say(`  [${tag}] ${m}`),
			// A suite's Crew API credentials (e.g. with callback secrets) go in before the organization
			// credential, which new nodes in the editor must keep getting.
			// The scripted model's credential too: another type, so its place in the order does not
			// matter, and one n8n CLI start less than an import of its own.
			moreCredentials: ({ crewUrl, tokens }) => [
				...(model
					? [
							{
								...OPENAI_CREDENTIAL,
								type: 'openAiApi',
								data: { apiKey: 'sk-scripted-e2e', url: model.url },
							},
						]
					: []),
				...shared.flatMap((suite) =>
					suite.credentials ? suite.credentials({ major, model, baseUrl, tokens, crewUrl }) : [],
				),
			],
			editWorkflows: (workflows) => {
				for (const k of Object.keys(workflows)) delete workflows[k];
				Object.assign(
					workflows,
					...Object.values(byKey).map((w) =>
						Object.fromEntries(Object.values(w).map((wf) => [wf.id, wf])),
					),
				);
			},
		});
		onPrepared(stack);
		// n8n 2.x lets Read/Write Files from Disk read only under N8N_RESTRICT_FILE_ACCESS_TO (default
		// ~/.n8n-files, outside the run's folder): a folder of the run's own, where a suite writes the
		// files its workflows read (t.filesDir). 1.x gets the same; no other node reads from disk here.
		const filesDir = path.join(root, name, 'files');
		fs.mkdirSync(filesDir, { recursive: true });
		const env = {
			N8N_PORT: String(port),
			WEBHOOK_URL: `${baseUrl}/`,
			N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
		};
		await stack.n8n.start({ env });
		await stack.n8n.setupOwner();
		const rest = await restClient(stack.n8n.server.url);
		/** Stops and starts the shared n8n on the same port and user folder; signs in again. */
		const restart = async () => {
			await stack.n8n.stop();
			await stack.n8n.start({ env });
			// n8n 1.x answers readiness before its REST routes exist: 404 (or 503) means "not yet".
			const signedIn = await until(
				"n8n's REST API back after the restart",
				() =>
					restClient(stack.n8n.server.url).catch((err) => {
						if (/: (404|503) /.test(err.message)) return null;
						throw err;
					}),
				90000,
				1000,
			);
			Object.assign(rest, signedIn);
		};
		say(
			`  [${tag}] shared stack ready in ${secs(Date.now() - t0)}: ${stack.n8n.server.url}, crew service ${stack.crew.url}`,
		);
		return { ...stack, model, rest, restart, baseUrl, filesDir, workflowsBySuite: byKey };
	}
	lane.browser = browser;
	/** Stops this lane's shared stack (the next suite that asks for it gets an error). */
	lane.closeStack = async () => {
		if (!building) return;
		const stack = await building.catch(() => null);
		building = Promise.reject(
			new Error(
				`the shared n8n ${lane.version} was stopped after the last suite declared to need it`,
			),
		);
		building.catch(() => {});
		if (stack) {
			await stack.n8n.stop();
			await stack.crew.stop();
			if (stack.model) await stack.model.close();
		}
	};
	return lane;
}

/** One Chromium, launched on first use; `close()` stops it. */
function sharedBrowser() {
	let launched;
	const get = async () => {
		if (!launched) launched = require('./browser').launch();
		return launched;
	};
	get.close = async () => {
		if (!launched) return;
		const closing = launched;
		launched = undefined;
		await (await closing.catch(() => null))?.close().catch(() => {});
	};
	return get;
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
			results.record({
				suite: suite.name,
				major: lane.major,
				label: own || label,
				name,
				err: null,
				ms: Date.now() - started,
			});
			return true;
		} catch (err) {
			results.record({
				suite: suite.name,
				major: lane.major,
				label: own || label,
				name,
				err,
				ms: Date.now() - started,
			});
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
				results.record({
					suite: suite.name,
					major: lane.major,
					label: `${suite.name}, ${l}`,
					name,
					err,
					ms: ms || 0,
				});
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
		t.run = (key, { timeoutMs } = {}) =>
			runManually({
				n8n: stack.n8n,
				rest: stack.rest,
				workflowId: (t.workflows[key] || { id: key }).id,
				timeoutMs,
			});
		t.served = (webhookPath, method = 'POST') =>
			waitForWebhook(stack.n8n.server.url, webhookPath, method, stack.n8n.server.proc);
		t.publish = (key) =>
			publish({
				n8n: stack.n8n,
				rest: stack.rest,
				workflowId: (t.workflows[key] || { id: key }).id,
			});
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

/** Runs one suite on a lane; its time and checks go to results. */
async function runSuite({ suite, lane, results, root, packed, opts, whenAlone }) {
	const started = Date.now();
	say(
		`# ${suite.title} (${suite.name}), n8n ${lane.version}${lane.index > 1 ? `, lane ${lane.index}` : ''} (at ${results.at()})`,
	);
	try {
		const t = await suiteContext({ suite, lane, results, root, packed, opts, whenAlone });
		await suite.run(t);
	} catch (err) {
		results.record({
			suite: suite.name,
			major: lane.major,
			label: `${suite.name}, n8n ${lane.version}`,
			name: 'the suite ran to its end',
			err,
			ms: Date.now() - started,
		});
	}
	results.suites.push({ suite: suite.name, major: lane.major, ms: Date.now() - started });
}

/**
 * The order a major's suites are taken in: the longest first (a suite's `seconds`), so that the
 * lanes end about together rather than one of them starting a long suite last. A suite with a
 * stack of its own (firstSteps) is among the longest: taken last, it was the run's last minute and
 * a half; the lane's shared n8n stays up meanwhile, idle.
 */
function laneOrder(suites) {
	return [...suites].sort((a, b) => (b.seconds || 0) - (a.seconds || 0));
}

/**
 * Runs one major's suites on `workers` lanes side by side, each with a shared stack of its own
 * (the same workflows and credentials); a lane that ends a suite takes the next from one list
 * (laneOrder). Most of a suite's time is spent waiting on crews and on n8n, not on the cores.
 */
async function runMajor({
	major,
	suites,
	results,
	root,
	packed,
	opts,
	workers = 1,
	whenAlone = Promise.resolve(),
	onStacksReady = () => {},
	name = '',
}) {
	const todo = laneOrder(suites);
	const count = Math.max(1, Math.min(workers, todo.filter((s) => s.needs.server).length));
	const browser = sharedBrowser();
	const lanes = Array.from({ length: count }, (_, i) =>
		createLane({ major, suites, root, packed, opts, index: i + 1, browser }),
	);
	// Every lane's stack is built at once: the lanes take about as long as one another, so none of
	// them gains from waiting for another's. The queue lane waits for them (onStacksReady).
	const server = todo.some((s) => s.needs.server);
	Promise.all(lanes.map((l) => (server ? l.stack().catch(() => null) : null))).then(onStacksReady);
	// The lanes still taking suites: a suite handed back is taken by one of them.
	let alive = count;
	const work = async (lane) => {
		try {
			for (let suite = todo.shift(); suite; suite = todo.shift()) {
				// A lane whose shared n8n did not start leaves its suites to the others (while there are
				// others: the last one runs them, and each records the failure).
				const failure = suite.needs.server
					? await lane.stack().then(
							() => null,
							(err) => err,
						)
					: null;
				if (failure && alive > 1) {
					todo.unshift(suite);
					say(
						`  [n8n ${lane.version}, lane ${lane.index}] its shared n8n did not start, its suites go to the other lanes: ${String(failure.message).split('\n')[0]}`,
					);
					return;
				}
				await runSuite({ suite, lane, results, root, packed, opts, whenAlone });
			}
		} finally {
			alive -= 1;
			await lane.closeStack();
			say(`  [n8n ${lane.version}, ${name || `lane ${lane.index}`}] ended (at ${results.at()})`);
		}
	};
	try {
		await Promise.all(lanes.map(work));
	} finally {
		await Promise.all(lanes.map((l) => l.closeStack()));
		await browser.close();
	}
}

/** The whole run; returns the exit code. */
async function runAll(opts, { pack }) {
	const t0 = Date.now();
	const results = createResults();
	const root = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'n8n-crewai-e2e-'));
	const all = loadSuites(SUITES_DIR, opts.only);
	if (opts.only)
		for (const name of opts.only)
			if (!all.some((s) => s.name === name))
				throw new Error(`--only: no suite "${name}" (see --list)`);
	try {
		let packed;
		try {
			packed = await pack(path.join(root, 'pack'));
			say(`packed ${path.basename(packed.tarball)} (${packed.files.length} files)`);
		} catch (err) {
			results.record({
				suite: 'setup',
				major: '-',
				label: 'setup',
				name: 'npm pack of the package',
				err,
				ms: 0,
			});
		}
		if (packed) {
			const ofMajor = (major, alone) =>
				all.filter((s) => s.majors.includes(major) && Boolean(s.alone) === alone);
			const go = (major, suites, more = {}) =>
				runMajor({ major, suites, results, root, packed, opts, ...more });
			// The suites with a stack of their own (queue mode's Redis, main and workers), one major at a
			// time, in a lane beside the majors' lanes: most of their time is spent waiting on crews.
			// Their checks that measure ratios of time first await t.whenAlone(), the end of the majors'
			// lanes, so that no other lane's load bends their figures.
			const alone = opts.majors.filter((major) => ofMajor(major, true).length > 0);
			if (opts.serial) {
				for (const major of opts.majors) await go(major, ofMajor(major, false));
				for (const major of alone) await go(major, ofMajor(major, true));
			} else {
				let lanesEnded;
				const whenAlone = new Promise((resolve) => (lanesEnded = resolve));
				// The own stacks start once the shared stacks of each major are up, so that their n8n
				// processes do not start in the same seconds (the majors' lanes are the longer); a major
				// still being installed (CI installs n8n 1.x while the tests run) does not hold them back.
				const installed = opts.majors.filter(
					(major) =>
						isInstalled(layout(major)) && ofMajor(major, false).some((s) => s.needs.server),
				);
				const stacksUp = installed.map(() => {
					let up;
					return { promise: new Promise((resolve) => (up = resolve)), up: () => up() };
				});
				const majors = Promise.allSettled(
					opts.majors.map((major) =>
						go(major, ofMajor(major, false), {
							workers: opts.workers,
							onStacksReady: stacksUp[installed.indexOf(major)]?.up,
						}),
					),
				).finally(lanesEnded);
				const own = (async () => {
					await Promise.all(stacksUp.map((s) => s.promise));
					for (const major of alone)
						await go(major, ofMajor(major, true), { whenAlone, name: 'queue lane' });
				})();
				for (const settled of await Promise.allSettled([majors, own]))
					if (settled.status === 'rejected') throw settled.reason;
				for (const settled of await majors) if (settled.status === 'rejected') throw settled.reason;
			}
			const started = Date.now();
			const leaks = leakedTokens(root);
			results.record({
				suite: 'tokens',
				major: opts.majors.join(','),
				label: 'tokens',
				name: 'no crew token in clear in any n8n log or database of the run',
				err: leaks.length
					? new Error(leaks.map((l) => `the ${l.kind} token appears in ${l.file}`).join('\n'))
					: null,
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
