import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { CrewTrigger } from '../../nodes/CrewTrigger/CrewTrigger.node';

/** A stand-in for IWebhookFunctions: the received body, the trigger's parameters, and what it answered. */
export async function callCrewTrigger(body: unknown, parameters: { events?: string[]; secret?: string } = {}) {
	const response: { status?: number; json?: unknown } = {};
	const context = {
		getBodyData: () => body as IDataObject,
		getNodeParameter: (name: string, fallback?: unknown) => (parameters as IDataObject)[name] ?? fallback,
		getResponseObject: () => ({
			status(code: number) {
				response.status = code;
				return this;
			},
			json(data: unknown) {
				response.json = data;
				return this;
			},
		}),
		helpers: { returnJsonArray: (items: IDataObject[]) => items.map((json) => ({ json })) },
	} as unknown as IWebhookFunctions;
	const result: IWebhookResponseData = await new CrewTrigger().webhook.call(context);
	return { result, response };
}
