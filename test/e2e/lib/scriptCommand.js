'use strict';
// What the e2e scripts share as commands: --help from the script's header
// comment, --n8n naming the majors to run, and the start and end of a run.
const fs = require('fs');

const procs = require('./procs');
const { say } = require('./report');

/** Prints the `//` comment block at the top of a script (after its first two lines) and exits. */
function printHeaderAndExit(filename) {
	const lines = fs.readFileSync(filename, 'utf8').split('\n').slice(2);
	const header = lines.slice(
		0,
		lines.findIndex((l) => !l.startsWith('//')),
	);
	process.stdout.write(header.map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
	process.exit(0);
}

/** `--n8n 2`, `1,2` or `all` (default $N8N_E2E_VERSIONS, else 2) as a list of majors. */
function parseMajors(value) {
	const spec = value || process.env.N8N_E2E_VERSIONS || '2';
	const majors = spec === 'all' ? ['1', '2'] : spec.split(/[ ,]+/).filter(Boolean);
	for (const m of majors)
		if (!['1', '2'].includes(m))
			throw new Error(`--n8n: unknown major "${m}" (use 1, 2, 1,2 or all)`);
	return majors;
}

/** A run's end: every process it started stopped, its temporary folder removed (kept, and named, with --keep). */
async function tearDown({ root, keep }) {
	await procs.stopAll();
	if (keep) say(`kept ${root}`);
	else fs.rmSync(root, { recursive: true, force: true });
}

/**
 * Runs a script's main. An error main does not catch stops every process it
 * started (n8n, the crew service, Redis) before the script exits with 1.
 */
function runMain(main, describe = (err) => err) {
	main().catch((err) => {
		console.error(describe(err));
		procs.stopAll().finally(() => process.exit(1));
	});
}

module.exports = { printHeaderAndExit, parseMajors, tearDown, runMain };
