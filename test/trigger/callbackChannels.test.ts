/**
 * The service's own callback channels end to end, over real HTTP: the Crew node
 * kicks off against the reference service, which calls a loopback receiver that
 * hands each request (headers and raw body as received) to the Crew Trigger.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject } from 'n8n-workflow';

import { answerFeedback } from '../../nodes/Crew/actions/feedbackRequest/answer.operation';
import type { PostJson } from '../../nodes/Crew/actions/feedbackRequest/answer.operation';
import { useCrewService } from '../helpers/crewService';
import { runCrewNode } from '../helpers/executeFunctions';
import { useTriggerReceivers } from '../helpers/triggerReceiver';

const crew = useCrewService({ durationMs: 300 });
const CALLBACK_TOKEN = 'cb-tok-DISTINCTIVE-4e81aa';
const SIGNING_SECRET = 'whsec_DISTINCTIVE_5a9d3c';

// useCrewService resets the rest; these options are this file's own.
beforeEach(() =>
	crew.service.configure({
		eventStream: { shuffle: true, duplicate: false, flushMs: 100 },
		flowFeedback: null,
		now: Date.now,
	}),
);

/** A loopback stand-in for n8n's webhook endpoint: every request goes to the trigger as received. */
const startReceiver = useTriggerReceivers();
const startTrigger = async (events: string[], credentials: IDataObject | undefined) =>
	await startReceiver({ events }, credentials);

const senderCredentials = () =>
	({
		...crew.credentials,
		bearerToken: CALLBACK_TOKEN,
		basicUser: 'crewai',
		basicPassword: 'pw-DISTINCTIVE-17',
	}) as typeof crew.credentials;
const kickoff = (options: IDataObject) =>
	runCrewNode({
		parameters: {
			operation: 'kickoff',
			inputsMode: 'json',
			inputsJson: '{"topic": "callbacks"}',
			options,
		},
		credentials: senderCredentials(),
	});
const settledDeliveries = (kind: string, count = 1) =>
	crew.service.waitForWebhooks(
		(ds) =>
			ds.filter((d) => d.kind === kind && (d.status !== null || d.error !== undefined)).length >=
			count,
		5_000,
	);

