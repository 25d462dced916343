/**
 * A loopback HTTP server standing in for an n8n route the reference crew service
 * calls (the resume URL, a Crew Trigger's webhook, any webhook URL): each request
 * is read whole and handed over as received, and answered as the handler says.
 * A handler that throws answers 500, as n8n does, so the service records a
 * failed call and the test sees it, rather than an unhandled rejection.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface ReceivedRequest {
	/** Path and query, as the service called them. */
	url: string;
	/** Lower-case names, as node's http server (and so express in n8n) gives them. */
	headers: Record<string, string>;
	rawBody: string;
}

/** A status (with `{}` as JSON), a whole answer, or 'hang': never answer (until the receiver closes). */
export type Answer = number | { status: number; body: string; contentType: string } | 'hang';

export interface LoopbackReceiver {
	/** `http://127.0.0.1:<port>`, no trailing slash. */
	base: string;
	close(): Promise<void>;
}

function send(response: http.ServerResponse, answer: Answer) {
	if (answer === 'hang') return;
	const { status, body, contentType } =
		typeof answer === 'number'
			? { status: answer, body: '{}', contentType: 'application/json' }
			: answer;
	response.writeHead(status, { 'content-type': contentType }).end(body);
}

export async function startLoopbackReceiver(
	answer: (request: ReceivedRequest) => Promise<Answer>,
): Promise<LoopbackReceiver> {
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const headers = Object.fromEntries(
				Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
			);
			answer({
				url: request.url ?? '/',
				headers,
				rawBody: Buffer.concat(chunks).toString('utf8'),
			}).then(
				(given) => send(response, given),
				(error: Error) => response.writeHead(500).end(error.message),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () =>
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
