'use strict';
// Jest's order, with one change for a run that has no timings yet (a clean clone, as in CI):
// the files that give a test a timeout of a minute or more come first. Without timings Jest runs
// the largest files first, and such a file is often small (one test waiting 45 s on a cold
// deployment): started last, it alone held the run's last minute. With timings (a second run
// here), Jest's own order already starts the slowest first and is kept.

const fs = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const LONG_TIMEOUT_MS = 60_000;

/** The longest per-test timeout a test file declares (`it(name, fn, 120_000)`), 0 when none. */
function longestDeclaredTimeout(source) {
	let longest = 0;
	for (const m of source.matchAll(/\}\s*,\s*(\d[\d_]*)\s*\)/g))
		longest = Math.max(longest, Number(m[1].replace(/_/g, '')));
	return longest;
}

class LongWaitsFirst extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		const waitsLong = (test) =>
			test.duration == null &&
			longestDeclaredTimeout(fs.readFileSync(test.path, 'utf8')) >= LONG_TIMEOUT_MS;
		const first = sorted.filter(waitsLong);
		return [...first, ...sorted.filter((test) => !first.includes(test))];
	}
}

module.exports = LongWaitsFirst;
module.exports.longestDeclaredTimeout = longestDeclaredTimeout;