describe('Event stream → Crew Trigger', () => {
	it("delivers crew_kickoff_completed with the crew's final output in plain fields", async () => {
		const trigger = await startTrigger(['runFinished'], { bearerToken: CALLBACK_TOKEN });
		const { output } = await kickoff({ eventStreamUrl: trigger.url });
		await crew.service.waitForWebhooks(
			(ds) =>
				ds.some(
					(d) =>
						d.kind === 'stream' &&
						(d.payload as { events: Array<{ type: string }> }).events.some(
							(e) => e.type === 'crew_kickoff_completed',
						) &&
						d.status !== null,
				),
			5_000,
		);
		expect(trigger.received.every((entry) => entry.status === 200)).toBe(true);
		expect(trigger.started()).toEqual([
			expect.objectContaining({
				event: 'crew_kickoff_completed',
				kickoff_id: output[0].json.kickoff_id,
				status: 'completed',
				result: 'Crew finished: topic=callbacks',
				result_json: { inputs: { topic: 'callbacks' }, kickoffNumber: 1 },
				total_tokens: 2580,
			}),
		]);
	});

	it('a wrong token, or none, is refused with 401 and starts nothing', async () => {
		const trigger = await startTrigger(['all'], { bearerToken: 'a-different-token' });
		await kickoff({ eventStreamUrl: trigger.url, eventStreamEvents: ['task', 'runFinished'] });
		await settledDeliveries('stream');
		await crew.service.waitForWebhooks(
			(ds) =>
				ds.some(
					(d) =>
						d.kind === 'stream' &&
						d.status !== null &&
						(d.payload as { events: Array<{ type: string }> }).events.some(
							(e) => e.type === 'crew_kickoff_completed',
						),
				),
			5_000,
		);
		expect(trigger.received.length).toBeGreaterThan(0);
		expect(
			trigger.received.every((entry) => entry.status === 401 && entry.items === undefined),
		).toBe(true);

		// A stream requested without authentication (not by the Crew node, which always sends it).
		const open = await startTrigger(['all'], { bearerToken: CALLBACK_TOKEN });
		await fetch(`${crew.service.url}/kickoff`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${crew.credentials.token}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({
				inputs: { topic: 'x' },
				webhooks: { url: open.url, events: ['crew_kickoff_completed'] },
			}),
		});
		await crew.service.waitForWebhooks(
			(ds) => ds.some((d) => d.url === open.url && d.status !== null),
			5_000,
		);
		expect(open.received.map((entry) => entry.status)).toEqual([401]);
	});

	it('shuffled batches with a duplicate come out in order, each event once', async () => {
		crew.service.configure({ eventStream: { shuffle: true, duplicate: true, flushMs: 1000 } });
		const trigger = await startTrigger(['crew', 'task', 'tool'], { bearerToken: CALLBACK_TOKEN });
		await kickoff({ eventStreamUrl: trigger.url, eventStreamEvents: ['crew', 'task', 'tool'] });
		// One batch: everything waits for the flush, and the terminal event flushes at once.
		await settledDeliveries('stream');
		const sent = (crew.service.webhookDeliveries[0].payload as { events: Array<{ id: string }> })
			.events;
		expect(sent.length).toBe(new Set(sent.map((e) => e.id)).size + 1);
		const items = trigger.started();
		expect(items.map((item) => item.id)).toEqual(
			[...new Set(sent.map((e) => e.id))].sort((a, b) => {
				const at = (id: string) => items.find((item) => item.id === id)?.timestamp as string;
				return at(a).localeCompare(at(b));
			}),
		);
		expect(items[0].event).toBe('crew_kickoff_started');
		expect(items.at(-1)?.event).toBe('crew_kickoff_completed');
		const timestamps = items.map((item) => item.timestamp as string);
		expect([...timestamps].sort()).toEqual(timestamps);
	});

	it('keeps event types it does not know when All Events is picked, drops them otherwise', async () => {
		const all = await startTrigger(['all'], { bearerToken: CALLBACK_TOKEN });
		await kickoff({
			eventStreamUrl: all.url,
			eventStreamEvents: ['runFinished'],
			eventStreamAdditionalTypes: 'report_draft_ready',
			eventStreamRealtime: true,
		});
		await settledDeliveries('stream', 2);
		expect(all.started().map((item) => item.event)).toEqual(
			expect.arrayContaining(['report_draft_ready', 'crew_kickoff_completed']),
		);

		crew.service.reset();
		const picked = await startTrigger(['runFinished'], { bearerToken: CALLBACK_TOKEN });
		await kickoff({
			eventStreamUrl: picked.url,
			eventStreamEvents: ['runFinished'],
			eventStreamAdditionalTypes: 'report_draft_ready',
			eventStreamRealtime: true,
		});
		await settledDeliveries('stream', 2);
		expect(picked.received.map((entry) => entry.status)).toEqual([200, 200]);
		expect(picked.started().map((item) => item.event)).toEqual(['crew_kickoff_completed']);
	});
});

describe('Human input → Crew Trigger → Resume', () => {
	it.each(['bearer', 'basic'] as const)(
		'the %s-authenticated call gives kickoff_id, task_id and task_output; Resume completes the crew',
		async (auth) => {
			const trigger = await startTrigger(['humanInput'], {
				bearerToken: CALLBACK_TOKEN,
				basicUser: 'crewai',
				basicPassword: 'pw-DISTINCTIVE-17',
			});
			const { output } = await kickoff({
				humanInputWebhookUrl: trigger.url,
				humanInputWebhookAuth: auth,
				meta: '{"reference": {"humanInput": {"taskId": "analysis_task"}}}',
			});
			await settledDeliveries('humanInput');
			const [item] = trigger.started();
			expect(item).toMatchObject({
				event: 'human_input_requested',
				kickoff_id: output[0].json.kickoff_id,
				task_id: 'analysis_task',
				task_output: 'Analysis of topic=callbacks',
			});
			expect(item.payload).toBeDefined();

			const resumed = await runCrewNode({
				parameters: {
					operation: 'resume',
					kickoffId: item.kickoff_id,
					taskId: item.task_id,
					isApprove: true,
					humanFeedback: 'Looks right',
				},
				credentials: crew.credentials,
			});
			expect(resumed.output[0].json).toMatchObject({ status: 'resumed' });
			// The rest of the run takes two thirds of 300 ms from the resume; wait on the run, with a deadline
			// that only stops a hang (the status read below says whether it completed).
			const deadline = Date.now() + 15_000;
			while (crew.service.runs[0].state !== 'completed' && Date.now() < deadline)
				await new Promise((resolve) => setTimeout(resolve, 25));
			const status = await runCrewNode({
				parameters: { operation: 'getStatus', kickoffId: item.kickoff_id },
				credentials: crew.credentials,
			});
			expect(status.output[0].json).toMatchObject({
				state: 'completed',
				result: 'Crew finished: topic=callbacks (feedback: Looks right)',
			});
		},
	);

	it('a call with the wrong basic password is refused and starts nothing', async () => {
		const trigger = await startTrigger(['humanInput'], {
			bearerToken: CALLBACK_TOKEN,
			basicUser: 'crewai',
			basicPassword: 'another-password',
		});
		await kickoff({
			humanInputWebhookUrl: trigger.url,
			humanInputWebhookAuth: 'basic',
			meta: '{"reference": {"humanInput": {"taskId": "research_task"}}}',
		});
		await settledDeliveries('humanInput');
		expect(trigger.received).toEqual([{ status: 401, items: undefined }]);
	});
});

