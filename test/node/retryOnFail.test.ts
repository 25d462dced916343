/**
 * n8n's Retry On Fail (the node's Settings: Retry On Fail, Max Tries) on n8n-core's
 * real engine: the engine runs the node again with every item after a try throws.
 * A crew an earlier try started is never started again: completed ones give their
 * result from a status read, only the items that failed are started again. A kickoff
 * that may have started a crew without a kickoff ID (the service's faults after it took
 * the request) is not sent again; one refused before it was sent is.
 */
import { connect, createServer } from 'net';
import type { Server, Socket } from 'net';
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

import { Crew } from '../../nodes/Crew/Crew.node';
import { useCrewService } from '../helpers/crewService';
import {
	crewWorkflow,
	items,
	runCrewWorkflow,
	storedError,
	triggerNode,
} from '../helpers/crewWorkflow';
import { manualTrigger, NodeTypes, runWorkflow } from '../helpers/n8nEngine';
import { assertTokenHidden, serializeForLeakCheck } from '../helpers/tokenHygiene';
import { retryFromExecutionsList } from '../helpers/executionRetry';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService();
const receiver = useResumeReceiver();

const TWO_TRIES = { maxTries: 2, waitBetweenTries: 0 };

/** Kickoffs the service received for each topic, answered or refused. */
function kickoffsByTopic(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const run of crew.service.runs)
		counts[run.inputs.topic] = (counts[run.inputs.topic] ?? 0) + 1;
	return counts;
}

const topicOf = (itemIndex: number) => ['a', 'fail', 'c'][itemIndex];

/** A kickoff answer that says more than kickoff_id, as the service's next kickoff answers it. */
function answerKickoffsAtLength() {
	const answer = {
		kickoff_id: 'b6b4c9b0-0c1e-4c57-a0f5-3d1f3c9d5e21',
		status: 'queued',
		queued_at: '2026-11-26T09:00:00Z',
	};
	crew.service.injectFault({
		route: 'kickoff',
		kind: 'status',
		status: 200,
		body: JSON.stringify(answer),
	});
	return answer;
}

