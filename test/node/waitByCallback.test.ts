import type { IDataObject } from 'n8n-workflow';

import { chatWhileParked } from '../../nodes/waiting/chatWhileParked';
import { CrewCredentialsHelper } from '../helpers/crewCredentialsHelper';
import { useCrewService, ORGANIZATION_TOKEN } from '../helpers/crewService';
import { runCrewNode } from '../helpers/crewWorkflow';
import type { CrewRunOptions } from '../helpers/crewWorkflow';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import type { ResumeCall } from '../helpers/resumeReceiver';
import {
	callResumeWebhook,
	runUntilParked as runWorkflowUntilParked,
} from '../helpers/waitingExecution';
import type { ParkedExecution } from '../helpers/waitingExecution';

const crew = useCrewService();

/** n8n's /webhook-waiting/ route, recording every call the crew service makes; each test hands them to webhook() itself. */
const receiver = useResumeReceiver({ forwardCalls: false });

const byCallback = (options: object = {}) => ({
	operation: 'kickoffAndWait',
	waitBy: 'callback',
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options: { pollInterval: 0.1, timeout: 60, firstPhase: 0.3, ...options },
});

/** The workflow run on n8n's engine until the Crew node parks it, with n8n's /webhook-waiting/ at the stand-in above. */
async function runUntilParked(
	parameters: object,
	options: Omit<CrewRunOptions, 'parameters' | 'credentials'> & {
		webhookWaitingBaseUrl?: string | null;
	} = {},
) {
	const before = Date.now();
	const execution = await runWorkflowUntilParked({
		parameters,
		credentials: crew.credentials,
		webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		...options,
	});
	if (execution.error) throw execution.error;
	return { ...execution, before };
}

/** A call to the resume URL (the crew service's, or a forged one), handled as n8n does: the signature, then the node's webhook(). */
async function callWebhook(
	execution: ParkedExecution,
	call: { url?: string; body: unknown; authorization?: string },
) {
	const query = Object.fromEntries(new URL(call.url ?? '/', receiver.base).searchParams);
	const headers = {
		'content-type': 'application/json',
		...(call.authorization === undefined ? {} : { authorization: call.authorization }),
	};
	return await callResumeWebhook(execution, { body: call.body, headers, query });
}

async function deliveredCall(count = 1): Promise<ResumeCall[]> {
	await crew.service.waitForWebhooks(
		(deliveries) =>
			deliveries.filter((d) => d.kind === 'stream' && d.status !== null).length >= count,
		10_000,
	);
	return receiver.calls;
}

