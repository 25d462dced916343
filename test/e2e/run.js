#!/usr/bin/env node
'use strict';
// End-to-end suite: the packed n8n-nodes-crewai in a real n8n, against the reference
// Crew Execution Service (test/crew-service/).
//
//   node test/e2e/run.js [--n8n 2|1|1,2|all] [--editor] [--only TEXT] [--keep] [--without-package]
//
//   --n8n              which n8n majors (default: $N8N_E2E_VERSIONS, else 2). "all" = 1,2.
//                      Each is installed on first use into
//                      ${N8N_E2E_CACHE:-~/.cache/n8n-nodes-crewai-e2e}/<version> (minutes) and reused.
//   --editor           also the editor checks (editor.js, firstSteps.js) on each of these majors, in Chromium
//   --callback         also the Crew Trigger callback round trip (callback.js) on each of these majors
//                      (apt-get install -y chromium; npm ci --prefix test/e2e)
//   --only TEXT        run only the tests whose name or workflow contains TEXT
//   --keep             keep the temporary folder (user folders, n8n logs) and print its path
//   --without-package  do not install the package: proves the suite really tests it (all Crew tests fail)
//
// Expects dist/ to be built (`npm run build`). Prints one line per test and ends with
// "N passed, N failed"; exits 1 when anything failed.

const { printHeaderAndExit, parseMajors, tearDown, runMain } = require('./lib/cli');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const procs = require('./lib/procs');
const pkg = require('./lib/pkg');
const { prepare } = require('./lib/stack');
const { tests, assertNoToken } = require('./tests');
const { createReport, secs, say } = require('./lib/report');

function parse() {
	const { values } = parseArgs({
		options: {
			n8n: { type: 'string' },
			only: { type: 'string' },
			keep: { type: 'boolean' },
			editor: { type: 'boolean' },
			callback: { type: 'boolean' },
			'without-package': { type: 'boolean' },
			help: { type: 'boolean' },
		},
	});
	if (values.help) printHeaderAndExit(__filename);
	const majors = parseMajors(values.n8n);
	return {
		majors,
		only: values.only,
		keep: Boolean(values.keep),
		editor: Boolean(values.editor),
		callback: Boolean(values.callback),
		withoutPackage: Boolean(values['without-package']),
	};
}

// The reference service's defaults; a test may change some for itself (test.service).
const SERVICE_DEFAULTS = { recordShape: 'contract', statusPaths: 'both', inputsShape: 'names', errorShape: 'documented' };

async function suite(major, { packed, root, only, withoutPackage }, report) {
	const record = report.record.bind(report);
	const t0 = Date.now();
	const { n8n, crew, tokens, workflows, installedAt } = await prepare({
		major,
		root,
		packed,
		withPackage: !withoutPackage,
		log: (m) => say(`  ${m}`),
	});
	const label = `n8n ${n8n.version}`;
	try {
		say(`# ${label} (node ${n8n.layout.nodeBin === process.execPath ? process.version : 'from ' + n8n.layout.nodeBin}), user folder ${n8n.userFolder}`);
		if (withoutPackage) say('  --without-package: n8n-nodes-crewai is NOT installed; every Crew test should fail');
		else say(`  installed ${packed.name}@${packed.version} into ${installedAt}`);
		say(`  ready in ${secs(Date.now() - t0)} (crew service ${crew.url})`);
		if (!withoutPackage) {
			await report.check(label, 'installed as n8n installs a community package: no dependencies, n8n-workflow left to n8n', () => {
				const nodesModules = path.dirname(installedAt);
				assert.deepEqual(fs.readdirSync(nodesModules), [path.basename(installedAt)], 'nothing but the package in .n8n/nodes/node_modules');
				assert.ok(!fs.existsSync(path.join(installedAt, 'node_modules')), 'the package brings no node_modules');
				// Outside n8n, the node's require('n8n-workflow') finds nothing: inside n8n it can
				// only be n8n's own copy (n8n puts its node_modules on NODE_PATH for packages).
				assert.throws(() => require.resolve('n8n-workflow', { paths: [installedAt] }), /Cannot find module/);
			});
		}

		const selected = tests.filter((t) => !only || t.name.includes(only) || t.workflow.includes(only));
		for (const test of selected) {
			await crew.reset();
			await crew.configure({ ...SERVICE_DEFAULTS, ...(test.service || {}) });
			const started = Date.now();
			let exec;
			try {
				exec = await n8n.execute(workflows[test.workflow].id);
				await test.check({ exec, crew, tokens, n8n });
				record(label, test.name, null, Date.now() - started);
			} catch (err) {
				record(label, test.name, err, Date.now() - started, exec);
			}
		}

		// Across everything n8n printed and stored: no token, right or wrong, in clear.
		const started = Date.now();
		try {
			for (const f of fs.readdirSync(n8n.logDir)) {
				if (f === 'crew-service.log') continue;
				assertNoToken(fs.readFileSync(path.join(n8n.logDir, f), 'utf8'), tokens, `n8n log ${f}`);
			}
			const dotN8n = path.join(n8n.userFolder, '.n8n');
			for (const f of fs.readdirSync(dotN8n)) {
				const file = path.join(dotN8n, f);
				if (/^database\.sqlite|\.log$/.test(f) && fs.statSync(file).isFile()) {
					assertNoToken(fs.readFileSync(file, 'latin1'), tokens, `${f} (stored executions)`);
				}
			}
			record(label, 'no token in clear in any n8n output, log or stored execution', null, Date.now() - started);
		} catch (err) {
			record(label, 'no token in clear in any n8n output, log or stored execution', err, Date.now() - started);
		}
	} finally {
		await crew.stop();
	}
	say(`# ${label}: ${secs(Date.now() - t0)}`);
}

async function main() {
	const opts = parse();
	procs.installExitHandlers();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-crewai-e2e-'));
	const report = createReport();
	const record = report.record.bind(report);
	try {
		let packed;
		try {
			packed = await pkg.pack(path.join(root, 'pack'));
			say(`packed ${path.basename(packed.tarball)} (${packed.files.length} files)`);
		} catch (err) {
			record('setup', 'npm pack of the package', err, 0);
		}
		if (packed) {
			for (const major of opts.majors) {
				try {
					await suite(major, { ...opts, packed, root }, report);
				} catch (err) {
					record(`n8n ${major}.x`, 'set up n8n, the package and the crew service', err, 0);
				}
			}
			if (opts.editor) {
				const { editorSuite } = require('./editor');
				const { firstStepsSuite } = require('./firstSteps');
				for (const major of opts.majors) {
					say(`# editor, n8n ${major}.x`);
					await editorSuite({ major, report, root: path.join(root, `editor-${major}`), packed });
					say(`# first steps in the editor, n8n ${major}.x`);
					await firstStepsSuite({ major, report, root: path.join(root, `first-${major}`), packed });
				}
			}
			if (opts.callback) {
				const { callbackSuite } = require('./callback');
				for (const major of opts.majors) {
					say(`# callback round trip, n8n ${major}.x`);
					await callbackSuite({ major, report, root: path.join(root, `callback-${major}`), packed, withPackage: !opts.withoutPackage, editor: opts.editor });
				}
			}
		}
	} finally {
		await tearDown({ root, keep: opts.keep });
	}
	process.exitCode = report.finish();
}

runMain(main);
