import { kickoff } from './client';
import { closedAfterEach } from './crewServiceTesting';
import { useReceivers } from './receivers';

// What Kickoff and Wait's Wait By: Callback relies on: the reference service calls the
// event stream URL it was given exactly as given (n8n 2.x checks the resume URL's
// ?signature=), once, and never again, even when the call is refused.

const start = closedAfterEach();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reference service: an event stream URL that is a resume URL', () => {
	const startReceiver = useReceivers();

	it('calls the URL with its query string untouched, once, with no retry after a refusal', async () => {
		const service = await start({ durationMs: 200 });
		// Answers 409, as n8n does when the execution is not waiting (yet).
		const receiver = await startReceiver({
			status: 409,
			contentType: 'application/json',
			body: '{"message":"The execution \\"7\\" is running already."}',
		});
		const pathAndQuery =
			'/webhook-waiting/7?signature=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&x=a%2Fb';
		await kickoff(service, {
			inputs: { topic: 'AI' },
			webhooks: {
				url: `${receiver.base}${pathAndQuery}`,
				events: ['crew_kickoff_completed', 'crew_kickoff_failed'],
				realtime: true,
				authentication: { strategy: 'bearer', token: 'tok-1' },
			},
		});
		await service.waitForWebhooks(
			(deliveries) => deliveries.some((d) => d.kind === 'stream' && d.status === 409),
			5_000,
		);
		await sleep(500);
		expect(
			receiver.received.map((call) => ({
				url: call.path,
				authorization: call.headers.authorization,
			})),
		).toEqual([{ url: pathAndQuery, authorization: 'Bearer tok-1' }]);
	});
});
