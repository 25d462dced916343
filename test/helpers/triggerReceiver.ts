/**
 * n8n's webhook endpoint for a Crew Trigger, on loopback: every call the
 * reference service makes goes to the trigger's webhook() (in n8n-core's
 * WebhookContext, webhookFunctions.ts) with its headers and raw body as received,
 * and is answered with the status and body the trigger gave. The workflow's static
 * data is kept between the calls to one receiver, as n8n keeps it with the workflow.
 */
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { startLoopbackReceiver } from './loopbackReceiver';
import type { LoopbackReceiver } from './loopbackReceiver';
import { callCrewTrigger, startedItems } from './webhookFunctions';

/** What a call came to: the status the trigger answered and the items it started the workflow with, if it did. */
export interface ReceivedCall {
	status: number;
	items?: IDataObject[];
}

/** The trigger node: its version (1 shows the Webhook Secret parameter of 0.1.0; default 1.1). */
export interface TriggerNodeOptions {
	typeVersion?: number;
}

/** The same call in full: its Authorization header, what webhook() returned, and the request as received (to send it again). */
export interface TriggerCall {
	authorization: string | undefined;
	result: IWebhookResponseData;
	request: { headers: Record<string, string>; rawBody: string };
}

export interface TriggerReceiver {
	/** The trigger's production webhook URL, to give the kickoff. */
	url: string;
	received: ReceivedCall[];
	/** One entry per call, in the order of `received`. */
	calls: TriggerCall[];
	/** Every item the calls started the workflow with, in the order the calls came. */
	started(): IDataObject[];
	/** What the trigger answered itself to each call it refused (a bare 401 has ''), in order. */
	refusedBodies: string[];
	/** Every line n8n or the trigger logged while handling the calls. */
	logs: string[];
}

/** Starts receivers on demand; each is closed after the test that started it. */
export function useTriggerReceivers() {
	let open: LoopbackReceiver[] = [];
	afterEach(async () => {
		await Promise.all(open.map(async (receiver) => await receiver.close()));
		open = [];
	});
	return async (
		parameters: { events: string[]; secret?: string },
		credentials?: IDataObject,
		node: TriggerNodeOptions = {},
	): Promise<TriggerReceiver> => {
		const received: ReceivedCall[] = [];
		const calls: TriggerCall[] = [];
		const refusedBodies: string[] = [];
		const logs: string[] = [];
		const savedStaticData = { value: {} };
		const receiver = await startLoopbackReceiver(async ({ headers, rawBody }) => {
			const { result, response, record } = await callCrewTrigger(JSON.parse(rawBody), parameters, {
				headers,
				rawBody,
				credentials,
				typeVersion: node.typeVersion,
				savedStaticData,
			});
			const status = response.status ?? 200;
			received.push({ status, items: startedItems(result) });
			calls.push({ authorization: headers.authorization, result, request: { headers, rawBody } });
			if (response.ended !== undefined) refusedBodies.push(response.ended);
			logs.push(...record.logs);
			return status;
		});
		open.push(receiver);
		return {
			url: `${receiver.base}/webhook/abc/crew`,
			received,
			calls,
			started: () => received.flatMap((call) => call.items ?? []),
			refusedBodies,
			logs,
		};
	};
}