describe('Retry On Fail', () => {
	beforeEach(() =>
		crew.service.configure({
			plan: ({ inputs }) =>
				inputs.topic === 'fail'
					? { outcome: 'failure', error: 'LLM key invalid', durationMs: 100 }
					: { durationMs: 300 },
		}),
	);

	it('Kickoff and Wait on 3 items, one fails: the two completed crews are started once each, the failed one again', async () => {
		const parameters = (itemIndex: number) => ({
			operation: 'kickoffAndWait',
			inputsMode: 'json',
			inputsJson: JSON.stringify({ topic: topicOf(itemIndex) }),
			options: { pollInterval: 0.1, timeout: 20 },
		});
		const { error, run } = await runCrewWorkflow({
			parameters,
			credentials: crew.credentials,
			items: items(3),
			retryOnFail: TWO_TRIES,
		});
		expect(kickoffsByTopic()).toEqual({ a: 1, fail: 2, c: 1 });
		expect(crew.service.count('kickoff', 'POST')).toBe(4);
		// The second try failed the same way: n8n reports the failed crew of that try.
		const secondFail = crew.service.runs.filter((r) => r.inputs.topic === 'fail')[1];
		expect(error?.message).toBe(
			`The crew failed (kickoff ID ${secondFail.kickoffId}): LLM key invalid`,
		);
		expect(run.data.resultData.runData.Crew).toHaveLength(1);
	});

	it("Kickoff and Wait: with the crew fixed on the second try, the items give the first try's crews and the new one", async () => {
		let failing = true;
		crew.service.configure({
			plan: ({ inputs }) =>
				inputs.topic === 'fail' && failing
					? { outcome: 'failure', error: 'LLM key invalid', durationMs: 100 }
					: { durationMs: 300 },
		});
		const parameters = (itemIndex: number) => ({
			operation: 'kickoffAndWait',
			inputsMode: 'json',
			inputsJson: JSON.stringify({ topic: topicOf(itemIndex) }),
			options: { pollInterval: 0.1, timeout: 20 },
		});
		const watcher = setInterval(() => {
			if (crew.service.runs.some((r) => r.inputs.topic === 'fail' && r.state === 'failed'))
				failing = false;
		}, 5);
		try {
			const { output, error } = await runCrewWorkflow({
				parameters,
				credentials: crew.credentials,
				items: items(3),
				retryOnFail: TWO_TRIES,
			});
			expect(error).toBeUndefined();
			const [first, firstFail, third, secondFail] = [...crew.service.runs].sort(
				(x, y) => x.index - y.index,
			);
			expect(
				[
					first.inputs.topic,
					firstFail.inputs.topic,
					third.inputs.topic,
					secondFail.inputs.topic,
				].sort(),
			).toEqual(['a', 'c', 'fail', 'fail']);
			expect(output.map((item) => [item.json.state, item.json.result, item.pairedItem])).toEqual([
				['completed', 'Crew finished: topic=a', { item: 0 }],
				['completed', 'Crew finished: topic=fail', { item: 1 }],
				['completed', 'Crew finished: topic=c', { item: 2 }],
			]);
			expect(kickoffsByTopic()).toEqual({ a: 1, fail: 2, c: 1 });
		} finally {
			clearInterval(watcher);
		}
	});

	it('Kickoff on 3 items, the second refused with 422: the first crew is started once, and its ID is given again', async () => {
		const inputsByItem = ['{"topic": "a"}', '{}', '{"topic": "c"}'];
		const parameters = (itemIndex: number) => ({
			operation: 'kickoff',
			inputsMode: 'json',
			inputsJson: inputsByItem[itemIndex],
		});
		const { error } = await runCrewWorkflow({
			parameters,
			credentials: crew.credentials,
			items: items(3),
			retryOnFail: TWO_TRIES,
		});
		expect(error?.httpCode).toBe('422');
		// Item 0 kicked off once; item 1 refused on each try; item 2 never reached.
		expect(crew.service.runs.map((r) => r.inputs.topic)).toEqual(['a']);
		expect(
			crew.service.requests
				.filter((request) => request.route === 'kickoff')
				.map((request) => request.status),
		).toEqual([200, 422, 422]);
	});

	it('Kickoff with Continue On Fail: n8n retries while the first item is an error; the crews started keep their IDs', async () => {
		const inputsByItem = ['{}', '{"topic": "b"}'];
		const parameters = (itemIndex: number) => ({
			operation: 'kickoff',
			inputsMode: 'json',
			inputsJson: inputsByItem[itemIndex],
		});
		const { output } = await runCrewWorkflow({
			parameters,
			credentials: crew.credentials,
			items: items(2),
			retryOnFail: TWO_TRIES,
			continueOnFail: true,
		});
		const [run] = crew.service.runs;
		expect(crew.service.runs).toHaveLength(1);
		expect(output[1].json).toEqual({ kickoff_id: run.kickoffId });
	});

	it('Wait By: Callback, a batch that ends in its first phase with one crew failed: the completed crews are started once each', async () => {
		const parameters = (itemIndex: number) => ({
			operation: 'kickoffAndWait',
			waitBy: 'callback',
			inputsMode: 'json',
			inputsJson: JSON.stringify({ topic: topicOf(itemIndex) }),
			options: { pollInterval: 0.1, timeout: 60, firstPhase: 10 },
		});
		const { error, waitTill } = await runUntilParked({
			parameters,
			credentials: crew.credentials,
			items: items(3),
			retryOnFail: TWO_TRIES,
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		});
		expect(waitTill).toBeUndefined();
		expect(kickoffsByTopic()).toEqual({ a: 1, fail: 2, c: 1 });
		expect(error?.message).toMatch(/^The crew failed \(kickoff ID [^)]+\): LLM key invalid$/);
	});
});

