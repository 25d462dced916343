'use strict';
// What the e2e scripts' command lines share: --help from the script's header
// comment, and --n8n naming the majors to run.
const fs = require('fs');

/** Prints the `//` comment block at the top of a script (after its first two lines) and exits. */
function printHeaderAndExit(filename) {
	const lines = fs.readFileSync(filename, 'utf8').split('\n').slice(2);
	const header = lines.slice(0, lines.findIndex((l) => !l.startsWith('//')));
	process.stdout.write(header.map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
	process.exit(0);
}

/** `--n8n 2`, `1,2` or `all` (default $N8N_E2E_VERSIONS, else 2) as a list of majors. */
function parseMajors(value) {
	const spec = value || process.env.N8N_E2E_VERSIONS || '2';
	const majors = spec === 'all' ? ['1', '2'] : spec.split(/[ ,]+/).filter(Boolean);
	for (const m of majors) if (!['1', '2'].includes(m)) throw new Error(`--n8n: unknown major "${m}" (use 1, 2, 1,2 or all)`);
	return majors;
}

module.exports = { printHeaderAndExit, parseMajors };
