'use strict';
// The runner's command line (the one parse of the e2e tree).

const { parseArgs } = require('node:util');
const { parseMajors } = require('./scriptCommand');

const USAGE = `Usage: node test/e2e/run.js [options]

The end-to-end suites (test/e2e/suites/*.js): the packed n8n-nodes-crewai in a real n8n,
against the reference Crew Execution Service (test/crew-service/). Expects dist/ built.

  --n8n 1|2|all        which n8n majors (default: $N8N_E2E_VERSIONS, else 2); "all" = 1,2.
                       Each is installed on first use into
                       \${N8N_E2E_CACHE:-~/.cache/n8n-nodes-crewai-e2e}/<version> and reused.
  --only a,b           only these suites (by name; see --list)
  --grep TEXT          only the checks whose name contains TEXT (case-insensitive)
  --keep               keep the temporary folder (user folders, n8n logs) and print its path
  --without-package    do not install the package: every Crew check should fail
  --docs               suites that draw the docs' screenshots write them into docs/ (from n8n 2.x)
  --serial             run the majors one after the other, one lane each (default: side by side)
  --workers N          lanes per major, each with a shared n8n of its own, side by side (default 3;
                       suites mostly wait on crews and n8n, not on the cores)
  --list               print the suites and exit
  --help               this text

Prints one line per check, a table per suite and major, then "N passed, N failed";
exits 1 when anything failed.`;

const DEFAULT_WORKERS = 3;

function parseWorkers(text) {
	if (text === undefined) return DEFAULT_WORKERS;
	const n = Number(text);
	if (!Number.isInteger(n) || n < 1 || n > 8)
		throw new Error(`--workers: a whole number from 1 to 8, not "${text}"`);
	return n;
}

function parseRunnerArgs(argv = process.argv.slice(2)) {
	const strings = ['n8n', 'only', 'grep', 'workers'];
	const flags = ['keep', 'without-package', 'docs', 'serial', 'list', 'help'];
	const options = Object.fromEntries([
		...strings.map((o) => [o, { type: 'string' }]),
		...flags.map((o) => [o, { type: 'boolean' }]),
	]);
	const { values } = parseArgs({ args: argv, options });
	return {
		help: Boolean(values.help),
		list: Boolean(values.list),
		majors: parseMajors(values.n8n),
		only: values.only
			? values.only
					.split(',')
					.map((s) => s.trim())
					.filter(Boolean)
			: null,
		grep: values.grep || null,
		keep: Boolean(values.keep),
		withoutPackage: Boolean(values['without-package']),
		docs: Boolean(values.docs),
		serial: Boolean(values.serial),
		workers: parseWorkers(values.workers),
	};
}

module.exports = { parseRunnerArgs, USAGE };
