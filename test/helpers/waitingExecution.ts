/**
 * A Crew node that waits by callback, on n8n's real engine, in the two parts
 * n8n runs it in: the execution runs until the node parks it
 * (`putExecutionToWait`), and later a call to the resume URL is handed to the
 * node's `webhook()` in n8n-core's WebhookContext, with the parked execution's
 * data, as n8n's WaitingWebhooks does. Every part is checked for the token.
 */
import { WAITING_TOKEN_QUERY_PARAM, WebhookContext, WorkflowExecute } from 'n8n-core';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';
import type {
	IDataObject,
	INodeExecutionData,
	IRun,
	IRunExecutionData,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import {
	CREW_NODE_NAME,
	crewOutputsOf,
	crewWorkflow,
	storedError,
	triggerNode,
} from './crewWorkflow';
import type { CrewRunOptions } from './crewWorkflow';
import { additionalDataFor, recordRun, runWorkflow, workflowOf } from './n8nEngine';
import type { RunRecord, WorkflowSpec } from './n8nEngine';
import { assertRunHidesSecrets } from './tokenHygiene';

export interface ParkingRunOptions extends CrewRunOptions {
	/** The base of `$execution.resumeUrl` (n8n's /webhook-waiting/ route); `null` for an n8n that gives none. */
	webhookWaitingBaseUrl: string | null;
}

/** An execution after the Crew node ran: parked (`waitTill` set) or finished. */
export interface ParkedExecution {
	spec: WorkflowSpec;
	executionId: string;
	run: IRun;
	record: RunRecord;
	/** The Crew node's first output: while parked, the item shown while the execution waits. */
	output: INodeExecutionData[];
	/** When n8n resumes the execution by itself (the timeout), if the node parked it. */
	waitTill?: Date;
	/** The items of the node's stack entry n8n saved with the waiting execution: what webhook() reads as `$json`. */
	parked: INodeExecutionData[];
	/** The error n8n stored for the execution, if it failed. */
	error?: Error & IDataObject;
}

function checkSecretsHidden(spec: WorkflowSpec, what: string, value: unknown, record: RunRecord) {
	assertRunHidesSecrets(
		spec.credentials,
		what,
		value,
		record,
		spec.nodes.map((node) => node.parameters),
	);
}

/** Runs the manual trigger and the Crew node until the execution ends or the node parks it. */
export async function runUntilParked(options: ParkingRunOptions): Promise<ParkedExecution> {
	const items = options.items ?? [{ json: {} }];
	const spec: WorkflowSpec = {
		...crewWorkflow(options, items.length),
		webhookWaitingBaseUrl: options.webhookWaitingBaseUrl,
	};
	const { run, record, executionId } = await runWorkflow(
		spec,
		triggerNode,
		items,
		options.cancelSignal,
		options.streaming,
	);
	checkSecretsHidden(spec, 'waiting execution (output, stack, run data)', run, record);
	const [entry] = run.data.executionData?.nodeExecutionStack ?? [];
	return {
		spec,
		executionId,
		run,
		record,
		output: crewOutputsOf(run)[0] ?? [],
		waitTill: run.waitTill ?? undefined,
		parked: run.waitTill && entry?.node.name === CREW_NODE_NAME ? (entry.data.main[0] ?? []) : [],
		error: storedError(run),
	};
}

/**
 * A call to the resume URL as express hands it to n8n. The request and the
 * response are express's objects in n8n, which n8n-core cannot give: these
 * stand-ins have what WebhookContext reads (body, headers, query, rawBody) and
 * record what the node answers through `getResponseObject()`.
 */
export interface ResumeRequest {
	body: unknown;
	/** Lower-case names, as node's http server gives them. */
	headers: Record<string, string | undefined>;
	/** The resume URL's query: `signature` on n8n 2.x, checked by n8n before any node code runs. */
	query?: Record<string, string>;
}

/** The execution after n8n resumed it with webhook()'s `workflowData`. */
export interface ResumedExecution {
	run: IRun;
	record: RunRecord;
	/** The Crew node's outputs in the resumed execution, as n8n shows them. */
	outputs: INodeExecutionData[][];
	output: INodeExecutionData[];
}

export interface ResumeResponse {
	/** What webhook() returned: `workflowData` resumes the execution with it. */
	result: IWebhookResponseData;
	/** What the node answered itself (`noWebhookResponse`), if it did. */
	answered: { status?: number; body?: IDataObject };
	record: RunRecord;
	/** The resumed execution, when webhook() gave `workflowData`; otherwise it keeps waiting. */
	resumed?: ResumedExecution;
}

function requestStandIn(request: ResumeRequest) {
	return {
		method: 'POST',
		body: request.body,
		headers: request.headers,
		query: request.query ?? {},
		params: {},
		rawBody: Buffer.from(JSON.stringify(request.body)),
	};
}

function responseStandIn(answered: ResumeResponse['answered']) {
	const response = {
		status(statusCode: number) {
			answered.status = statusCode;
			return response;
		},
		json(body: IDataObject) {
			answered.body = body;
			return response;
		},
	};
	return response;
}

/**
 * The execution's data as n8n loads it again for the resume: a stored copy (the
 * node's objects do not survive, only what was saved), with waitTill cleared
 * and the waiting node disabled so the resumed engine does not run it again.
 */
function loadedForResume(run: IRun): IRunExecutionData {
	const data = JSON.parse(JSON.stringify(run.data)) as IRunExecutionData;
	data.waitTill = undefined;
	const [entry] = data.executionData?.nodeExecutionStack ?? [];
	if (entry) entry.node.disabled = true;
	return data;
}

/**
 * Calls the waiting node's `webhook()` as n8n's WaitingWebhooks does on a POST to
 * the resume URL: the node's restart webhook (found as n8n's WebhookService finds
 * it), n8n-core's WebhookContext with the execution's own ID and the stored
 * execution data, whose stack entry holds the items the node parked.
 */
export async function callResumeWebhook(
	execution: ParkedExecution,
	request: ResumeRequest,
): Promise<ResumeResponse> {
	if (!execution.waitTill)
		throw new UnexpectedError(
			'The execution is not waiting: n8n would answer 409 without calling the node',
		);
	// n8n 2.x's WaitingWebhooks.validateToken: a call without the execution's resume token never reaches the node.
	const { resumeToken } = execution.run.data;
	if (resumeToken && request.query?.[WAITING_TOKEN_QUERY_PARAM] !== resumeToken) {
		return {
			result: { noWebhookResponse: true },
			answered: { status: 401, body: { error: 'Invalid token' } },
			record: { requests: [], maxInFlight: {}, logs: [], sentBodies: [] },
		};
	}
	const runExecutionData = loadedForResume(execution.run);
	const { workflow, workflowData } = workflowOf(execution.spec);
	const node = workflow.getNode(CREW_NODE_NAME);
	if (!node) throw new UnexpectedError('The workflow has no Crew node');
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.find(
		(webhook) => webhook.restartWebhook === true && webhook.httpMethod === 'POST',
	);
	if (!description)
		throw new UnexpectedError('The Crew node has no POST restart webhook: n8n would answer 404');

	const answered: ResumeResponse['answered'] = {};
	const additionalData: IWorkflowExecuteAdditionalData = {
		...additionalDataFor(execution.spec, workflowData, execution.run.mode, execution.executionId),
		// express's request and response in n8n (see ResumeRequest).
		httpRequest: requestStandIn(request),
		httpResponse: responseStandIn(answered),
	};
	const webhookData: IWebhookData = {
		httpMethod: 'POST',
		node: node.name,
		path: NodeHelpers.getNodeWebhookPath(
			workflow.id,
			node,
			String(description.path),
			description.isFullPath === true,
			true,
		),
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
	};
	const closeFunctions: Array<() => Promise<void>> = [];
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		execution.run.mode,
		webhookData,
		closeFunctions,
		runExecutionData,
	);
	const { result, record } = await recordRun(async () => {
		try {
			if (!nodeType.webhook) throw new UnexpectedError('The Crew node has no webhook method');
			return await nodeType.webhook.call(context);
		} finally {
			await Promise.all(closeFunctions.map(async (close) => await close()));
		}
	});
	checkSecretsHidden(
		execution.spec,
		'webhook response (output, answer)',
		{ result, answered },
		record,
	);
	if (!result.workflowData) return { result, answered, record };
	return {
		result,
		answered,
		record,
		resumed: await resume(execution, runExecutionData, result.workflowData),
	};
}