describe('Retry On Fail after a kickoff that may have started a crew', () => {
	const kickoffStatuses = () =>
		crew.service.requests
			.filter((request) => request.route === 'kickoff')
			.map((request) => request.status);
	const waitFor = (itemIndex: number, options: object = {}) => ({
		operation: 'kickoffAndWait',
		inputsMode: 'json',
		inputsJson: JSON.stringify({ topic: ['a', 'b', 'c'][itemIndex] }),
		options: { pollInterval: 0.1, timeout: 20, maxConcurrentKickoffs: 1, ...options },
	});

	it("Kickoff answered 504 after the service took it: sent once across both tries, the item's error says so", async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 504,
			body: '{"error": "Gateway Timeout", "message": "upstream timed out"}',
			afterProcessing: true,
		});
		const { error } = await runCrewWorkflow({
			parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "a"}' },
			credentials: crew.credentials,
			retryOnFail: TWO_TRIES,
		});
		expect(crew.service.runs).toHaveLength(1);
		expect(kickoffStatuses()).toEqual([504]);
		expect(error?.message).toBe(
			"Not sent again: an earlier try of this node sent this item's kickoff, which may have started a crew (the service answered 504: Gateway Timeout: upstream timed out)",
		);
		expect(error?.description).toMatch(
			/executions in the deployment's dashboard.*run the workflow again \(a new execution starts anew; a retry from the Executions list remembers this too\)/,
		);
	});

	it("Kickoff and Wait with Continue On Fail, the first kickoff's connection dropped after the service read it: each crew started once", async () => {
		crew.service.injectFault({ route: 'kickoff', kind: 'reset', afterProcessing: true });
		const { output } = await runCrewWorkflow({
			parameters: (itemIndex: number) => waitFor(itemIndex),
			credentials: crew.credentials,
			items: items(3),
			retryOnFail: TWO_TRIES,
			continueOnFail: true,
		});
		expect(kickoffsByTopic()).toEqual({ a: 1, b: 1, c: 1 });
		expect(kickoffStatuses()).toHaveLength(3);
		expect(output.map((item) => [item.json.state ?? item.json.error, item.pairedItem])).toEqual([
			[
				expect.stringMatching(
					/^Not sent again: an earlier try of this node sent this item's kickoff, which may have started a crew \(the service answered no answer \(ECONNRESET: /,
				),
				{ item: 0 },
			],
			['completed', { item: 1 }],
			['completed', { item: 2 }],
		]);
	});

	it('Wait By: Callback, a kickoff answered 502 after the service took it: not sent again, the other crews once each', async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 502,
			afterProcessing: true,
		});
		const parameters = (itemIndex: number) => ({
			...waitFor(itemIndex, { timeout: 60, firstPhase: 10 }),
			waitBy: 'callback',
		});
		const { error, waitTill } = await runUntilParked({
			parameters,
			credentials: crew.credentials,
			items: items(3),
			retryOnFail: TWO_TRIES,
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		});
		expect(waitTill).toBeUndefined();
		expect(kickoffsByTopic()).toEqual({ a: 1, b: 1, c: 1 });
		expect(error?.message).toMatch(
			/^Not sent again: an earlier try of this node sent this item's kickoff, which may have started a crew \(the service answered 502/,
		);
	});

	it('Kickoff refused before it was sent (no service at the Base URL yet): sent again on the retry, once', async () => {
		const port = await freePort();
		const forwarder = forwarderTo(new URL(crew.service.url));
		const firstTryErrors: unknown[] = [];
		const plainCrew = new Crew();
		// The Crew node as it is; the service appears at the Base URL only once the first try has failed.
		const crewThenService: INodeType = {
			description: plainCrew.description,
			methods: plainCrew.methods,
			async execute(this: IExecuteFunctions) {
				try {
					return await plainCrew.execute.call(this);
				} catch (error) {
					if (!forwarder.server.listening) {
						firstTryErrors.push(error);
						await forwarder.listen(port);
					}
					throw error;
				}
			},
		};
		const credentials = { ...crew.credentials, baseUrl: `http://127.0.0.1:${port}` };
		const options = {
			parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "a"}' },
			credentials,
			retryOnFail: { maxTries: 2, waitBetweenTries: 100 },
		};
		const spec = crewWorkflow(options, 1);
		spec.nodeTypes = new NodeTypes({
			[triggerNode.type]: manualTrigger,
			[spec.nodes[1].type]: crewThenService,
		});
		try {
			const { run, record } = await runWorkflow(spec, triggerNode, [{ json: {} }]);
			assertTokenHidden(credentials.token, 'execution data', serializeForLeakCheck(run));
			assertTokenHidden(credentials.token, 'logs', record.logs.join('\n'));
			expect(firstTryErrors).toHaveLength(1);
			expect((firstTryErrors[0] as Error).message).toMatch(
				/^Could not connect to the crew service at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/,
			);
			expect(storedError(run)).toBeUndefined();
			expect(crew.service.runs).toHaveLength(1);
			expect(kickoffStatuses()).toEqual([200]);
			expect(run.data.resultData.runData.Crew[0].data?.main[0]?.[0].json).toEqual({
				kickoff_id: crew.service.runs[0].kickoffId,
			});
		} finally {
			await forwarder.close();
		}
	});
});

