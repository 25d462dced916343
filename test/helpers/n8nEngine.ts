/**
 * Runs workflows on n8n's real execution engine (n8n-core's WorkflowExecute),
 * with the node types of this package, as n8n runs them after a trigger fired:
 * n8n-core's ExecuteContext gives the node its parameters (expressions and
 * resource-mapper values resolved by n8n), Continue On Fail, the cancel signal
 * and n8n's HTTP request helper; n8n-core's engine handles error outputs and
 * paired items. Only what the n8n server would add around the engine is
 * provided here: the node types, a credentials helper, the execution's
 * additional data, and a logger that records what n8n and the node log.
 */
import { AsyncLocalStorage } from 'async_hooks';
import * as diagnostics from 'diagnostics_channel';
import type { ClientRequest } from 'http';
import * as os from 'os';
import * as path from 'path';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import { LoggerProxy, NodeConnectionTypes, UnexpectedError, Workflow } from 'n8n-workflow';
import type {
	IConnections,
	IDataObject,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	ITriggerFunctions,
	ITriggerResponse,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	LogMetadata,
	Logger as LoggerType,
	StructuredChunk,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { CrewCredentialsHelper } from './crewCredentialsHelper';
import type { Credentials } from './crewCredentialsHelper';
import { serializeForLeakCheck } from './tokenHygiene';

/** What one workflow run did, as seen from outside the node. */
export interface RunRecord {
	/** Every request the run made, without its headers. */
	requests: Array<{ method: string; url: string }>;
	/** The most requests of each method the run had in flight at once. */
	maxInFlight: Record<string, number>;
	/** Every line n8n or the node logged during the run. */
	logs: string[];
	/** The JSON body of every request the run sent, as text, for the secrets it carried. */
	sentBodies: string[];
}

const currentRun = new AsyncLocalStorage<RunRecord & { inFlight: Record<string, number> }>();

/** Log lines outside any run (engine start-up), kept so a leak there is not lost. */
export const logsOutsideRuns: string[] = [];

/**
 * n8n's Logger, recording instead of printing: nodes log through
 * `this.logger` (n8n-core takes it from the DI container) and n8n-core and
 * n8n-workflow through LoggerProxy; both lead here, to the run in progress.
 */
class RecordingLogger implements LoggerType {
	error(message: string, metadata?: LogMetadata) {
		this.record('error', message, metadata);
	}

	warn(message: string, metadata?: LogMetadata) {
		this.record('warn', message, metadata);
	}

	info(message: string, metadata?: LogMetadata) {
		this.record('info', message, metadata);
	}

	debug(message: string, metadata?: LogMetadata) {
		this.record('debug', message, metadata);
	}

	scoped() {
		return this;
	}

	private record(level: string, message: string, metadata?: LogMetadata) {
		const line = `${level} ${message} ${metadata ? serializeForLeakCheck(metadata) : ''}`;
		(currentRun.getStore()?.logs ?? logsOutsideRuns).push(line);
	}
}

/** The engine's process-wide services, set once per test file (each has its own module registry). */
function setUpEngine() {
	// n8n-core's InstanceSettings keeps its settings file in the user folder: a temporary one, never the developer's ~/.n8n.
	process.env.N8N_USER_FOLDER ??= path.join(os.tmpdir(), 'n8n-nodes-crewai-tests');
	const logger = new RecordingLogger();
	Container.set(Logger, logger as unknown as Logger);
	LoggerProxy.init(logger);

	// Requests are counted where they leave the process, so n8n's request helper is used as it is.
	diagnostics.subscribe('http.client.request.start', (message) => {
		const run = currentRun.getStore();
		if (!run) return;
		const { request } = message as { request: ClientRequest };
		const { method } = request;
		run.requests.push({ method, url: `${request.protocol}//${request.host}${request.path}` });
		// A JSON body, kept as it goes out: the secrets it carried are looked for in the run afterwards (files' bytes are not kept).
		const written: Buffer[] = [];
		const isJson = /json/i.test(String(request.getHeader('content-type') ?? ''));
		const keep = (chunk: unknown) => {
			if (isJson && (typeof chunk === 'string' || chunk instanceof Uint8Array))
				written.push(Buffer.from(chunk));
		};
		const write = request.write.bind(request) as (...args: unknown[]) => boolean;
		const end = request.end.bind(request) as (...args: unknown[]) => ClientRequest;
		request.write = ((chunk: unknown, ...rest: unknown[]) => {
			keep(chunk);
			return write(chunk, ...rest);
		}) as typeof request.write;
		request.end = ((chunk?: unknown, ...rest: unknown[]) => {
			if (typeof chunk !== 'function') keep(chunk);
			if (written.length > 0) run.sentBodies.push(Buffer.concat(written).toString('utf8'));
			return end(chunk, ...rest);
		}) as typeof request.end;
		run.inFlight[method] = (run.inFlight[method] ?? 0) + 1;
		run.maxInFlight[method] = Math.max(run.maxInFlight[method] ?? 0, run.inFlight[method]);
		// Over once the response is read (the caller goes on then, before the socket's own 'close') or the request failed.
		let open = true;
		const over = () => {
			if (open) run.inFlight[method]--;
			open = false;
		};
		request.once('response', (response) => response.once('end', over).once('close', over));
		request.once('error', over).once('close', over);
	});
}
setUpEngine();

/** n8n's Manual Trigger ("When clicking ‘Execute workflow’"), as n8n-nodes-base defines it. */
export const manualTrigger: INodeType = {
	description: {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		defaults: { name: 'When clicking ‘Execute workflow’' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	},
};

export class NodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType>) {}

	getByName(type: string): INodeType {
		return this.getByNameAndVersion(type);
	}

	getByNameAndVersion(type: string): INodeType {
		const nodeType = this.types[type];
		if (!nodeType) throw new UnexpectedError(`Unknown node type ${type}`);
		return nodeType;
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(
			Object.keys(this.types).map((type) => [type, { className: type, sourcePath: '' }]),
		);
	}
}

