import * as http from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject, IExecuteData, IHttpRequestOptions, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { Crew } from '../../nodes/Crew/Crew.node';
import { useCrewService, ORGANIZATION_TOKEN } from '../helpers/crewService';
import { createExecuteFunctions, items, runCrewNode, sendRequest } from '../helpers/executeFunctions';
import type { Credentials } from '../helpers/executeFunctions';

const crew = useCrewService();

/** Stands in for n8n's /webhook-waiting/ route: records every call the crew service makes to the resume URL. */
interface ResumeCall {
	url: string;
	authorization: string | undefined;
	body: unknown;
}
let resumeServer: http.Server;
let resumeBase: string;
const resumeCalls: ResumeCall[] = [];
beforeAll(async () => {
	resumeServer = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			resumeCalls.push({ url: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => resumeServer.listen(0, '127.0.0.1', resolve));
	resumeBase = `http://127.0.0.1:${(resumeServer.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise((resolve) => resumeServer.close(resolve)));
beforeEach(() => void (resumeCalls.length = 0));

const byCallback = (options: object = {}) => ({
	operation: 'kickoffAndWait',
	waitBy: 'callback',
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options: { pollInterval: 0.1, timeout: 60, firstPhase: 0.3, ...options },
});

/** Runs execute() with the parts of n8n's wait API the mode uses; what it parked is returned for webhook(). */
async function runUntilParked(parameters: object, options: { items?: INodeExecutionData[]; continueOnFail?: boolean; resumeUrl?: string } = {}) {
	const { resumeUrl: givenUrl, ...fake } = options;
	const { context } = createExecuteFunctions({ parameters, credentials: crew.credentials, ...fake });
	const executeData = { data: { main: [options.items ?? [{ json: {} }]] } } as unknown as IExecuteData;
	const waits: Date[] = [];
	const resumeUrl = givenUrl ?? `${resumeBase}/webhook-waiting/42?signature=s1g`;
	Object.assign(context, {
		evaluateExpression: (expression: string) => (expression === '{{ $execution.resumeUrl }}' ? resumeUrl : undefined),
		getExecuteData: () => executeData,
		setMetadata: () => undefined,
		putExecutionToWait: async (waitTill: Date) => void waits.push(waitTill),
	});
	const before = Date.now();
	const [output] = await new Crew().execute.call(context);
	return { output, waits, parked: executeData.data.main[0] ?? [], resumeUrl, before };
}

/** Calls webhook() as n8n does on a call to the resume URL: the waiting item is `$json`. */
async function callWebhook(parked: INodeExecutionData[], call: { body: unknown; authorization?: string }, credentials: Credentials = crew.credentials) {
	const answered: { status?: number; body?: IDataObject } = {};
	const response = { status: (code: number) => ({ json: (body: IDataObject) => Object.assign(answered, { status: code, body }) }) };
	const context = {
		getNode: () => ({ id: 'crew-node-id', name: 'Crew', type: 'n8n-nodes-crewai.crew', typeVersion: 1.1, position: [0, 0], parameters: {} }),
		evaluateExpression: (expression: string) => {
			const field = /\$json\.(\w+)/.exec(expression)?.[1];
			return field ? parked[0]?.json[field] : undefined;
		},
		getBodyData: () => call.body,
		getHeaderData: () => (call.authorization === undefined ? {} : { authorization: call.authorization }),
		getResponseObject: () => response,
		getCredentials: async () => ({ ...credentials }),
		helpers: { httpRequestWithAuthentication: async (_: string, options: IHttpRequestOptions) => await sendRequest(options, credentials) },
	} as unknown as IWebhookFunctions;
	const result: IWebhookResponseData = await new Crew().webhook.call(context);
	return { result, answered };
}

async function deliveredCall(count = 1): Promise<ResumeCall[]> {
	await crew.service.waitForWebhooks((deliveries) => deliveries.filter((d) => d.kind === 'stream' && d.status !== null).length >= count, 10_000);
	return resumeCalls;
}

describe('Kickoff and Wait, Wait By: Callback', () => {
	it('kicks off with the resume URL as given and a bearer token, parks until the timeout, and the crew\'s call resumes it with the normalized record', async () => {
		crew.service.configure({ durationMs: 1_500 });
		const { output, waits, parked, resumeUrl, before } = await runUntilParked(byCallback());
		const [run] = crew.service.runs;
		expect(output).toEqual([{ json: expect.objectContaining({ kickoff_id: run.kickoffId, state: 'running', waiting_for: 'callback' }), pairedItem: { item: 0 } }]);
		expect(waits).toHaveLength(1);
		expect(waits[0].getTime()).toBeGreaterThanOrEqual(before + 60_000);
		expect(waits[0].getTime()).toBeLessThan(Date.now() + 60_000 + 1);
		expect(run.callbacks.stream).toEqual({ url: resumeUrl, events: ['crew_kickoff_completed', 'crew_kickoff_failed'], realtime: true, auth: 'bearer' });
		// The waiting item is the timeout output, and holds no token.
		expect(parked[0].json).toMatchObject({ kickoff_id: run.kickoffId, error: `The crew did not call back within 60 seconds (kickoff ID ${run.kickoffId})` });
		expect(parked[0].error?.message).toBe(parked[0].json.error);

		const [call] = await deliveredCall();
		expect(call.url).toBe('/webhook-waiting/42?signature=s1g');
		expect(JSON.stringify(parked)).not.toContain(call.authorization?.slice(7));
		const { result } = await callWebhook(parked, call);
		const polled = await runCrewNode({ parameters: { operation: 'getStatus', kickoffId: run.kickoffId }, credentials: crew.credentials });
		expect(result.workflowData).toEqual([[{ json: polled.output[0].json, pairedItem: { item: 0 } }]]);
		expect(result.workflowData?.[0][0].json).toMatchObject({ state: 'completed', result: 'Crew finished: topic=AI' });
		expect(JSON.stringify(result)).not.toContain(ORGANIZATION_TOKEN);
	});

	it('gives a failed crew polling\'s error item', async () => {
		crew.service.configure({ durationMs: 800, plan: () => ({ outcome: 'failure', error: 'LLM key invalid' }) });
		const { parked } = await runUntilParked(byCallback());
		const [call] = await deliveredCall();
		const { result } = await callWebhook(parked, call);
		const [[item]] = result.workflowData ?? [[]];
		const kickoffId = crew.service.runs[0].kickoffId;
		expect(item.json).toEqual({
			error: `The crew failed (kickoff ID ${kickoffId}): LLM key invalid`,
			description: expect.stringContaining('reported a failure'),
			kickoff_id: kickoffId,
		});
		expect(item.error?.message).toBe(item.json.error);

		crew.service.configure({ durationMs: 100, plan: () => ({ outcome: 'failure', error: 'LLM key invalid' }) });
		const polling = await runCrewNode({ parameters: { ...byCallback(), waitBy: 'polling' }, credentials: crew.credentials, continueOnFail: true });
		expect(Object.keys(polling.output[0].json)).toEqual(Object.keys(item.json));
	});

	it('keeps waiting on a forged call: wrong token, another kickoff, or no final event', async () => {
		crew.service.configure({ durationMs: 1_000 });
		const { parked } = await runUntilParked(byCallback());
		const [call] = await deliveredCall();
		const events = (call.body as { events: IDataObject[] }).events;
		const forgeries = [
			{ body: call.body, authorization: 'Bearer 0000' },
			{ body: call.body, authorization: undefined },
			{ body: { events: events.map((event) => ({ ...event, execution_id: 'someone-else' })) }, authorization: call.authorization },
			{ body: { events: events.map((event) => ({ ...event, type: 'task_completed' })) }, authorization: call.authorization },
		];
		const readsBefore = crew.service.runs[0].statusRequests;
		const answers = [];
		for (const forgery of forgeries) {
			const { result, answered } = await callWebhook(parked, forgery);
			expect(result.workflowData).toBeUndefined();
			answers.push(answered.status ?? 200);
		}
		expect(answers).toEqual([401, 401, 409, 200]);
		// None of them got as far as the confirming status read.
		expect(crew.service.runs[0].statusRequests).toBe(readsBefore);
	});

	it('answers a crew that ends within the first phase at once, without parking', async () => {
		crew.service.configure({ durationMs: 200 });
		const { output, waits } = await runUntilParked(byCallback({ firstPhase: 5 }));
		expect(waits).toHaveLength(0);
		expect(output[0].json).toMatchObject({ state: 'completed', result: 'Crew finished: topic=AI' });
	});

	it('refuses more than one item, starting no crew, and with Continue On Fail gives every item the error', async () => {
		const { output, waits } = await runUntilParked(byCallback(), { items: items(3), continueOnFail: true });
		expect(waits).toHaveLength(0);
		expect(crew.service.count('kickoff', 'POST')).toBe(0);
		expect(output).toHaveLength(3);
		for (const [index, item] of output.entries()) {
			expect(item.json.error).toBe('Wait By: Callback handles one item per execution; this node received 3');
			expect(item.pairedItem).toEqual({ item: index });
		}
		await expect(runUntilParked(byCallback(), { items: items(2) })).rejects.toThrow('received 2');
	});

	it('refuses the Event Stream option, which the mode uses itself', async () => {
		const parameters = byCallback({ eventStreamUrl: 'http://127.0.0.1:1/x' });
		await expect(runUntilParked(parameters)).rejects.toThrow('Event Stream cannot be set with Wait By: Callback');
		expect(crew.service.count('kickoff', 'POST')).toBe(0);
	});

	it('starts no crew when n8n gives no resume URL', async () => {
		await expect(runUntilParked(byCallback(), { resumeUrl: '' })).rejects.toThrow('n8n gave no resume URL');
		expect(crew.service.count('kickoff', 'POST')).toBe(0);
	});
});