describe('Retry On Fail: what the tries remember', () => {
	const kickoffRequests = () =>
		crew.service.requests.filter((request) => request.route === 'kickoff');
	/** The node's context as n8n saves it with the execution. */
	const nodeContext = (run: {
		data: { executionData?: { contextData?: Record<string, unknown> } };
	}) => run.data.executionData?.contextData?.['node:Crew'] as Record<string, unknown> | undefined;

	it('an input evaluated anew on each try (a random value) is the same item: a kickoff answered 504 after the service took it is sent once', async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 504,
			afterProcessing: true,
		});
		const parameters = {
			operation: 'kickoff',
			inputsMode: 'json',
			inputsJson: '={{ JSON.stringify({ topic: "a", nonce: Math.random() }) }}',
		};
		const { error, run } = await runCrewWorkflow({
			parameters,
			credentials: crew.credentials,
			retryOnFail: TWO_TRIES,
		});
		expect(crew.service.runs).toHaveLength(1);
		expect(kickoffRequests()).toHaveLength(1);
		expect(error?.message).toMatch(
			/^Not sent again: an earlier try of this node sent this item's kickoff, which may have started a crew \(the service answered 504/,
		);
		expect(error?.description).toMatch(/a retry from the Executions list remembers this too/);
		// A run that threw keeps what it started: a retry from the Executions list reads it.
		expect(Object.keys(nodeContext(run) ?? {})).toEqual(['crewKickoffs:0']);
	});

	it("a Kickoff that returned forgets its run's memory: no retry follows", async () => {
		const { run, output } = await runCrewWorkflow({
			parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "a"}' },
			credentials: crew.credentials,
			retryOnFail: TWO_TRIES,
		});
		expect(output[0].json.kickoff_id).toBe(crew.service.runs[0].kickoffId);
		expect(nodeContext(run)?.['crewKickoffs:0']).toBeUndefined();
	});

	it("Kickoff with Continue On Fail, retried while the first item is an error: the other item is output with the first try's whole answer", async () => {
		// The first item fails in the node, before any request.
		const answer = answerKickoffsAtLength();
		const inputsByItem = ['not json', '{"topic": "b"}'];
		const parameters = (itemIndex: number) => ({
			operation: 'kickoff',
			inputsMode: 'json',
			inputsJson: inputsByItem[itemIndex],
		});
		const { output } = await runCrewWorkflow({
			parameters,
			credentials: crew.credentials,
			items: items(2),
			retryOnFail: TWO_TRIES,
			continueOnFail: true,
		});
		expect(kickoffRequests()).toHaveLength(1);
		expect(output[0].json.error).toBeDefined();
		expect(output[1].json).toEqual(answer);
	});

	it("Resume with Continue On Fail, retried while the first item is an error: the other item is output with the first try's whole answer, resumed once", async () => {
		const answer = {
			kickoff_id: '7d0e8f4a-5b0c-4d8e-9a51-2f0b9a3c6e10',
			status: 'resumed',
			message: 'Execution resumed',
		};
		crew.service.injectFault({
			route: 'resume',
			kind: 'status',
			status: 200,
			body: JSON.stringify(answer),
		});
		const pausedIds = ['', '3c1d7e2a-9f4b-4e61-8a2d-5b6c7d8e9f01'];
		const parameters = (itemIndex: number) => ({
			operation: 'resume',
			kickoffId: pausedIds[itemIndex],
			taskId: 'research_task',
			isApprove: true,
			humanFeedback: 'ok',
		});
		const { output } = await runCrewWorkflow({
			parameters,
			credentials: crew.credentials,
			items: items(2),
			retryOnFail: TWO_TRIES,
			continueOnFail: true,
		});
		expect(crew.service.requests.filter((request) => request.route === 'resume')).toHaveLength(1);
		expect(output[0].json.error).toBeDefined();
		expect(output[1].json).toEqual({ ...answer, resumed_kickoff_id: pausedIds[1] });
	});

	it("a 502 that echoes the request: neither the API token nor the credential's callback bearer token is kept or said again", async () => {
		const bearerToken = 'callback-bearer-secret-9f3a';
		const credentials = { ...crew.credentials, bearerToken };
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 502,
			echoRequest: true,
			afterProcessing: true,
		});
		const parameters = {
			operation: 'kickoff',
			inputsMode: 'json',
			inputsJson: '{"topic": "a"}',
			options: { eventStreamUrl: 'http://127.0.0.1:9/crew', eventStreamEvents: ['runFinished'] },
		};
		const { error, run } = await runCrewWorkflow({
			parameters,
			credentials,
			retryOnFail: TWO_TRIES,
		});
		expect(crew.service.runs).toHaveLength(1);
		expect(error?.message).toMatch(
			/^Not sent again: .*\(the service answered 502: .*\[token hidden\]/,
		);
		const saved = JSON.stringify(nodeContext(run));
		expect(saved).toContain('[token hidden]');
		for (const secret of [bearerToken, credentials.token]) {
			expect(saved).not.toContain(secret);
			expect(error?.message).not.toContain(secret);
			expect(error?.description ?? '').not.toContain(secret);
		}
	});

	it("Wait By: Callback, a 502 that echoes the request: the execution's resume URL sent with the kickoff is not kept or said again", async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 502,
			echoRequest: true,
			afterProcessing: true,
		});
		const parameters = {
			operation: 'kickoffAndWait',
			waitBy: 'callback',
			inputsMode: 'json',
			inputsJson: '{"topic": "a"}',
			options: { pollInterval: 0.1, timeout: 60, firstPhase: 10 },
		};
		const { error, run } = await runUntilParked({
			parameters,
			credentials: crew.credentials,
			retryOnFail: TWO_TRIES,
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		});
		expect(crew.service.runs).toHaveLength(1);
		// The resume URL is the execution's, under n8n's waiting-webhook base URL.
		const resumeUrl = receiver.webhookWaitingBaseUrl;
		expect(error?.message).toMatch(
			/^Not sent again: .*\(the service answered 502: .*\[token hidden\]/,
		);
		const saved = JSON.stringify(nodeContext(run));
		expect(saved).toContain('[token hidden]');
		expect(saved).not.toContain(resumeUrl);
		expect(error?.message).not.toContain(resumeUrl);
	});
});

