#!/usr/bin/env node
'use strict';
// The one e2e runner: node test/e2e/run.js --help. The suites are test/e2e/suites/*.js
// (contract: test/e2e/suites/README.md); lib/harness.js runs them.

const procs = require('./lib/procs');
const pkg = require('./lib/pkg');
const { parseRunnerArgs, USAGE } = require('./lib/args');
const { loadSuites, runAll } = require('./lib/harness');

async function main() {
	const opts = parseRunnerArgs();
	if (opts.help) return void process.stdout.write(`${USAGE}\n`);
	if (opts.list) {
		for (const s of loadSuites())
			process.stdout.write(`${s.name.padEnd(22)} n8n ${s.majors.join(',').padEnd(4)} ${s.title}\n`);
		return;
	}
	procs.installExitHandlers();
	process.exitCode = await runAll(opts, { pack: pkg.pack });
}

main().catch((err) => {
	// A wrong command line: its message and the usage, not a stack.
	const usage = /^--|ERR_PARSE_ARGS/.test(`${err.message} ${err.code}`);
	console.error(usage ? `${err.message}\n\n${USAGE}` : err);
	procs.stopAll().finally(() => process.exit(1));
});
