'use strict';
// A streamed HTTP answer read as n8n streams it (NDJSON): line by line, each with the time it
// arrived, so that a check can tell what came before something else happened.

/**
 * POSTs body as JSON and reads the answer as it arrives: { status, contentType, sentAt, lines:
 * [{at, line}], text }. onLine(line, lines) is awaited for each non-empty line as it arrives.
 */
async function postAndReadLines(url, body, { headers = {}, onLine = async () => {} } = {}) {
	const sentAt = Date.now();
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
	const lines = [];
	let text = '';
	let pending = '';
	const decoder = new TextDecoder();
	for await (const part of res.body) {
		const piece = decoder.decode(part, { stream: true });
		text += piece;
		pending += piece;
		const complete = pending.split('\n');
		pending = complete.pop();
		for (const line of complete) {
			if (line.trim() === '') continue;
			lines.push({ at: Date.now(), line });
			await onLine(line, lines);
		}
	}
	if (pending.trim() !== '') lines.push({ at: Date.now(), line: pending });
	return {
		status: res.status,
		contentType: res.headers.get('content-type'),
		contentEncoding: res.headers.get('content-encoding'),
		sentAt,
		lines,
		text,
	};
}

module.exports = { postAndReadLines };