describe('Retry from the Executions list: the failed execution run again as a new one', () => {
	const kickoffStatuses = () =>
		crew.service.requests
			.filter((request) => request.route === 'kickoff')
			.map((request) => request.status);
	/** The node's context as n8n saves it with the execution. */
	const nodeContext = (run: {
		data: { executionData?: { contextData?: Record<string, unknown> } };
	}) => run.data.executionData?.contextData?.['node:Crew'] as Record<string, unknown> | undefined;

	it('Kickoff and Wait by polling, one crew failed: the retry reads the completed crews again and starts only the failed item', async () => {
		let failing = true;
		crew.service.configure({
			plan: ({ inputs }) =>
				inputs.topic === 'fail' && failing
					? { outcome: 'failure', error: 'LLM key invalid', durationMs: 100 }
					: { durationMs: 300 },
		});
		const parameters = (itemIndex: number) => ({
			operation: 'kickoffAndWait',
			inputsMode: 'json',
			inputsJson: JSON.stringify({ topic: topicOf(itemIndex) }),
			options: { pollInterval: 0.1, timeout: 20 },
		});
		const options = { parameters, credentials: crew.credentials, items: items(3) };
		const failed = await runCrewWorkflow(options);
		expect(failed.error?.message).toMatch(
			/^The crew failed \(kickoff ID [^)]+\): LLM key invalid$/,
		);
		failing = false;
		const retried = await retryFromExecutionsList(options, failed.run);
		expect(retried.error).toBeUndefined();
		expect(kickoffsByTopic()).toEqual({ a: 1, fail: 2, c: 1 });
		const [first, , third] = crew.service.runs;
		expect(retried.output.map((item) => [item.json.kickoff_id, item.json.state])).toEqual([
			[first.kickoffId, 'completed'],
			[crew.service.runs[3].kickoffId, 'completed'],
			[third.kickoffId, 'completed'],
		]);
	});

	it('Wait By: Callback, a kickoff refused after the other crews started: the retry (another execution, another resume URL) starts only that item, and waits on the earlier crews by polling', async () => {
		crew.service.configure({ plan: () => ({ durationMs: 1500 }) });
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 400,
			body: '{"detail": "Bad request"}',
		});
		const parameters = (itemIndex: number) => ({
			operation: 'kickoffAndWait',
			waitBy: 'callback',
			inputsMode: 'json',
			inputsJson: JSON.stringify({ topic: ['a', 'b', 'c'][itemIndex] }),
			options: { pollInterval: 0.1, timeout: 60, firstPhase: 0.3, maxConcurrentKickoffs: 1 },
		});
		const options = {
			parameters,
			credentials: crew.credentials,
			items: items(3),
			webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl,
		};
		const failed = await runUntilParked(options);
		expect(failed.waitTill).toBeUndefined();
		expect(failed.error?.httpCode).toBe('400');
		expect(kickoffStatuses()).toEqual([400, 200, 200]);
		const retried = await retryFromExecutionsList(options, failed.run);
		expect(retried.run.waitTill ?? undefined).toBeUndefined();
		expect(retried.error).toBeUndefined();
		expect(kickoffsByTopic()).toEqual({ a: 1, b: 1, c: 1 });
		expect(kickoffStatuses()).toEqual([400, 200, 200, 200]);
		const kickoffOf = (topic: string) =>
			crew.service.runs.find((run) => run.inputs.topic === topic)?.kickoffId;
		expect(retried.output.map((item) => [item.json.kickoff_id, item.json.state])).toEqual(
			['a', 'b', 'c'].map((topic) => [kickoffOf(topic), 'completed']),
		);
	});

	it('a token rotated before the retry: a kickoff answered 504 after the service took it is still not sent again', async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 504,
			body: '{"error": "Gateway Timeout"}',
			afterProcessing: true,
		});
		const parameters = { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "a"}' };
		const failed = await runCrewWorkflow({ parameters, credentials: crew.credentials });
		expect(failed.error?.message).toMatch(/^The crew service answered 504/);
		const retried = await retryFromExecutionsList(
			{ parameters, credentials: crew.userCredentials },
			failed.run,
		);
		expect(retried.error?.message).toBe(
			"Not sent again: an earlier try of this node sent this item's kickoff, which may have started a crew (the service answered 504: Gateway Timeout)",
		);
		expect(kickoffStatuses()).toEqual([504]);
		expect(crew.service.runs).toHaveLength(1);
	});

	it('Kickoff on 2 items, the second refused: the retry gives the first item the kickoff ID of the crew it started and starts the second', async () => {
		crew.service.injectFault({ route: 'kickoff', kind: 'delay', delayMs: 1 });
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 400,
			body: '{"detail": "Bad request"}',
		});
		const options = {
			parameters: (itemIndex: number) => ({
				operation: 'kickoff',
				inputsMode: 'json',
				inputsJson: JSON.stringify({ topic: ['a', 'b'][itemIndex] }),
			}),
			credentials: crew.credentials,
			items: items(2),
		};
		const failed = await runCrewWorkflow(options);
		expect(failed.error?.httpCode).toBe('400');
		const retried = await retryFromExecutionsList(options, failed.run);
		expect(kickoffStatuses()).toEqual([200, 400, 200]);
		expect(retried.output.map((item) => item.json)).toEqual(
			crew.service.runs.map((run) => ({ kickoff_id: run.kickoffId })),
		);
	});

	it('what is kept with the failed execution: per item the kickoff ID, when it started, whether it was seen and the key; no answer of the service', async () => {
		const answer = answerKickoffsAtLength();
		const parameters = (itemIndex: number) => ({
			operation: 'kickoff',
			inputsMode: 'json',
			inputsJson: ['{"topic": "a"}', 'not json'][itemIndex],
		});
		const { run, error } = await runCrewWorkflow({
			parameters,
			credentials: crew.credentials,
			items: items(2),
		});
		expect(error).toBeDefined();
		const kept = nodeContext(run)?.['crewKickoffs:0'] as {
			salt: string;
			items: Record<string, Record<string, unknown>>;
		};
		expect(Object.keys(kept.items)).toEqual(['0']);
		expect(Object.keys(kept.items[0]).sort()).toEqual(['kickoffId', 'request', 'startedAt']);
		expect(kept.items[0].kickoffId).toBe(answer.kickoff_id);
		expect(kept.salt).toMatch(/^[0-9a-f]{32}$/);
		expect(JSON.stringify(kept)).not.toContain('queued');
	});
});

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** A TCP forwarder to the reference service, listening only when told: before that, a connection is refused. */
function forwarderTo(target: URL): {
	server: Server;
	listen: (port: number) => Promise<void>;
	close: () => Promise<void>;
} {
	const sockets = new Set<Socket>();
	const server = createServer((client) => {
		const upstream = connect(Number(target.port), target.hostname);
		for (const socket of [client, upstream]) {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
			socket.on('error', () => {
				client.destroy();
				upstream.destroy();
			});
		}
		client.pipe(upstream).pipe(client);
	});
	return {
		server,
		listen: async (port) =>
			await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
		close: async () => {
			for (const socket of sockets) socket.destroy();
			if (server.listening) await new Promise((resolve) => server.close(resolve));
		},
	};
}
