/**
 * A call to the Crew Trigger's production URL as n8n's live webhooks handle it: the
 * trigger's `webhook()` in n8n-core's WebhookContext (its parameters, credential, logger
 * and static data as n8n gives them), with the workflow's static data loaded for the call
 * and saved after it when it changed (n8n's LiveWebhooks.executeWebhook, then
 * WorkflowStaticDataService.saveStaticData). The request and the response are express's
 * objects in n8n, which n8n-core cannot give: the stand-ins have what WebhookContext reads
 * (body, headers, rawBody) and record what the trigger answers itself.
 */
import { WebhookContext } from 'n8n-core';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { CrewCallbackTrigger } from '../../nodes/CrewCallbackTrigger/CrewCallbackTrigger.node';
import { CREDENTIAL_ID } from './crewCredentialsHelper';
import { additionalDataFor, NodeTypes, recordRun, workflowOf } from './n8nEngine';
import type { RunRecord, WorkflowSpec } from './n8nEngine';
import { assertRunHidesSecrets } from './tokenHygiene';

export const TRIGGER_TYPE = 'n8n-nodes-crewai.crewCallbackTrigger';
const TRIGGER_NAME = 'Crew Trigger';

export interface TriggerRequest {
	/** Lower-case names, as n8n gives them. */
	headers?: Record<string, string>;
	/** The bytes received; default the body as JSON. */
	rawBody?: string;
	/** The Crew API credential selected in the trigger (its callback secrets); none when absent. */
	credentials?: IDataObject;
	typeVersion?: number;
	/** The workflow's static data as n8n keeps it in the database, shared by the calls to one trigger. */
	savedStaticData?: { value: IDataObject };
}

/** What the trigger answered itself (a refusal), as express would send it. */
export interface TriggerResponse {
	status?: number;
	json?: unknown;
	/** What `end()` sent, '' for a bare answer; undefined when the trigger did not end the response. */
	ended?: string;
}

function responseStandIn(response: TriggerResponse) {
	const standIn = {
		status(code: number) {
			response.status = code;
			return standIn;
		},
		json(data: unknown) {
			response.json = data;
			response.ended = JSON.stringify(data);
			return standIn;
		},
		end(data?: string | Buffer) {
			response.ended = data === undefined ? '' : data.toString();
			return standIn;
		},
	};
	return standIn;
}

/** Calls the trigger's webhook() once; the run's log lines are in `record`, checked for every secret of the credential. */
export async function callCrewTrigger(
	body: unknown,
	parameters: { events?: string[]; secret?: string } = {},
	request: TriggerRequest = {},
): Promise<{ result: IWebhookResponseData; response: TriggerResponse; record: RunRecord }> {
	const node: INode = {
		id: 'crew-trigger-node-id',
		name: TRIGGER_NAME,
		type: TRIGGER_TYPE,
		typeVersion: request.typeVersion ?? 1.1,
		position: [0, 0],
		parameters,
		webhookId: 'abc',
		...(request.credentials
			? { credentials: { crewApi: { id: CREDENTIAL_ID, name: 'Crew account' } } }
			: {}),
	};
	const trigger = new CrewCallbackTrigger();
	const spec: WorkflowSpec = {
		nodes: [node],
		connections: {},
		nodeTypes: new NodeTypes({ [TRIGGER_TYPE]: trigger }),
		// The trigger reads only the callback secrets: the Base URL and token are whatever the test gives.
		credentials: { baseUrl: 'https://crew.example.com', token: '', ...request.credentials },
		...(request.savedStaticData ? { savedStaticData: request.savedStaticData } : {}),
	};
	const { workflow, workflowData } = workflowOf(spec);
	const workflowNode = workflow.getNode(TRIGGER_NAME);
	const description = trigger.description.webhooks?.[0];
	if (!workflowNode || !description) throw new UnexpectedError('The Crew Trigger has no webhook');
	const response: TriggerResponse = {};
	const rawBody = request.rawBody ?? JSON.stringify(body);
	const additionalData = {
		...additionalDataFor(spec, workflowData, 'webhook'),
		httpRequest: {
			method: 'POST',
			body,
			headers: { 'content-type': 'application/json', ...request.headers },
			query: {},
			params: {},
			rawBody: Buffer.from(rawBody),
		},
		httpResponse: responseStandIn(response),
	} as unknown as IWorkflowExecuteAdditionalData;
	const webhookData: IWebhookData = {
		httpMethod: 'POST',
		node: TRIGGER_NAME,
		path: NodeHelpers.getNodeWebhookPath(
			workflow.id,
			workflowNode,
			String(description.path),
			false,
			false,
		),
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
	};
	const context = new WebhookContext(
		workflow,
		workflowNode,
		additionalData,
		'webhook',
		webhookData,
		[],
		null,
	);
	const { result, record } = await recordRun(async () => await trigger.webhook.call(context));
	// As n8n after a production call: the static data written back only when the call changed it.
	const staticData = workflow.staticData as IDataObject & { __dataChanged?: boolean };
	if (request.savedStaticData && staticData.__dataChanged === true) {
		const { __dataChanged: _, ...changed } = staticData;
		request.savedStaticData.value = JSON.parse(JSON.stringify(changed)) as IDataObject;
	}
	assertRunHidesSecrets(
		spec.credentials,
		'trigger output, answer and logs',
		{ result, response },
		record,
		spec.nodes.map((each) => each.parameters),
	);
	return { result, response, record };
}

/** The items a call started the workflow with, or undefined when it started none. */
export function startedItems(result: IWebhookResponseData): IDataObject[] | undefined {
	return result.workflowData?.[0].map((item) => item.json);
}
