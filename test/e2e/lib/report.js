'use strict';
// One line per check ("ok - ..." / "not ok - ..." with the reason), then the closing
// "N passed, N failed" line that CI reads.

const procs = require('./procs');

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const say = (line) => process.stdout.write(`${line}\n`);

function createReport() {
	const results = [];
	const t0 = Date.now();
	return {
		results,
		record(label, name, err, ms, exec) {
			results.push({ label, name, err });
			if (!err) return say(`ok - [${label}] ${name} (${secs(ms)})`);
			say(`not ok - [${label}] ${name} (${secs(ms)})`);
			say(
				`    ${String((err && err.message) || err)
					.split('\n')
					.join('\n    ')}`,
			);
			if (exec) {
				say(`    n8n exit ${exec.code}${exec.timedOut ? ' (timed out)' : ''}; last output:`);
				say(`      ${procs.tail(exec.output, 12).split('\n').join('\n      ')}`);
			}
		},
		/** Runs fn as one named check. */
		async check(label, name, fn) {
			const started = Date.now();
			try {
				await fn();
				this.record(label, name, null, Date.now() - started);
				return true;
			} catch (err) {
				this.record(label, name, err, Date.now() - started);
				return false;
			}
		},
		/** Prints the closing lines; returns the exit code. */
		finish() {
			const failed = results.filter((r) => r.err).length;
			say(`total ${secs(Date.now() - t0)}`);
			say(`${results.length - failed} passed, ${failed} failed`);
			return failed || !results.length ? 1 : 0;
		},
	};
}

module.exports = { createReport, secs, say };