/**
 * n8n's resume after a restart webhook gave data (WebhookHelpers'
 * prepareExecutionData, then WorkflowRunner): the data becomes the waiting
 * node's stack entry, which the engine passes on as the (disabled) node's
 * output, and the execution goes on from there.
 */
async function resume(
	execution: ParkedExecution,
	runExecutionData: IRunExecutionData,
	workflowData: INodeExecutionData[][],
): Promise<ResumedExecution> {
	const [entry] = runExecutionData.executionData?.nodeExecutionStack ?? [];
	if (!entry) throw new UnexpectedError('The waiting execution has no stack entry to resume');
	entry.data.main = workflowData;
	entry.metadata = { ...entry.metadata, forwardAllOutputs: true };
	return await runStored(execution, runExecutionData, 'resumed execution (output, run data)');
}

/** The engine goes on with the stored execution data, in the parked execution's own mode and ID. */
async function runStored(
	execution: ParkedExecution,
	runExecutionData: IRunExecutionData,
	what: string,
): Promise<ResumedExecution> {
	const { workflow, workflowData } = workflowOf(execution.spec);
	const { mode } = execution.run;
	const additionalData = additionalDataFor(
		execution.spec,
		workflowData,
		mode,
		execution.executionId,
	);
	const { result: run, record } = await recordRun(
		async () =>
			await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(
				workflow,
			),
	);
	checkSecretsHidden(execution.spec, what, run, record);
	const outputs = crewOutputsOf(run, -1);
	return { run, record, outputs, output: outputs[0] ?? [] };
}

/**
 * n8n's timeout: WaitTracker.startExecution runs the stored execution again, waitTill
 * and all, and n8n-core's WorkflowExecute.handleWaitingState disables the waiting
 * node, so its stack entry's items (what the node parked) pass through unchanged
 * (handleDisabledNode). None of the node's code runs.
 */
export async function resumeAtTimeout(execution: ParkedExecution): Promise<ResumedExecution> {
	if (!execution.waitTill)
		throw new UnexpectedError(
			'The execution is not waiting: n8n has nothing to resume at a timeout',
		);
	const runExecutionData = JSON.parse(JSON.stringify(execution.run.data)) as IRunExecutionData;
	runExecutionData.waitTill = execution.waitTill;
	return await runStored(execution, runExecutionData, 'execution resumed at its timeout');
}
