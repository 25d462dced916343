'use strict';
// Reading the run JSON that `n8n execute --rawOutput` prints (an IRun).

const assert = require('node:assert/strict');

function runData(run) {
	assert.ok(run, 'n8n printed no run JSON');
	return run.data.resultData.runData || {};
}

/** The first run of a node; fails when the node did not run. */
function nodeRun(run, name) {
	const rd = runData(run);
	assert.ok(
		rd[name],
		`node "${name}" did not run (ran: ${Object.keys(rd).join(', ') || 'nothing'})`,
	);
	return rd[name][0];
}

/** Items a node put on one of its outputs. */
function items(run, name, output = 0) {
	const r = nodeRun(run, name);
	assert.ok(!r.error, `node "${name}" failed: ${r.error && r.error.message}`);
	return ((r.data && r.data.main) || [])[output] || [];
}

/** pairedItem as a list of input indexes, whatever form n8n stored it in. */
function pairedIndexes(item) {
	const p = item.pairedItem;
	if (p === undefined || p === null) return [];
	const list = Array.isArray(p) ? p : [p];
	return list.map((x) => (typeof x === 'number' ? x : x.item));
}

/** The workflow-level error (default On Error): message + description, or ''. */
function errorText(run) {
	const e = run && run.data && run.data.resultData && run.data.resultData.error;
	if (!e) return '';
	return [e.message, e.description, e.cause && e.cause.message].filter(Boolean).join(' | ');
}

module.exports = { runData, nodeRun, items, pairedIndexes, errorText };