export interface WorkflowSpec {
	nodes: INode[];
	connections: IConnections;
	nodeTypes: INodeTypes;
	credentials: Credentials;
	/**
	 * Where n8n's /webhook-waiting/ route is (n8n's WEBHOOK_URL plus the waiting
	 * endpoint): n8n-core builds `$execution.resumeUrl` from it. `null` for an n8n
	 * that gives none.
	 */
	webhookWaitingBaseUrl?: string | null;
	/**
	 * The workflow's static data as n8n keeps it in the workflow's database row: each
	 * execution starts from a copy of it, and a changed copy is written back after the
	 * execution (n8n's WorkflowRunner and its `workflowExecuteAfter` save hook), except
	 * in manual mode. Without it every run starts with none and nothing is kept.
	 */
	savedStaticData?: { value: IDataObject };
}

let executionCount = 0;

/**
 * What the n8n server hands the engine for one execution: a new execution's, or
 * with `executionId` an existing one's, as n8n gives it again when a waiting
 * execution's webhook is called.
 */
export function additionalDataFor(
	spec: WorkflowSpec,
	workflowData: IWorkflowBase,
	mode: WorkflowExecuteMode,
	executionId = String(++executionCount),
): IWorkflowExecuteAdditionalData {
	const { credentials } = spec;
	const notInThisPackage = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not used by this package's nodes`);
	};
	const additionalData: Partial<IWorkflowExecuteAdditionalData> = {
		executionId,
		credentialsHelper: new CrewCredentialsHelper(credentials),
		hooks: new ExecutionLifecycleHooks(mode, executionId, workflowData),
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl:
			spec.webhookWaitingBaseUrl === undefined
				? 'http://localhost:5678/webhook-waiting'
				: (spec.webhookWaitingBaseUrl ?? undefined),
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		userId: 'test-user',
		executeWorkflow: notInThisPackage('Executing a sub-workflow'),
		getRunExecutionData: notInThisPackage('Reading another execution'),
		getRuntimeCredential: notInThisPackage('A runtime credential'),
		logAiEvent: () => undefined,
	};
	return additionalData as IWorkflowExecuteAdditionalData;
}

export function workflowOf(spec: WorkflowSpec): {
	workflow: Workflow;
	workflowData: IWorkflowBase;
} {
	const workflowData = {
		id: 'crew-test-workflow',
		name: 'Crew node test',
		active: false,
		isArchived: false,
		nodes: spec.nodes,
		connections: spec.connections,
		settings: { executionOrder: 'v1' as const },
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
		...(spec.savedStaticData ? { staticData: structuredClone(spec.savedStaticData.value) } : {}),
	} as IWorkflowBase;
	const workflow = new Workflow({ ...workflowData, nodeTypes: spec.nodeTypes });
	return { workflow, workflowData };
}

