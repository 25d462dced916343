/**
 * Reliability matrix, token hygiene. Every node run in the suite already
 * fails if its output, error or logs hold the token (see runCrewNode); these
 * cases aim at the places a token would slip through: the HTTP client's own
 * error, which n8n wraps with the request options and so the Authorization
 * header, and a proxy page that echoes the header back.
 */
import type { IDataObject } from 'n8n-workflow';

import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewNodeExpectingError, serializeError } from '../helpers/crewWorkflow';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService();
const receiver = useResumeReceiver();
const token = 'tok-NEVER-SHOW-ME-91c3f7a0b2';

describe('the token never appears', () => {
	it("in a network error, although n8n's own error carries the request headers", async () => {
		const error = await runCrewNodeExpectingError({
			parameters: { operation: 'getInputs' },
			credentials: { baseUrl: 'http://127.0.0.1:1', token },
		});
		expect(serializeError(error)).not.toContain(token);
		expect(error.message).toMatch(/Could not connect/);
	});

	it('in an error built from a page that echoes the Authorization header', async () => {
		crew.service.injectFault({
			route: 'inputs',
			kind: 'status',
			status: 502,
			contentType: 'text/html',
			body: `<title>Bad gateway: Authorization: Bearer ${crew.credentials.token}</title>`,
			times: 3,
		});
		const error = await runCrewNodeExpectingError({
			parameters: { operation: 'getInputs' },
			credentials: crew.credentials,
		});
		expect(serializeError(error)).not.toContain(crew.credentials.token);
		expect(error.message).toContain('[token hidden]');
	});

	it('in Continue On Fail output, for a wrong token', async () => {
		const { output } = await runCrewNode({
			parameters: { operation: 'getInputs' },
			credentials: { ...crew.credentials, token },
			continueOnFail: true,
		});
		expect(JSON.stringify(output)).not.toContain(token);
		expect(output[0].json.error).toMatch(/401/);
	});

	it('in what the service logged', async () => {
		await runCrewNode({
			parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
			credentials: crew.credentials,
		});
		expect(JSON.stringify(crew.service.requests)).not.toContain(crew.credentials.token);
		expect(crew.service.requests.every((request) => request.tokenLeaked === undefined)).toBe(true);
	});
});

