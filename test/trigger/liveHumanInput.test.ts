/**
 * Human input as the hosted service does it today (docs/development/service-api.md, "Live"), end
 * to end over real HTTP: the Crew node kicks off with Human Input Webhook URL, the
 * reference service in its live dialect calls the top-level humanInputWebhookUrl
 * with no Authorization, a loopback receiver hands the request to the Crew
 * Trigger, and a Resume fed the trigger's item continues the crew.
 */
import type { IDataObject } from 'n8n-workflow';

import { useCrewService } from '../helpers/crewService';
import { runCrewNode } from '../helpers/crewWorkflow';
import { useTriggerReceivers } from '../helpers/triggerReceiver';

const crew = useCrewService({ dialect: 'live', durationMs: 300 });
const CALLBACK_TOKEN = 'cb-tok-DISTINCTIVE-live-2b71';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A loopback stand-in for n8n's webhook endpoint: every request goes to the trigger as received. */
const startReceiver = useTriggerReceivers();
const startTrigger = async (credentials: IDataObject | undefined) =>
	await startReceiver({ events: ['humanInput'] }, credentials);

const pausingKickoff = (humanInputWebhookUrl: string) => ({
	operation: 'kickoff',
	inputsMode: 'json',
	inputsJson: '{"topic": "callbacks"}',
	options: {
		humanInputWebhookUrl,
		meta: '{"reference": {"humanInput": {"taskId": "analysis_task"}}}',
	},
});
const humanInputCalls = (count = 1) =>
	crew.service.waitForWebhooks(
		(ds) => ds.filter((d) => d.kind === 'humanInput' && d.status !== null).length >= count,
		5_000,
	);

describe('Human Input Webhook URL → live call → Crew Trigger → Resume', () => {
	it('needs no callback credential: the kickoff sends humanInputWebhookUrl, the trigger takes the call, Resume from its item waits for the result', async () => {
		const trigger = await startTrigger(undefined);
		const { output } = await runCrewNode({
			parameters: pausingKickoff(trigger.url),
			credentials: crew.credentials,
		});
		const kickoffId = output[0].json.kickoff_id as string;
		const sent = crew.service.requests.find((request) => request.route === 'kickoff')
			?.body as IDataObject;
		expect(sent.humanInputWebhookUrl).toBe(trigger.url);
		expect(sent).not.toHaveProperty('humanInputWebhook');

		await humanInputCalls();
		expect(trigger.received).toHaveLength(1);
		expect(trigger.received[0].status).toBe(200);
		expect(trigger.calls.map((call) => call.authorization)).toEqual([undefined]);
		const [item] = trigger.received[0].items ?? [];
		expect(item).toMatchObject({
			event: 'human_input_requested',
			kickoff_id: kickoffId,
			task_id: expect.stringMatching(UUID),
			task_output: 'Analysis of topic=callbacks',
			authenticated: false,
		});

		// Kickoff ID and Task ID left at their defaults: they read the trigger's item.
		const resumed = await runCrewNode({
			parameters: {
				operation: 'resume',
				isApprove: true,
				humanFeedback: 'Looks right',
				waitForResumedRun: true,
				options: { pollInterval: 0.05, timeout: 20 },
			},
			items: [{ json: item }],
			credentials: crew.credentials,
		});
		const resumedRun = crew.service.runs[1];
		expect(crew.service.requests.find((request) => request.route === 'resume')?.body).toMatchObject(
			{ executionId: kickoffId, taskId: item.task_id },
		);
		expect(resumed.output[0].json).toMatchObject({
			kickoff_id: resumedRun.kickoffId,
			resumed_kickoff_id: kickoffId,
			state: 'completed',
			result: 'Crew finished: topic=callbacks (feedback: Looks right)',
		});
	});

	it('with a callback credential selected: both fields go out, the live call still comes without auth and is taken', async () => {
		const trigger = await startTrigger({ bearerToken: CALLBACK_TOKEN });
		const credentials = {
			...crew.credentials,
			bearerToken: CALLBACK_TOKEN,
		} as typeof crew.credentials;
		await runCrewNode({ parameters: pausingKickoff(trigger.url), credentials });
		const sent = crew.service.requests.find((request) => request.route === 'kickoff')
			?.body as IDataObject;
		expect(sent).toMatchObject({
			humanInputWebhookUrl: trigger.url,
			humanInputWebhook: {
				url: trigger.url,
				authentication: { strategy: 'bearer', token: '[REDACTED]' },
			},
		});
		await humanInputCalls();
		expect(trigger.received).toEqual([
			{ status: 200, items: [expect.objectContaining({ authenticated: false })] },
		]);
		expect(trigger.calls.map((call) => call.authorization)).toEqual([undefined]);
	});

	it("a Kickoff with a legacy Crew Webhook URL and a Legacy Webhook Secret: the call echoes meta whole, and the trigger's item shows no secret", async () => {
		const LEGACY_SECRET = 'legacy-DISTINCTIVE-secret-41d7';
		const credentials = {
			...crew.credentials,
			metaSecret: LEGACY_SECRET,
		} as typeof crew.credentials;
		const parameters = pausingKickoff('');
		for (const triggerCredential of [{ metaSecret: LEGACY_SECRET }, undefined]) {
			const trigger = await startTrigger(triggerCredential);
			const before = crew.service.webhookDeliveries.filter(
				(delivery) => delivery.kind === 'humanInput',
			).length;
			await runCrewNode({
				parameters: {
					...parameters,
					options: {
						...parameters.options,
						humanInputWebhookUrl: trigger.url,
						crewWebhookUrl: 'http://127.0.0.1:9/legacy',
					},
				},
				credentials,
			});
			await humanInputCalls(before + 1);
			// The service's call carried the secret in meta, as the live service echoes it.
			const delivery = crew.service.webhookDeliveries
				.filter((each) => each.kind === 'humanInput')
				.at(-1);
			expect(delivery?.payload).toMatchObject({ meta: { webhook_secret: LEGACY_SECRET } });
			const [item] = trigger.started();
			expect(item).toMatchObject({
				event: 'human_input_requested',
				authenticated: false,
				payload: { meta: { reference: { humanInput: { taskId: 'analysis_task' } } } },
			});
			expect(JSON.stringify(item)).not.toContain(LEGACY_SECRET);
			expect(trigger.logs.join('\n')).not.toContain(LEGACY_SECRET);
		}
	});

	it('a rejection sent with Human Input Webhook URL: the resumed run pauses again and calls the trigger with its own kickoff id', async () => {
		const trigger = await startTrigger(undefined);
		await runCrewNode({ parameters: pausingKickoff(trigger.url), credentials: crew.credentials });
		await humanInputCalls();
		const [first] = trigger.received[0].items ?? [];
		const other = await startTrigger(undefined);
		const { output } = await runCrewNode({
			parameters: {
				operation: 'resume',
				isApprove: false,
				humanFeedback: 'Shorter',
				options: { humanInputWebhookUrl: other.url },
			},
			items: [{ json: first }],
			credentials: crew.credentials,
		});
		await humanInputCalls(2);
		expect(other.received[0].items?.[0]).toMatchObject({
			kickoff_id: output[0].json.kickoff_id,
			task_output: expect.stringContaining('(revised after feedback: Shorter)'),
		});
	});
});
