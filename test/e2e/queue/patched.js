'use strict';
// A pack of the package with its cancel-signal handling taken out, to prove that the
// queue test's stop check depends on it: a COPY of package.json and dist/ (plus README and
// LICENSE) is patched so that createTools() in dist/nodes/Crew/actions/router.js never gets
// the execution's cancel signal, then packed with `npm pack` from that copy. The source tree
// and the repository's dist/ are not touched.

const fs = require('node:fs');
const path = require('node:path');
const procs = require('../lib/procs');
const pkg = require('../lib/pkg');

const ROUTER = path.join('dist', 'nodes', 'Crew', 'actions', 'router.js');
// The one line of the built router that reads the signal (from nodes/Crew/actions/router.ts).
const SIGNAL_LINE =
	/const signal = typeof context\.getExecutionCancelSignal === 'function' \? context\.getExecutionCancelSignal\(\) : undefined;/;

/** Copies what `npm pack` publishes into dir/src, removes the signal, packs into dir. */
async function packWithoutCancelSignal(dir) {
	pkg.checkBuilt();
	const src = path.join(dir, 'src');
	fs.mkdirSync(src, { recursive: true });
	for (const f of ['package.json', 'README.md', 'LICENSE']) {
		if (fs.existsSync(path.join(pkg.REPO, f)))
			fs.copyFileSync(path.join(pkg.REPO, f), path.join(src, f));
	}
	fs.cpSync(path.join(pkg.REPO, 'dist'), path.join(src, 'dist'), { recursive: true });
	const file = path.join(src, ROUTER);
	const text = fs.readFileSync(file, 'utf8');
	if (!SIGNAL_LINE.test(text))
		throw new Error(
			`${ROUTER}: the cancel-signal line was not found; update SIGNAL_LINE in ${__filename}`,
		);
	fs.writeFileSync(
		file,
		text.replace(
			SIGNAL_LINE,
			'const signal = undefined; // patched by test/e2e/queue: no cancel signal',
		),
	);
	const r = await procs.run(
		'npm',
		['pack', '--json', '--pack-destination', dir, '--ignore-scripts'],
		{ cwd: src, timeoutMs: 120000 },
	);
	if (r.code !== 0)
		throw new Error(`npm pack of the patched copy failed (${r.code}):\n${r.output}`);
	const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
	return {
		tarball: path.join(dir, info.filename),
		name: info.name,
		version: info.version,
		files: info.files.map((f) => f.path),
		patched: ROUTER,
	};
}

module.exports = { packWithoutCancelSignal };
