import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closedAfterEach } from './helpers/crewServiceTesting';

// What Kickoff and Wait's Wait By: Callback relies on: the reference service calls the
// event stream URL it was given exactly as given (n8n 2.x checks the resume URL's
// ?signature=), once, and never again, even when the call is refused.

const start = closedAfterEach();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reference service: an event stream URL that is a resume URL', () => {
	let receiver: http.Server;
	const calls: Array<{ url: string; authorization?: string }> = [];
	beforeAll(async () => {
		// Answers 409, as n8n does when the execution is not waiting (yet).
		receiver = http.createServer((req, res) => {
			calls.push({ url: req.url ?? '', authorization: req.headers.authorization });
			req.resume();
			res.writeHead(409, { 'content-type': 'application/json' }).end('{"message":"The execution \\"7\\" is running already."}');
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise((resolve) => receiver.close(resolve)));

	it('calls the URL with its query string untouched, once, with no retry after a refusal', async () => {
		const service = await start({ durationMs: 200 });
		const port = (receiver.address() as AddressInfo).port;
		const pathAndQuery = '/webhook-waiting/7?signature=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&x=a%2Fb';
		const reply = await fetch(`${service.url}/kickoff`, {
			method: 'POST',
			headers: { authorization: `Bearer ${service.tokens.organization}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				inputs: { topic: 'AI' },
				webhooks: {
					url: `http://127.0.0.1:${port}${pathAndQuery}`,
					events: ['crew_kickoff_completed', 'crew_kickoff_failed'],
					realtime: true,
					authentication: { strategy: 'bearer', token: 'tok-1' },
				},
			}),
		});
		expect(reply.status).toBe(200);
		await service.waitForWebhooks((deliveries) => deliveries.some((d) => d.kind === 'stream' && d.status === 409), 5_000);
		await sleep(500);
		expect(calls).toEqual([{ url: pathAndQuery, authorization: 'Bearer tok-1' }]);
	});
});
