'use strict';
// Every process the harness starts goes through here, so that each one is torn down by
// its own pid: a child is spawned as the leader of its own process group (detached), and
// stopping it signals that group (-pid), which also reaches what it started itself (n8n's
// task runner). Nothing is ever killed by name.

const fs = require('node:fs');
const { spawn } = require('node:child_process');

const live = new Map(); // pid -> proc

/**
 * Starts a command. Output is kept in memory (and appended to logFile when given).
 * @returns {{pid:number, name:string, child:import('node:child_process').ChildProcess,
 *   exited: Promise<{code:number|null, signal:string|null}>, stdout:()=>string, stderr:()=>string,
 *   output:()=>string, waitFor:(re:RegExp, ms:number)=>Promise<RegExpMatchArray>}}
 */
function start(cmd, args, { env = process.env, cwd, name = cmd, logFile, onData } = {}) {
	const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	const out = [];
	const err = [];
	const all = [];
	const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : null;
	const waiters = new Set();
	const feed = (sink) => (chunk) => {
		const text = chunk.toString('utf8');
		sink.push(text);
		all.push(text);
		if (log) log.write(text);
		if (onData) onData(text);
		for (const w of waiters) w();
	};
	child.stdout.on('data', feed(out));
	child.stderr.on('data', feed(err));
	const proc = {
		pid: child.pid,
		name,
		child,
		done: false,
		stdout: () => out.join(''),
		stderr: () => err.join(''),
		output: () => all.join(''),
	};
	proc.exited = new Promise((resolve) => {
		child.on('error', (e) => {
			all.push(`\n[${name}: ${e.message}]\n`);
			proc.done = true;
			live.delete(child.pid);
			for (const w of waiters) w();
			resolve({ code: null, signal: null, error: e });
		});
		child.on('close', (code, signal) => {
			proc.done = true;
			live.delete(child.pid);
			if (log) log.end();
			for (const w of waiters) w();
			resolve({ code, signal });
		});
	});
	proc.waitFor = (re, ms) =>
		new Promise((resolve, reject) => {
			const check = () => {
				const m = proc.output().match(re);
				if (m) return finish(null, m);
				if (proc.done)
					return finish(new Error(`${name} exited before printing ${re}:\n${tail(proc.output())}`));
			};
			const timer = setTimeout(
				() =>
					finish(new Error(`${name} did not print ${re} within ${ms} ms:\n${tail(proc.output())}`)),
				ms,
			);
			const finish = (e, m) => {
				clearTimeout(timer);
				waiters.delete(check);
				if (e) reject(e);
				else resolve(m);
			};
			waiters.add(check);
			check();
		});
	if (child.pid) live.set(child.pid, proc);
	return proc;
}

function signalGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		try {
			process.kill(pid, signal);
			return true;
		} catch {
			return false;
		}
	}
}

/** SIGTERM to the process group, SIGKILL after graceMs. Resolves when the leader has exited. */
async function stop(proc, { graceMs = 15000 } = {}) {
	if (!proc || !proc.pid) return;
	if (!proc.done) {
		signalGroup(proc.pid, 'SIGTERM');
		const timer = setTimeout(() => signalGroup(proc.pid, 'SIGKILL'), graceMs);
		await proc.exited;
		clearTimeout(timer);
	}
	// The leader is gone; make sure nothing it started in its group lingers.
	signalGroup(proc.pid, 'SIGKILL');
}

async function stopAll() {
	await Promise.all([...live.values()].map((p) => stop(p, { graceMs: 5000 })));
}

/** Runs a command to its end (killing it after timeoutMs). */
async function run(cmd, args, { timeoutMs = 120000, ...opts } = {}) {
	const t0 = Date.now();
	const proc = start(cmd, args, opts);
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		stop(proc, { graceMs: 5000 });
	}, timeoutMs);
	const { code, signal } = await proc.exited;
	clearTimeout(timer);
	return {
		code,
		signal,
		timedOut,
		ms: Date.now() - t0,
		stdout: proc.stdout(),
		stderr: proc.stderr(),
		output: proc.output(),
	};
}

function tail(text, lines = 40) {
	return text.split('\n').slice(-lines).join('\n');
}

let hooked = false;
let stopping = false;
/** True once Ctrl-C / SIGTERM teardown has begun. */
const isStopping = () => stopping;
/** On Ctrl-C / SIGTERM: stop everything we started, then exit. On exit: SIGKILL stragglers. */
function installExitHandlers(beforeExit) {
	if (hooked) return;
	hooked = true;
	const onSignal = (sig) => {
		if (stopping) return;
		stopping = true;
		process.stderr.write(`\n${sig}: stopping ${live.size} process(es)...\n`);
		Promise.resolve(beforeExit && beforeExit())
			.catch(() => {})
			.then(stopAll)
			.finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
	};
	process.on('SIGINT', () => onSignal('SIGINT'));
	process.on('SIGTERM', () => onSignal('SIGTERM'));
	process.on('exit', () => {
		for (const pid of live.keys()) signalGroup(pid, 'SIGKILL');
	});
}

module.exports = { start, stop, stopAll, run, tail, installExitHandlers, isStopping, live };
