'use strict';
// Packs this repository with `npm pack` (what npm would publish) and installs the tarball
// into an n8n user folder the way n8n's own community-package installer does
// (n8n 2.x CommunityPackagesService.downloadPackage):
//   - extract the tarball into <N8N_USER_FOLDER>/.n8n/nodes/node_modules/<name> (--strip-components=1)
//   - drop devDependencies, peerDependencies and optionalDependencies from its package.json
//   - `npm install` its runtime dependencies inside it (this package has none, so nothing runs)
//   - record it in <N8N_USER_FOLDER>/.n8n/nodes/package.json ("installed-nodes")
// n8n-workflow is a peer: it is not installed next to the package. n8n puts its own
// node_modules on NODE_PATH before loading community packages, so the node's
// require('n8n-workflow') resolves to the copy of the n8n that loads it.

const fs = require('node:fs');
const path = require('node:path');
const procs = require('./procs');

const REPO = path.resolve(__dirname, '..', '..', '..');
const PKG = require(path.join(REPO, 'package.json'));

function checkBuilt() {
	const missing = (PKG.n8n.nodes || [])
		.concat(PKG.n8n.credentials || [])
		.filter((f) => !fs.existsSync(path.join(REPO, f)));
	if (missing.length) {
		throw new Error(
			`the package is not built (missing ${missing.join(', ')}): run \`npm run build\` in ${REPO} first`,
		);
	}
}

/** `npm pack` of the repository into dir; returns the tarball's path. */
async function pack(dir) {
	checkBuilt();
	fs.mkdirSync(dir, { recursive: true });
	const r = await procs.run(
		'npm',
		['pack', '--json', '--pack-destination', dir, '--ignore-scripts'],
		{ cwd: REPO, timeoutMs: 120000 },
	);
	if (r.code !== 0) throw new Error(`npm pack failed (${r.code}):\n${r.output}`);
	const json = r.stdout.slice(r.stdout.indexOf('['));
	const [info] = JSON.parse(json);
	const tarball = path.join(dir, info.filename);
	const files = info.files.map((f) => f.path);
	for (const f of (PKG.n8n.nodes || []).concat(PKG.n8n.credentials || [])) {
		if (!files.includes(f))
			throw new Error(`npm pack left out ${f} (check "files" in package.json)`);
	}
	return { tarball, name: info.name, version: info.version, files };
}

function packageDir(userFolder, name = PKG.name) {
	return path.join(userFolder, '.n8n', 'nodes', 'node_modules', name);
}

async function installInto(userFolder, packed) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const dir = packageDir(userFolder, packed.name);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const r = await procs.run('tar', ['-xzf', packed.tarball, '-C', dir, '--strip-components=1'], {
		timeoutMs: 60000,
	});
	if (r.code !== 0) throw new Error(`tar failed: ${r.output}`);
	const pjFile = path.join(dir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...pj } = JSON.parse(
		fs.readFileSync(pjFile, 'utf8'),
	);
	fs.writeFileSync(pjFile, JSON.stringify(pj, null, 2));
	if (pj.dependencies && Object.keys(pj.dependencies).length) {
		const i = await procs.run(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{ cwd: dir, timeoutMs: 300000 },
		);
		if (i.code !== 0)
			throw new Error(`npm install of the package's dependencies failed:\n${i.output}`);
	}
	const ledgerFile = path.join(nodesDir, 'package.json');
	const ledger = fs.existsSync(ledgerFile)
		? JSON.parse(fs.readFileSync(ledgerFile, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	ledger.dependencies[packed.name] = packed.version;
	fs.writeFileSync(ledgerFile, JSON.stringify(ledger, null, 2));
	return dir;
}

module.exports = { pack, installInto, packageDir, checkBuilt, REPO, PKG };