describe('Kickoff and Wait, Wait By: Callback', () => {
	it("kicks off with the resume URL as given and a bearer token, parks until the timeout, and the crew's call resumes it with the normalized record", async () => {
		crew.service.configure({ durationMs: 1_500 });
		const execution = await runUntilParked(byCallback());
		const { output, waitTill, parked, executionId, before } = execution;
		const [run] = crew.service.runs;
		expect(output).toEqual([
			{
				json: expect.objectContaining({
					kickoff_id: run.kickoffId,
					state: 'running',
					waiting_for: 'callback',
				}),
				sendMessage: chatWhileParked([run.kickoffId]),
				pairedItem: { item: 0 },
			},
		]);
		expect(execution.run.status).toBe('waiting');
		expect(waitTill?.getTime()).toBeGreaterThanOrEqual(before + 60_000);
		expect(waitTill?.getTime()).toBeLessThan(Date.now() + 60_000 + 1);
		// $execution.resumeUrl as n8n 2.x builds it: the waiting route, the execution's ID and its resume token as `signature`.
		const { resumeToken } = execution.run.data;
		expect(resumeToken).toMatch(/^\w{16,}$/);
		const resumeUrl = `${receiver.webhookWaitingBaseUrl}/${executionId}?signature=${resumeToken}`;
		expect(run.callbacks.stream).toEqual({
			url: resumeUrl,
			events: ['crew_kickoff_completed', 'crew_kickoff_failed'],
			realtime: true,
			auth: 'bearer',
		});
		// The waiting item is the timeout output, and holds no token.
		expect(parked[0].json).toMatchObject({
			kickoff_id: run.kickoffId,
			error: `The crew did not call back within 60 seconds (kickoff ID ${run.kickoffId})`,
		});
		expect(parked[0].error?.message).toBe(parked[0].json.error);

		const [call] = await deliveredCall();
		expect(call.url).toBe(`/webhook-waiting/${executionId}?signature=${resumeToken}`);
		expect(call.authorization).toMatch(/^Bearer \w{32,}$/);
		// Neither the waiting item nor anything else n8n stores with the waiting execution holds the callback token.
		expect(JSON.stringify(parked)).not.toContain(call.authorization?.slice(7));
		expect(JSON.stringify(execution.run)).not.toContain(call.authorization?.slice(7));
		const { result, resumed } = await callWebhook(execution, call);
		const polled = await runCrewNode({
			parameters: { operation: 'getStatus', kickoffId: run.kickoffId },
			credentials: crew.credentials,
		});
		expect(result.workflowData).toEqual([
			[{ json: polled.output[0].json, pairedItem: { item: 0 } }],
		]);
		expect(result.workflowData?.[0][0].json).toMatchObject({
			state: 'completed',
			result: 'Crew finished: topic=AI',
		});
		expect(JSON.stringify(result)).not.toContain(ORGANIZATION_TOKEN);
		// n8n resumes the execution with it: the Crew node's output is the crew's record, and the execution succeeds.
		expect(resumed?.run.status).toBe('success');
		expect(resumed?.output).toEqual([{ json: polled.output[0].json, pairedItem: { item: 0 } }]);
	});

	it('reads the credential once per call, for its status read too: n8n 2.x builds an expression isolate for every credential read in a webhook', async () => {
		crew.service.configure({ durationMs: 1_000 });
		const execution = await runUntilParked(byCallback());
		const [call] = await deliveredCall();
		const statusReads = crew.service.count('status');
		const credentialReads = jest.spyOn(CrewCredentialsHelper.prototype, 'getDecrypted');
		try {
			const { result } = await callWebhook(execution, call);
			expect(result.workflowData?.[0][0].json).toMatchObject({
				state: 'completed',
				kickoff_id: crew.service.runs[0].kickoffId,
			});
			// The call confirmed the crew's end with a status read of its own, sent with the credential read once at its start.
			expect(crew.service.count('status')).toBe(statusReads + 1);
			expect(credentialReads).toHaveBeenCalledTimes(1);
		} finally {
			credentialReads.mockRestore();
		}
	});

	it('shows, while parked, an item that says what it is: a Webhook answering when the last node finishes sends it to its caller', async () => {
		crew.service.configure({ durationMs: 1_500 });
		const execution = await runUntilParked(byCallback());
		const [run] = crew.service.runs;
		expect(execution.output).toEqual([
			{
				json: {
					kickoff_id: run.kickoffId,
					state: 'running',
					waiting_for: 'callback',
					wait_till: execution.waitTill?.toISOString(),
					message:
						"The crew is still running: this execution is parked until the crew calls back, then the workflow goes on with the crew's result. " +
						"This item is not that result. To answer a webhook's caller with it, set the Webhook's Respond to \"Using 'Respond to Webhook' Node\" " +
						`and put a Respond to Webhook node after the Crew node; or read the result later with Get Status and kickoff ID ${run.kickoffId}.`,
				},
				// What n8n's chat shows while it waits (not the Webhook's caller: n8n answers it with `json`).
				sendMessage: chatWhileParked([run.kickoffId]),
				pairedItem: { item: 0 },
			},
		]);
		// The caller may be anyone: the item names no resume URL, signature or callback token.
		const [call] = await deliveredCall();
		const shown = JSON.stringify(execution.output);
		expect(shown).not.toContain('webhook-waiting');
		expect(shown).not.toContain('signature');
		expect(shown).not.toContain(call.authorization?.slice(7));
	});

	it("gives a failed crew polling's error item, with Continue On Fail as polling has it", async () => {
		crew.service.configure({
			durationMs: 800,
			plan: () => ({ outcome: 'failure', error: 'LLM key invalid' }),
		});
		const execution = await runUntilParked(byCallback(), { continueOnFail: true });
		const [call] = await deliveredCall();
		const { result, resumed } = await callWebhook(execution, call);
		const [[item]] = result.workflowData ?? [[]];
		const kickoffId = crew.service.runs[0].kickoffId;
		expect(item.json).toEqual({
			error: `The crew failed (kickoff ID ${kickoffId}): LLM key invalid`,
			description: expect.stringContaining('reported a failure'),
			kickoff_id: kickoffId,
		});

		crew.service.configure({
			durationMs: 100,
			plan: () => ({ outcome: 'failure', error: 'LLM key invalid' }),
		});
		const polling = await runCrewNode({
			parameters: { ...byCallback(), waitBy: 'polling' },
			credentials: crew.credentials,
			continueOnFail: true,
		});
		// What n8n shows once resumed is the item polling gives with Continue On Fail: the same fields, none stripped.
		const [shown] = resumed?.output ?? [];
		expect(shown).toEqual({ json: item.json, pairedItem: { item: 0 } });
		const pollingKickoffId = crew.service.runs[1].kickoffId;
		expect(polling.output[0]).toEqual({
			json: {
				...item.json,
				error: `The crew failed (kickoff ID ${pollingKickoffId}): LLM key invalid`,
				kickoff_id: pollingKickoffId,
			},
			pairedItem: { item: 0 },
		});
	});

	it('keeps waiting on a forged call: wrong token, another kickoff, or no final event', async () => {
		crew.service.configure({ durationMs: 1_000 });
		const execution = await runUntilParked(byCallback());
		const [call] = await deliveredCall();
		const events = (call.body as { events: IDataObject[] }).events;
		const forgeries = [
			{ url: call.url, body: call.body, authorization: 'Bearer 0000' },
			{ url: call.url, body: call.body, authorization: undefined },
			{
				url: call.url,
				body: { events: events.map((event) => ({ ...event, execution_id: 'someone-else' })) },
				authorization: call.authorization,
			},
			{
				url: call.url,
				body: { events: events.map((event) => ({ ...event, type: 'task_completed' })) },
				authorization: call.authorization,
			},
		];
		const readsBefore = crew.service.runs[0].statusRequests;
		const answers = [];
		for (const forgery of forgeries) {
			const { result, answered, resumed } = await callWebhook(execution, forgery);
			expect(result.workflowData).toBeUndefined();
			expect(resumed).toBeUndefined();
			answers.push(answered.status ?? 200);
		}
		expect(answers).toEqual([401, 401, 409, 200]);
		// n8n itself refuses a call without the resume URL's signature, before the node (the signature is the crew's URL's own).
		const unsigned = await callWebhook(execution, {
			url: '/',
			body: call.body,
			authorization: call.authorization,
		});
		expect([unsigned.answered.status, unsigned.result.workflowData]).toEqual([401, undefined]);
		// None of them got as far as the confirming status read.
		expect(crew.service.runs[0].statusRequests).toBe(readsBefore);
	});

	it('answers a crew that ends within the first phase at once, without parking', async () => {
		crew.service.configure({ durationMs: 200 });
		const { output, waitTill, run } = await runUntilParked(byCallback({ firstPhase: 5 }));
		expect(waitTill).toBeUndefined();
		expect(run.status).toBe('success');
		expect(output[0].json).toMatchObject({ state: 'completed', result: 'Crew finished: topic=AI' });
	});

	it('refuses the Event Stream option, which the mode uses itself', async () => {
		const parameters = byCallback({ eventStreamUrl: 'http://127.0.0.1:1/x' });
		await expect(runUntilParked(parameters)).rejects.toThrow(
			'Event Stream cannot be set with Wait By: Callback',
		);
		expect(crew.service.count('kickoff', 'POST')).toBe(0);
	});

	it('starts no crew when n8n gives no resume URL the crew can call', async () => {
		// n8n 1.x without a waiting base URL gives "undefined/<id>", which n8n 2.x's engine cannot build (it fails the
		// expression itself); a base that is no web address is how this engine gives a resume URL no crew can call.
		await expect(
			runUntilParked(byCallback(), { webhookWaitingBaseUrl: 'urn:n8n:webhook-waiting' }),
		).rejects.toThrow('n8n gave no resume URL');
		await expect(runUntilParked(byCallback(), { webhookWaitingBaseUrl: null })).rejects.toThrow();
		expect(crew.service.count('kickoff', 'POST')).toBe(0);
	});
});
