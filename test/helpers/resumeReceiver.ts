/**
 * n8n's /webhook-waiting/ route on loopback, for a Crew node that waits by
 * callback: every call the reference service makes to `$execution.resumeUrl`
 * goes to the parked execution's webhook() (`callResumeWebhook`), as n8n's
 * WaitingWebhooks does, concurrently when calls arrive together. Like n8n it
 * answers 409 while no execution is parked and once one call resumed it.
 *
 * `useResumeReceiver()` starts one receiver for a test file and clears what it
 * saw before each test (and the node's memory of ended crews, which lives as
 * long as n8n's process).
 */
import { endedCrews } from '../../nodes/callbacksIn/batchEnd';
import { startLoopbackReceiver } from './loopbackReceiver';
import type { LoopbackReceiver } from './loopbackReceiver';
import { callResumeWebhook } from './waitingExecution';
import type { ParkedExecution, ResumeResponse } from './waitingExecution';

export interface ResumeCall {
	/** Path and query as the service called them: the query holds n8n 2.x's `signature`. */
	url: string;
	authorization: string | undefined;
	body: unknown;
	/** What the receiver answered the service. */
	status: number;
	/** What webhook() made of the call, when it reached the node. */
	response?: ResumeResponse;
}

export interface ResumeReceiverOptions {
	/**
	 * Holds every call until the test calls `park()`, so that each one is made after
	 * parking however slow the machine (a call before parking is lost: n8n's 409).
	 */
	holdCallsUntilParked?: boolean;
	/**
	 * `false`: only records the calls and answers 200; the test hands them to
	 * webhook() itself (`callResumeWebhook`), forged ones among them.
	 */
	forwardCalls?: boolean;
}

export interface ResumeReceiver {
	/** Where n8n's /webhook-waiting/ is: the `webhookWaitingBaseUrl` of `runUntilParked`. */
	readonly webhookWaitingBaseUrl: string;
	/** The receiver's own origin, for URLs other than the resume URL. */
	readonly base: string;
	/** Every call the service made since the last reset, in the order they came. */
	readonly calls: ResumeCall[];
	/** The responses of the calls that resumed the execution. */
	readonly resumedBy: ResumeResponse[];
	/** A restart of n8n between calls: no process remembers what an earlier call read. */
	restartBetweenCalls: boolean;
	/** Hands the service's calls to this execution from now on, if the node parked it; releases held calls. */
	park(execution: ParkedExecution): void;
	/** Forgets the calls and resumes seen so far (done before each test). */
	reset(): void;
	/** Waits (up to timeoutMs) for a call to resume the execution, then for the calls still in flight. */
	untilResumed(timeoutMs?: number): Promise<ResumeResponse[]>;
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

export function useResumeReceiver(options: ResumeReceiverOptions = {}): ResumeReceiver {
	let server: LoopbackReceiver | undefined;
	let parked: ParkedExecution | undefined;
	let releaseHeldCalls: () => void = () => undefined;
	let parking: Promise<void> = Promise.resolve();

	const handle = async (
		url: string,
		headers: Record<string, string>,
		body: unknown,
	): Promise<number> => {
		if (options.holdCallsUntilParked) await parking;
		const call: ResumeCall = {
			url,
			authorization: headers.authorization,
			body,
			status: options.forwardCalls === false ? 200 : 409,
		};
		receiver.calls.push(call);
		const current = parked;
		if (options.forwardCalls === false || !current || receiver.resumedBy.length > 0)
			return call.status;
		if (receiver.restartBetweenCalls) endedCrews.clear();
		const query = Object.fromEntries(new URL(url, receiver.base).searchParams);
		call.response = await callResumeWebhook(current, { body, headers, query });
		call.status = call.response.answered.status ?? 200;
		// A call of an earlier test's execution still in flight does not count for this one.
		if (call.response.resumed && current === parked) receiver.resumedBy.push(call.response);
		return call.status;
	};

	const receiver = {
		get base() {
			if (!server) throw new Error('The resume receiver starts in beforeAll');
			return server.base;
		},
		get webhookWaitingBaseUrl() {
			return `${this.base}/webhook-waiting`;
		},
		calls: [] as ResumeCall[],
		resumedBy: [] as ResumeResponse[],
		restartBetweenCalls: false,
		park(execution: ParkedExecution) {
			parked = execution.waitTill ? execution : undefined;
			releaseHeldCalls();
		},
		reset() {
			receiver.calls.length = 0;
			receiver.resumedBy.length = 0;
		},
		async untilResumed(timeoutMs = 20_000) {
			const deadline = Date.now() + timeoutMs;
			while (receiver.resumedBy.length === 0 && Date.now() < deadline) await sleep(20);
			// Calls still in flight when it resumed, so none is left out of the count.
			await sleep(300);
			return receiver.resumedBy;
		},
	};

	beforeAll(async () => {
		server = await startLoopbackReceiver(
			async ({ url, headers, rawBody }) => await handle(url, headers, JSON.parse(rawBody)),
		);
	});
	afterAll(async () => await server?.close());
	beforeEach(() => {
		parked = undefined;
		receiver.reset();
		receiver.restartBetweenCalls = false;
		endedCrews.clear();
		parking = new Promise((resolve) => (releaseHeldCalls = resolve));
	});
	return receiver;
}
