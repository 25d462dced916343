// Runs n8n's community-package scanner (@n8n/scan-community-package) here,
// before a release, the way n8n runs it on a published version: its ESLint
// analysis on the source tree (nodes/, credentials/, package.json) and on the
// packed tarball (the compiled .js and the published package.json). n8n's own
// entry point, analyzePackageByName, also checks the npm provenance
// attestation and downloads the attested source; only a real publish from
// GitHub Actions has those, so the two analyses are called directly.
// Fails on any finding. Needs a build first (npm run build): the tarball
// carries dist/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What analyzePackageByName lints in the downloaded tarball. */
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args, cwd) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stderr}`,
		);
	}
	return result.stdout;
}

/** Packs the package as npm would publish it and unpacks it into a fresh temporary folder. */
function packAndExtract(tempDir) {
	const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', tempDir], root));
	const packageDir = path.join(tempDir, 'package');
	fs.mkdirSync(packageDir);
	run(
		'tar',
		['-xzf', path.join(tempDir, packed.filename), '-C', packageDir, '--strip-components=1'],
		root,
	);
	return { packageDir, files: packed.files.map((file) => file.path) };
}

/** The compiled nodes and credentials package.json names, which n8n loads: without them there is nothing to scan. */
function missingEntryPoints(files) {
	const { n8n } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	return [...n8n.nodes, ...n8n.credentials].filter((entry) => !files.includes(entry));
}

async function scan(scanner, label, directory, patterns) {
	const result = await scanner.analyzePackage(directory, patterns);
	// analyzePackage passes when it finds nothing to lint; here that means a wrong folder.
	const passed = result.passed && result.message === undefined;
	console.log(`${passed ? 'PASS' : 'FAIL'} ${label}${result.message ? `: ${result.message}` : ''}`);
	if (result.details) console.log(result.details);
	return passed;
}

const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-crewai-scan-'));
try {
	// The scanner makes a download folder in the system's temporary folder as it is
	// loaded, and leaves it; loaded with TMPDIR pointing here, it goes with ours.
	process.env.TMPDIR = tempDir;
	const scanner = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	const { packageDir, files } = packAndExtract(tempDir);
	const missing = missingEntryPoints(files);
	if (missing.length > 0) {
		console.log(`FAIL packed tarball: it lacks ${missing.join(', ')}; run npm run build first`);
		process.exitCode = 1;
	} else {
		const sourcePatterns = scanner.SOURCE_FILE_PATTERNS;
		const sourcePassed = await scan(
			scanner,
			`source tree (${sourcePatterns.join(', ')})`,
			root,
			sourcePatterns,
		);
		const tarballPassed = await scan(
			scanner,
			`packed tarball, ${files.length} files (${TARBALL_FILE_PATTERNS.join(', ')})`,
			packageDir,
			TARBALL_FILE_PATTERNS,
		);
		if (!sourcePassed || !tarballPassed) process.exitCode = 1;
	}
} finally {
	fs.rmSync(tempDir, { recursive: true, force: true });
}