/**
 * What n8n's WorkflowRunner gives an execution a streaming Webhook or Chat Trigger
 * started: `additionalData.streamingEnabled` and a `sendChunk` hook handler that
 * writes each chunk to the HTTP response (here, hands it to `onChunk`). n8n-core's
 * isStreaming() then decides by these and the execution mode.
 */
export interface StreamingSetup {
	streamingEnabled: boolean;
	/** The execution mode n8n runs the workflow in: 'webhook' for a Webhook trigger, 'trigger' for other triggers. */
	mode: WorkflowExecuteMode;
	onChunk: (chunk: StructuredChunk) => void;
}

export interface WorkflowRun {
	run: IRun;
	record: RunRecord;
	/** The execution's ID, as `$execution.id` gave it. */
	executionId: string;
}

/** Runs `work` as part of a run: its requests and log lines are recorded in what it returns. */
export async function recordRun<T>(
	work: () => Promise<T>,
): Promise<{ result: T; record: RunRecord }> {
	const record = { requests: [], maxInFlight: {}, logs: [], sentBodies: [], inFlight: {} };
	const result = await currentRun.run(record, work);
	const { inFlight: _, ...seen } = record;
	return { result, record: seen };
}

/**
 * Runs the workflow from `trigger`, as n8n does once a trigger fired with
 * `items` (mode 'trigger': the trigger's output is handed to the engine).
 * Aborting `cancelSignal` cancels the running WorkflowExecute, which is what
 * n8n does when an execution is stopped.
 */
export async function runWorkflow(
	spec: WorkflowSpec,
	trigger: INode,
	items: INodeExecutionData[],
	cancelSignal?: AbortSignal,
	streaming?: StreamingSetup,
): Promise<WorkflowRun> {
	const mode: WorkflowExecuteMode = streaming?.mode ?? 'trigger';
	const { workflow, workflowData } = workflowOf(spec);
	const record = { requests: [], maxInFlight: {}, logs: [], sentBodies: [], inFlight: {} };
	const executionId = String(++executionCount);
	const additionalData = additionalDataFor(spec, workflowData, mode, executionId);
	if (streaming) {
		// As n8n's WorkflowRunner.runMainProcess does for a streaming response.
		additionalData.streamingEnabled = streaming.streamingEnabled;
		additionalData.hooks?.addHandler('sendChunk', (chunk) => streaming.onChunk(chunk));
	}
	const saved = spec.savedStaticData;
	if (saved && mode !== 'manual') {
		// As n8n's save hooks do: the engine hands over the static data only when the run changed it.
		additionalData.hooks?.addHandler('workflowExecuteAfter', (_run, newStaticData) => {
			if (newStaticData) saved.value = JSON.parse(JSON.stringify(newStaticData)) as IDataObject;
		});
	}
	const workflowExecute = new WorkflowExecute(additionalData, mode);
	const running = currentRun.run(record, () =>
		workflowExecute.run({
			workflow,
			startNode: trigger,
			triggerToStartFrom: {
				name: trigger.name,
				data: {
					startTime: Date.now(),
					executionTime: 0,
					executionIndex: 0,
					source: [],
					data: { main: [items] },
				},
			},
		}),
	);
	const cancel = () => running.cancel();
	if (cancelSignal?.aborted) cancel();
	cancelSignal?.addEventListener('abort', cancel, { once: true });
	try {
		const run = await running;
		const { inFlight: _, ...seen } = record;
		return { run, record: seen, executionId };
	} finally {
		cancelSignal?.removeEventListener('abort', cancel);
	}
}

/** n8n-core's context for a node's load-options and resource-mapping methods, as the editor calls them. */
export function loadOptionsContext(
	spec: WorkflowSpec,
	node: INode,
	parameterPath: string,
): ILoadOptionsFunctions {
	const { workflow, workflowData } = workflowOf(spec);
	return new LoadOptionsContext(
		workflow,
		node,
		additionalDataFor(spec, workflowData, 'internal'),
		parameterPath,
	);
}
