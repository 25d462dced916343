/**
 * The callback round trip for real: the Crew node kicks off with a crew
 * webhook URL, the reference service calls it over HTTP, and what arrives is
 * handed to the Crew Trigger's webhook method.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { IWebhookResponseData } from 'n8n-workflow';

import { useCrewService } from '../helpers/crewService';
import { runCrewNode } from '../helpers/crewWorkflow';
import { callCrewTrigger } from '../helpers/webhookFunctions';

const crew = useCrewService();

/** A loopback receiver standing in for n8n's webhook endpoint, handing each body to the trigger. */
async function startReceiver(triggerParameters: { events: string[]; secret?: string }) {
	const results: Array<{ result: IWebhookResponseData; status?: number }> = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			callCrewTrigger(JSON.parse(Buffer.concat(chunks).toString('utf8')), triggerParameters).then(
				({ result, response: answer }) => {
					results.push({ result, status: answer.status });
					response.writeHead(answer.status ?? 200).end();
				},
				// A trigger that throws is a failed call for the service, as in n8n.
				(error: Error) => response.writeHead(500).end(error.message),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/crew`;
	return { url, results, close: async () => await new Promise((resolve) => server.close(resolve)) };
}

describe('Kickoff → service callback → Crew Trigger', () => {
	it('delivers the crew\'s result to the trigger, which checks the secret and strips it', async () => {
		const receiver = await startReceiver({ events: ['crew'], secret: 'round-trip-secret' });
		try {
			const { output } = await runCrewNode({
				parameters: {
					operation: 'kickoff',
					inputsMode: 'json',
					inputsJson: '{"topic": "callbacks"}',
					options: { crewWebhookUrl: receiver.url, taskWebhookUrl: receiver.url, webhookSecret: 'round-trip-secret', meta: '{"run": 3}' },
				},
				credentials: crew.credentials,
			});
			await crew.service.waitForWebhooks((deliveries) => deliveries.some((delivery) => delivery.kind === 'crew' && delivery.status !== null), 5_000);
			const started = receiver.results.filter((entry) => entry.result.workflowData);
			expect(started).toHaveLength(1);
			expect(started[0].result.workflowData?.[0][0].json).toMatchObject({
				event: 'crew',
				kickoff_id: output[0].json.kickoff_id,
				result: 'Crew finished: topic=callbacks',
				meta: { run: 3 },
			});
			// Task calls arrived too, and were acknowledged without starting the workflow.
			expect(receiver.results.filter((entry) => entry.result.webhookResponse)).toHaveLength(3);
		} finally {
			await receiver.close();
		}
	});

	it('refuses the service\'s calls for a kickoff without the secret', async () => {
		const receiver = await startReceiver({ events: ['crew'], secret: 'expected-secret' });
		try {
			await runCrewNode({
				parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "x"}', options: { crewWebhookUrl: receiver.url } },
				credentials: crew.credentials,
			});
			await crew.service.waitForWebhooks((deliveries) => deliveries.some((delivery) => delivery.kind === 'crew' && delivery.status !== null), 5_000);
			expect(receiver.results.map((entry) => entry.status)).toEqual([401]);
		} finally {
			await receiver.close();
		}
	});
});