describe('no callback secret appears in the error of a kickoff whose answer quotes the request', () => {
	// A debugging proxy or a service's validation error may quote the request it refused,
	// and a kickoff carries the credential's callback secrets. Every run here also fails if
	// any secret of the credential is in its output, errors or logs (runCrewWorkflow).
	const credentials = () => ({
		...crew.credentials,
		bearerToken: 'callback-bearer-7d1e5c',
		basicUser: 'reviewer',
		basicPassword: 'basic-password-3f9b2a',
		metaSecret: 'legacy-secret-c04e8d',
	});
	const channels: Array<[string, IDataObject]> = [
		['Legacy Webhook Secret', { crewWebhookUrl: 'http://127.0.0.1:9/legacy' }],
		[
			'Human Input Basic Auth Password',
			{ humanInputWebhookUrl: 'http://127.0.0.1:9/human', humanInputWebhookAuth: 'basic' },
		],
		[
			'Callback Bearer Token',
			{ eventStreamUrl: 'http://127.0.0.1:9/crew', eventStreamEvents: ['task'] },
		],
	];
	const kickoff = (options: IDataObject) => ({
		operation: 'kickoff',
		inputsMode: 'json',
		inputsJson: '{"topic": "AI"}',
		options,
	});
	/** The service's next answer on the route: this status, quoting the request it refused. */
	const answerQuotingTheRequest = (route: 'kickoff' | 'resume', status: number) =>
		crew.service.injectFault({ route, kind: 'status', status, echoRequest: true });

	it.each(channels)('the %s, quoted in a 422', async (_secret, options) => {
		answerQuotingTheRequest('kickoff', 422);
		const error = await runCrewNodeExpectingError({
			parameters: kickoff(options),
			credentials: credentials(),
		});
		expect(error.message).toMatch(
			/^The crew service answered 422 while starting the crew: .*\[token hidden\]/,
		);
	});

	it('the Legacy Webhook Secret, quoted in a 502, and in the error item of Continue On Fail', async () => {
		answerQuotingTheRequest('kickoff', 502);
		const { output } = await runCrewNode({
			parameters: kickoff(channels[0][1]),
			credentials: credentials(),
			continueOnFail: true,
		});
		expect(output[0].json.error).toMatch(/answered 502 .*\[token hidden\]/);
	});

	it("a long Callback Bearer Token cut by the 300 characters the error keeps of the service's words: no part of it", async () => {
		answerQuotingTheRequest('kickoff', 422);
		const bearerToken = `callback-bearer-${'5e9d'.repeat(100)}`;
		const error = await runCrewNodeExpectingError({
			parameters: kickoff(channels[2][1]),
			credentials: { ...credentials(), bearerToken },
		});
		expect(error.message).toContain('"token":"[token hidden]');
		expect(error.message).not.toContain(bearerToken.slice(0, 16));
	});

	it('a Human Input Basic Auth Password with quotes and backslashes, which the quoted request shows escaped', async () => {
		answerQuotingTheRequest('kickoff', 422);
		const error = await runCrewNodeExpectingError({
			parameters: kickoff(channels[1][1]),
			credentials: { ...credentials(), basicPassword: 'pa"ss\\word-3f9b2a' },
		});
		expect(error.message).toContain('"password":"[token hidden]"');
		expect(serializeError(error)).not.toContain('word-3f9b2a');
	});

	it("node version 1's Webhook Secret option, sent in Meta", async () => {
		answerQuotingTheRequest('kickoff', 422);
		const options = {
			webhookSecret: 'node-option-secret-55aa',
			crewWebhookUrl: 'http://127.0.0.1:9/legacy',
		};
		const error = await runCrewNodeExpectingError({
			parameters: kickoff(options),
			credentials: crew.credentials,
			typeVersion: 1,
		});
		expect(error.message).toContain('"webhook_secret":"[token hidden]"');
		// The option itself is saved in the workflow (why later versions read secrets from the credential).
		expect(
			JSON.stringify([
				error.message,
				error.description,
				error.messages,
				error.errorResponse,
				error.stack,
			]),
		).not.toContain('node-option-secret-55aa');
	});

	it("a successful kickoff's answer that echoes Meta and the callback token: the output item shows neither, and keeps the kickoff_id", async () => {
		const kickoffId = '5b2c7d1e-9a4f-4e61-8b2d-3c4d5e6f7a81';
		const bearerToken = credentials().bearerToken;
		const options = {
			webhookSecret: 'node-option-secret-66cc',
			crewWebhookUrl: 'http://127.0.0.1:9/legacy',
			eventStreamUrl: 'http://127.0.0.1:9/crew',
			eventStreamEvents: ['task'],
		};
		const echo = {
			kickoff_id: kickoffId,
			accepted: {
				meta: { webhook_secret: 'node-option-secret-66cc' },
				webhooks: { authentication: { token: bearerToken } },
			},
		};
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 200,
			body: JSON.stringify(echo),
		});
		const { output } = await runCrewNode({
			parameters: kickoff(options),
			credentials: credentials(),
			typeVersion: 1,
		});
		expect(output[0].json).toEqual({
			kickoff_id: kickoffId,
			accepted: {
				meta: { webhook_secret: '[token hidden]' },
				webhooks: { authentication: { token: '[token hidden]' } },
			},
		});
	});

	it("node version 1's Webhook Secret option, repeated by the live status record's Meta: not in Kickoff and Wait's output, though the status reads never carried it", async () => {
		crew.service.configure({ dialect: 'live' });
		const options = {
			webhookSecret: 'node-option-secret-77dd',
			crewWebhookUrl: 'http://127.0.0.1:9/legacy',
			pollInterval: 0.05,
			timeout: 20,
		};
		const { output } = await runCrewNode({
			parameters: { ...kickoff(options), operation: 'kickoffAndWait' },
			credentials: crew.credentials,
			typeVersion: 1,
		});
		const shown = JSON.stringify(output);
		expect(shown).toContain('"webhook_secret":"[token hidden]"');
		expect(shown).not.toContain('node-option-secret-77dd');
	});

	it("Wait By: Callback, quoted in a 422: nor the execution's resume URL", async () => {
		answerQuotingTheRequest('kickoff', 422);
		const parameters = {
			operation: 'kickoffAndWait',
			waitBy: 'callback',
			inputsMode: 'json',
			inputsJson: '{"topic": "AI"}',
			options: { timeout: 60 },
		};
		const { error, run } = await runUntilParked({
			parameters,
			credentials: credentials(),
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		});
		// The crew's own token, which its calls carry.
		expect(error?.message).toContain(
			'"authentication":{"strategy":"bearer","token":"[token hidden]"',
		);
		// The resume URL is the execution's, under n8n's waiting-webhook base URL.
		expect(serializeError(run)).not.toContain(receiver.webhookWaitingBaseUrl);
	});

	it('Resume, quoted in a 422: nor a signed Human Input Webhook URL it sends again', async () => {
		answerQuotingTheRequest('resume', 422);
		const signature = '7f3c9a1e5b2d4f6a8c0e7f3c9a1e5b2d';
		const parameters = {
			operation: 'resume',
			kickoffId: '3c1d7e2a-9f4b-4e61-8a2d-5b6c7d8e9f01',
			taskId: 'research_task',
			isApprove: true,
			humanFeedback: 'ok',
			options: {
				humanInputWebhookUrl: `http://127.0.0.1:9/webhook-waiting/7?signature=${signature}`,
			},
		};
		const error = await runCrewNodeExpectingError({ parameters, credentials: credentials() });
		expect(error.message).toContain('"humanInputWebhookUrl":"[token hidden]"');
		// The URL itself is a parameter, saved in the workflow as the user gave it.
		expect(
			JSON.stringify([
				error.message,
				error.description,
				error.messages,
				error.errorResponse,
				error.stack,
			]),
		).not.toContain(signature);
	});
});
