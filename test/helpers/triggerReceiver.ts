/**
 * n8n's webhook endpoint for a Crew Trigger, on loopback: every call the
 * reference service makes goes to the trigger's webhook() with its headers and
 * raw body as received, and is answered with the status the trigger gave.
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

/** The same call in full: its Authorization header and what webhook() returned. */
export interface TriggerCall {
	authorization: string | undefined;
	result: IWebhookResponseData;
}

export interface TriggerReceiver {
	/** The trigger's production webhook URL, to give the kickoff. */
	url: string;
	received: ReceivedCall[];
	/** One entry per call, in the order of `received`. */
	calls: TriggerCall[];
	/** Every item the calls started the workflow with, in the order the calls came. */
	started(): IDataObject[];
}

/** Starts receivers on demand; each is closed after the test that started it. */
export function useTriggerReceivers() {
	let open: LoopbackReceiver[] = [];
	afterEach(async () => {
		await Promise.all(open.map(async (receiver) => await receiver.close()));
		open = [];
	});
	return async (parameters: { events: string[]; secret?: string }, credentials?: IDataObject): Promise<TriggerReceiver> => {
		const received: ReceivedCall[] = [];
		const calls: TriggerCall[] = [];
		const receiver = await startLoopbackReceiver(async ({ headers, rawBody }) => {
			const { result, response } = await callCrewTrigger(JSON.parse(rawBody), parameters, { headers, rawBody, credentials });
			const status = response.status ?? 200;
			received.push({ status, items: startedItems(result) });
			calls.push({ authorization: headers.authorization, result });
			return status;
		});
		open.push(receiver);
		return { url: `${receiver.base}/webhook/abc/crew`, received, calls, started: () => received.flatMap((call) => call.items ?? []) };
	};
}
