/**
 * The callback round trip for real: the Crew node kicks off with a crew
 * webhook URL, the reference service calls it over HTTP, and what arrives is
 * handed to the Crew Trigger's webhook method.
 */
import { useCrewService } from '../helpers/crewService';
import { runCrewNode } from '../helpers/crewWorkflow';
import { useTriggerReceivers } from '../helpers/triggerReceiver';

const crew = useCrewService();

/** A loopback receiver standing in for n8n's webhook endpoint, handing each call to the trigger. */
const startReceiver = useTriggerReceivers();

describe('Kickoff → service callback → Crew Trigger', () => {
	it("delivers the crew's result to the trigger, which checks the secret and strips it", async () => {
		// Node version 1: the Webhook Secret parameter of 0.1.0.
		const receiver = await startReceiver(
			{ events: ['crew'], secret: 'round-trip-secret' },
			undefined,
			{ typeVersion: 1 },
		);
		const { output } = await runCrewNode({
			parameters: {
				operation: 'kickoff',
				inputsMode: 'json',
				inputsJson: '{"topic": "callbacks"}',
				options: {
					crewWebhookUrl: receiver.url,
					taskWebhookUrl: receiver.url,
					webhookSecret: 'round-trip-secret',
					meta: '{"run": 3}',
				},
			},
			credentials: crew.credentials,
		});
		await crew.service.waitForWebhooks(
			(deliveries) =>
				deliveries.some((delivery) => delivery.kind === 'crew' && delivery.status !== null),
			5_000,
		);
		const started = receiver.calls.filter((entry) => entry.result.workflowData);
		expect(started).toHaveLength(1);
		expect(started[0].result.workflowData?.[0][0].json).toMatchObject({
			event: 'crew',
			kickoff_id: output[0].json.kickoff_id,
			result: 'Crew finished: topic=callbacks',
			meta: { run: 3 },
		});
		// Task calls arrived too, and were acknowledged without starting the workflow.
		expect(receiver.calls.filter((entry) => entry.result.webhookResponse)).toHaveLength(3);
	});

	it("refuses the service's calls for a kickoff without the secret", async () => {
		const receiver = await startReceiver(
			{ events: ['crew'], secret: 'expected-secret' },
			undefined,
			{ typeVersion: 1 },
		);
		await runCrewNode({
			parameters: {
				operation: 'kickoff',
				inputsMode: 'json',
				inputsJson: '{"topic": "x"}',
				options: { crewWebhookUrl: receiver.url },
			},
			credentials: crew.credentials,
		});
		await crew.service.waitForWebhooks(
			(deliveries) =>
				deliveries.some((delivery) => delivery.kind === 'crew' && delivery.status !== null),
			5_000,
		);
		expect(receiver.received.map((entry) => entry.status)).toEqual([401]);
	});
});
