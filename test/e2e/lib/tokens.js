'use strict';
// The one token check: a secret of the run (a crew token, a callback token, a signing secret)
// must appear in clear in nothing n8n printed or stored. Every crew service the run starts
// registers its tokens here (lib/crew.js, lib/stack.js), so the runner's closing check
// (leakedTokens) covers every n8n log and database of the run, whatever suite made it.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const secrets = new Map(); // value -> what it is

/** Remembers a secret of this run for the closing check. */
function registerSecret(kind, value) {
	if (typeof value === 'string' && value.length >= 8) secrets.set(value, kind);
}

/** Throws when any of tokens ({kind: value}) occurs in text. */
function assertNoToken(text, tokens, where) {
	for (const [kind, token] of Object.entries(tokens)) {
		if (!token) continue;
		assert.ok(!String(text).includes(token), `the ${kind} token appears in ${where}`);
	}
}

// What n8n writes: its logs (the harness's *.log of each n8n command), n8n.log, and the sqlite
// database holding stored executions. The crew service's own log holds tokens by design.
const N8N_FILE = /(\.log$|^database\.sqlite)/;
const NOT_N8N = /^crew-service.*\.log$/;

function n8nFiles(dir, out = []) {
	let entries;
	try {
		entries = fs.readdirSync(dir, { withFileTypes: true });
	} catch {
		return out;
	}
	for (const e of entries) {
		const file = path.join(dir, e.name);
		if (e.isDirectory()) {
			if (e.name !== 'node_modules' && e.name !== 'pack') n8nFiles(file, out);
		} else if (e.isFile() && N8N_FILE.test(e.name) && !NOT_N8N.test(e.name)) out.push(file);
	}
	return out;
}

/** Every registered secret found in an n8n log or database under root: [{file, kind}]. */
function leakedTokens(root) {
	const leaks = [];
	for (const file of n8nFiles(root)) {
		const text = fs.readFileSync(file, 'latin1');
		for (const [value, kind] of secrets)
			if (text.includes(value)) leaks.push({ file: path.relative(root, file), kind });
	}
	return leaks;
}

/**
 * Throws when any of tokens is in clear in what one n8n printed (its logs) or, with
 * `database`, stored (its sqlite files: executions, workflows, encrypted credentials).
 */
function assertNoTokenInN8n(n8n, tokens, { database = false } = {}) {
	for (const f of fs.readdirSync(n8n.logDir)) {
		if (!NOT_N8N.test(f))
			assertNoToken(fs.readFileSync(path.join(n8n.logDir, f), 'utf8'), tokens, `n8n log ${f}`);
	}
	if (!database) return;
	const dotN8n = path.join(n8n.userFolder, '.n8n');
	for (const f of fs.readdirSync(dotN8n)) {
		const file = path.join(dotN8n, f);
		if (N8N_FILE.test(f) && fs.statSync(file).isFile())
			assertNoToken(fs.readFileSync(file, 'latin1'), tokens, `${f} (n8n's database)`);
	}
}

module.exports = { registerSecret, assertNoToken, assertNoTokenInN8n, leakedTokens, n8nFiles };
