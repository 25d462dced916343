import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { CrewCallbackTrigger } from '../../nodes/CrewCallbackTrigger/CrewCallbackTrigger.node';

export interface TriggerRequest {
	/** Lower-case names, as n8n gives them. */
	headers?: Record<string, string>;
	/** The bytes received; default the body as JSON. */
	rawBody?: string;
	/** The Crew API credential selected in the trigger (its callback secrets); none when absent. */
	credentials?: IDataObject;
	typeVersion?: number;
}

/** A stand-in for IWebhookFunctions: the received request, the trigger's parameters and credential, and what it answered. */
export async function callCrewTrigger(body: unknown, parameters: { events?: string[]; secret?: string } = {}, request: TriggerRequest = {}) {
	const response: { status?: number; json?: unknown } = {};
	const rawBody = request.rawBody ?? JSON.stringify(body);
	const context = {
		getBodyData: () => body as IDataObject,
		getHeaderData: () => ({ 'content-type': 'application/json', ...request.headers }),
		getRequestObject: () => ({ rawBody: Buffer.from(rawBody) }),
		getNode: () => ({
			name: 'Crew Trigger',
			typeVersion: request.typeVersion ?? 1.1,
			credentials: request.credentials ? { crewApi: { id: '2', name: 'Crew account' } } : {},
		}),
		getCredentials: async (type: string) => {
			if (type !== 'crewApi' || !request.credentials) throw new Error(`Node does not have any credentials set for "${type}"`);
			return { ...request.credentials };
		},
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
	const result: IWebhookResponseData = await new CrewCallbackTrigger().webhook.call(context);
	return { result, response };
}

/** The items a call started the workflow with, or undefined when it started none. */
export function startedItems(result: IWebhookResponseData): IDataObject[] | undefined {
	return result.workflowData?.[0].map((item) => item.json);
}
