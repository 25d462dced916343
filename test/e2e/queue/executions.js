'use strict';
// Reading executions back through n8n's REST API (GET /rest/executions/<id>) as the owner.
// The stored run data (`data`) is `flatted`-encoded: the copy of flatted in the n8n install
// is used when there is one, else the same format is decoded here.

const path = require('node:path');

/**
 * flatted's format: a JSON array whose element 0 is the root; inside objects and arrays every
 * string is the index (as a string) of the array element holding the real value; strings at
 * the top level of the array are real strings. Numbers, booleans and null stay in place.
 */
function unflatten(text) {
	const input = JSON.parse(text);
	const out = new Map();
	const build = (index) => {
		if (out.has(index)) return out.get(index);
		const value = input[index];
		if (typeof value !== 'object' || value === null) {
			out.set(index, value);
			return value;
		}
		const copy = Array.isArray(value) ? [] : {};
		out.set(index, copy); // before the children: cycles resolve to the same object
		for (const key of Object.keys(value)) {
			const v = value[key];
			copy[key] = typeof v === 'string' ? build(Number(v)) : v;
		}
		return copy;
	};
	return build(0);
}

/** flatted's parse from the n8n install when it resolves there, else unflatten(). */
function decoderFor(layout) {
	try {
		const flatted = require(
			require.resolve('flatted', { paths: [path.join(layout.target, 'node_modules', 'n8n')] }),
		);
		if (typeof flatted.parse === 'function')
			return { parse: flatted.parse, from: 'flatted from the n8n install' };
	} catch {
		/* not there: decode by hand */
	}
	return { parse: unflatten, from: 'the built-in flatted decoder' };
}

const FINISHED = new Set(['success', 'error', 'canceled', 'crashed']);

/** One execution with its run data decoded; waits (up to timeoutMs) until it has finished. */
async function readExecution(rest, decode, id, { timeoutMs = 20000, finished = true } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const e = await rest.get(`executions/${id}`);
		if (!finished || FINISHED.has(e.status) || Date.now() > deadline) {
			return { ...e, data: typeof e.data === 'string' ? decode.parse(e.data) : e.data };
		}
		await new Promise((r) => setTimeout(r, 250));
	}
}

/** The workflow-level error of a decoded execution: message and description. */
function executionError(e) {
	const err = e && e.data && e.data.resultData && e.data.resultData.error;
	return err
		? { message: String(err.message || ''), description: String(err.description || '') }
		: null;
}

/** Items a node put out in a decoded execution (its first run, first output). */
function nodeItems(e, node) {
	const runs = e.data.resultData.runData[node];
	if (!runs || !runs[0])
		throw new Error(
			`node "${node}" did not run (ran: ${Object.keys(e.data.resultData.runData).join(', ')})`,
		);
	if (runs[0].error) throw new Error(`node "${node}" failed: ${runs[0].error.message}`);
	return (runs[0].data && runs[0].data.main && runs[0].data.main[0]) || [];
}

module.exports = { unflatten, decoderFor, readExecution, executionError, nodeItems };