describe('Flow feedback request → Crew Trigger → Answer Feedback Request', () => {
	const post: PostJson = async (url, body) => {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { statusCode: response.status, body: await response.json() };
	};
	const pausedKickoff = () =>
		kickoff({ meta: '{"reference": {"humanInput": {"taskId": "research_task"}}}' });

	it.each([
		['current', 'nested'],
		['crewai', 'flat'],
	] as const)(
		'verifies the signature (%s headers, %s payload); the answer is taken once, then 409',
		async (headers, shape) => {
			const trigger = await startTrigger(['feedbackRequest'], { signingSecret: SIGNING_SECRET });
			crew.service.configure({
				flowFeedback: { url: trigger.url, secret: SIGNING_SECRET, headers, shape },
			});
			await pausedKickoff();
			await settledDeliveries('feedbackRequest');
			const [item] = trigger.started();
			expect(item).toMatchObject({
				event: 'feedback_requested',
				request_type: 'new_request',
				method_name: 'research_task',
				emit_options: ['approved', 'rejected'],
			});

			const first = await answerFeedback(post, item.callback_url, 'approved');
			expect(first).toEqual({
				ok: true,
				json: expect.objectContaining({
					answered: true,
					status: 'accepted',
					outcome: 'approved',
					callback_host: new URL(item.callback_url as string).host,
				}),
			});
			const second = await answerFeedback(post, item.callback_url, 'rejected');
			expect(second).toMatchObject({
				ok: false,
				message: 'This feedback request was already answered',
			});
			// The callback URL (and so its token) is in neither answer.
			expect(JSON.stringify([first, second])).not.toContain(item.callback_url as string);
			expect(crew.service.feedbackRequests[0].answers.map((answer) => answer.status)).toEqual([
				200, 409,
			]);
			expect(crew.service.runs[0].resumes).toEqual([
				expect.objectContaining({ approved: true, feedback: 'approved' }),
			]);
		},
	);

	it("the Crew node's Answer, run by n8n's engine, answers once; a second answer is that item's error; the URL shows nowhere", async () => {
		const trigger = await startTrigger(['feedbackRequest'], { signingSecret: SIGNING_SECRET });
		crew.service.configure({ flowFeedback: { url: trigger.url, secret: SIGNING_SECRET } });
		await pausedKickoff();
		await settledDeliveries('feedbackRequest');
		const callbackUrl = trigger.started()[0].callback_url as string;
		const answer = (feedback: string) =>
			runCrewNode({
				parameters: {
					resource: 'feedbackRequest',
					operation: 'answerFeedback',
					callbackUrl,
					feedback,
				},
				credentials: crew.credentials,
				continueOnFail: true,
			});
		const first = await answer('approved');
		expect(first.output).toEqual([
			{
				json: expect.objectContaining({
					answered: true,
					status: 'accepted',
					outcome: 'approved',
					callback_host: new URL(callbackUrl).host,
				}),
				pairedItem: { item: 0 },
			},
		]);
		const second = await answer('rejected');
		expect(second.output[0].json).toMatchObject({
			error: 'This feedback request was already answered',
		});
		expect(crew.service.feedbackRequests[0].answers.map((sent) => sent.status)).toEqual([200, 409]);
		// The URL carries the request's own token: it is in no output item and no log line.
		for (const run of [first, second]) {
			expect(JSON.stringify(run.output)).not.toContain(callbackUrl);
			expect(run.record.logs.join('\n')).not.toContain(
				new URL(callbackUrl).searchParams.get('token') ?? callbackUrl,
			);
		}
	});

	it("Answer follows no redirect: a callback URL that answers 307 to the real one is that item's error, and the service gets no answer", async () => {
		const trigger = await startTrigger(['feedbackRequest'], { signingSecret: SIGNING_SECRET });
		crew.service.configure({ flowFeedback: { url: trigger.url, secret: SIGNING_SECRET } });
		await pausedKickoff();
		await settledDeliveries('feedbackRequest');
		const callbackUrl = trigger.started()[0].callback_url as string;
		// An address that sends every POST on to the request's real callback URL, as a 307 keeps the method and the body.
		const redirecting = http.createServer((request, response) => {
			request.resume();
			response.writeHead(307, { location: callbackUrl }).end();
		});
		await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = redirecting.address() as AddressInfo;
			const { output } = await runCrewNode({
				parameters: {
					resource: 'feedbackRequest',
					operation: 'answerFeedback',
					callbackUrl: `http://127.0.0.1:${port}/respond?token=t`,
					feedback: 'approved',
				},
				credentials: crew.credentials,
				continueOnFail: true,
			});
			expect(output[0].json).toMatchObject({
				error: `127.0.0.1:${port} answered 307, a redirect, which the node does not follow`,
			});
			expect(crew.service.feedbackRequests[0].answers).toEqual([]);
		} finally {
			await new Promise<void>((resolve) => redirecting.close(() => resolve()));
		}
	});

	it('the same signed request sent again within its 5 minutes (a replay) is answered 200 and starts nothing', async () => {
		const trigger = await startTrigger(['feedbackRequest'], { signingSecret: SIGNING_SECRET });
		crew.service.configure({
			flowFeedback: { url: trigger.url, secret: SIGNING_SECRET, headers: 'crewai', shape: 'flat' },
		});
		await pausedKickoff();
		await settledDeliveries('feedbackRequest');
		expect(trigger.started()).toHaveLength(1);
		// Whoever saw the call sends its bytes and headers again, as they were.
		const { headers, rawBody } = trigger.calls[0].request;
		const signature = Object.fromEntries(
			Object.entries(headers).filter(([name]) => /^x-crewai-(signature|timestamp)$/.test(name)),
		);
		const replay = await fetch(trigger.url, {
			method: 'POST',
			headers: { ...signature, 'content-type': 'application/json' },
			body: rawBody,
		});
		expect(replay.status).toBe(200);
		expect(trigger.calls[1].result).toEqual({
			webhookResponse: { received: true, ignored: 'this feedback request was received before' },
		});
		expect(trigger.started()).toHaveLength(1);
		expect(trigger.logs.filter((line) => /took before; it starts nothing/.test(line))).toHaveLength(
			1,
		);
	});

	it('a wrong signing secret is refused with 401 and starts nothing', async () => {
		const trigger = await startTrigger(['feedbackRequest'], { signingSecret: 'whsec_not_the_one' });
		crew.service.configure({ flowFeedback: { url: trigger.url, secret: SIGNING_SECRET } });
		await pausedKickoff();
		await settledDeliveries('feedbackRequest');
		expect(trigger.received).toEqual([{ status: 401, items: undefined }]);
		// A bare 401: the reason is in n8n's log only.
		expect(trigger.refusedBodies).toEqual(['']);
		expect(
			trigger.logs.filter((line) =>
				line.includes('refused a call (feedbackRequest): the signature does not match'),
			),
		).toHaveLength(1);
	});

	it('a request signed more than 5 minutes ago (a replay) is refused with 401', async () => {
		const trigger = await startTrigger(['feedbackRequest'], { signingSecret: SIGNING_SECRET });
		// The service signs with its own clock: six minutes behind the trigger's.
		crew.service.configure({
			now: () => Date.now() - 6 * 60_000,
			flowFeedback: { url: trigger.url, secret: SIGNING_SECRET },
		});
		await runCrewNode({
			parameters: {
				operation: 'kickoff',
				inputsMode: 'json',
				inputsJson: '{"topic": "x"}',
				options: { meta: '{"reference": {"humanInput": {"taskId": "research_task"}}}' },
			},
			credentials: crew.credentials,
		});
		await settledDeliveries('feedbackRequest');
		expect(trigger.received).toEqual([{ status: 401, items: undefined }]);
	});
});
