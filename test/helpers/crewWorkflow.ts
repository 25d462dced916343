/**
 * The node tests' way in: a workflow of n8n's Manual Trigger and the Crew
 * node, run on n8n's real engine (see n8nEngine.ts) against the reference
 * crew service. Every run is checked for the token.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	NodeParameterValue,
} from 'n8n-workflow';
import { isDeepStrictEqual } from 'util';

import { Crew } from '../../nodes/Crew/Crew.node';
import { CREDENTIAL_ID, credentialTypes } from './crewCredentialsHelper';
import type { Credentials } from './crewCredentialsHelper';
import { loadOptionsContext, manualTrigger, NodeTypes, runWorkflow } from './n8nEngine';
import type { RunRecord, StreamingSetup, WorkflowSpec } from './n8nEngine';
import { assertRunHidesSecrets } from './tokenHygiene';

export type { Credentials } from './crewCredentialsHelper';
export type { RunRecord, StreamingSetup } from './n8nEngine';
export { serializeError } from './tokenHygiene';

/** Parameters for every item, or a function of the item index (what an expression gives). */
export type Parameters = object | ((itemIndex: number) => object);

export type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

export interface CrewRunOptions {
	parameters: Parameters;
	credentials: Credentials;
	items?: INodeExecutionData[];
	/** The node setting "On Error: Continue" (continueRegularOutput); `onError` chooses the other settings. */
	continueOnFail?: boolean;
	onError?: OnError;
	/** Aborting it stops the execution, as the Stop button in n8n does. */
	cancelSignal?: AbortSignal;
	/** Run the node without getExecutionCancelSignal, as n8n versions before it did. */
	withoutCancelSignal?: boolean;
	/** Run the node without isStreaming and sendChunk, as n8n versions before streaming did. */
	withoutStreaming?: boolean;
	/** The execution as a streaming Webhook would start it (see StreamingSetup). */
	streaming?: StreamingSetup;
	/** The Crew node's version; default 1, as 0.1.0 saved it. */
	typeVersion?: number;
	/** The workflow's saved static data, loaded before and saved after the run as n8n does (see WorkflowSpec). */
	savedStaticData?: { value: IDataObject };
	/** The node settings Retry On Fail, Max Tries and Wait Between Tries (ms), which n8n-core's engine acts on. */
	retryOnFail?: { maxTries: number; waitBetweenTries?: number };
}

/** Kept under its old name for the tests written against the hand-made fake. */
export type FakeRecord = RunRecord;

export const TRIGGER_NAME = 'When clicking ‘Execute workflow’';
export const CREW_NODE_NAME = 'Crew';
const CREW_TYPE = 'n8n-nodes-crewai.crew';

const crew = new Crew();

/**
 * The Crew node as it runs on n8n releases before getExecutionCancelSignal
 * (n8n-core always has it now, so this is the one thing the engine cannot
 * show by itself): the same node, handed n8n's context without that method.
 */
const crewWithout = (...hidden: Array<keyof IExecuteFunctions>): INodeType => ({
	description: crew.description,
	methods: crew.methods,
	async execute(this: IExecuteFunctions) {
		const isHidden = (key: string | symbol) => (hidden as Array<string | symbol>).includes(key);
		const context = new Proxy(this, {
			has: (target, key) => !isHidden(key) && key in target,
			get: (target, key) => (isHidden(key) ? undefined : Reflect.get(target, key, target)),
		});
		return await crew.execute.call(context);
	},
});
const crewWithoutCancelSignal = crewWithout('getExecutionCancelSignal');

/** The Crew node as n8n 1.x releases before streaming run it: no isStreaming, no sendChunk. */
const crewWithoutStreaming = crewWithout('isStreaming', 'sendChunk');

/**
 * Turns parameters that differ by item into what a user writes for that: an
 * expression, here one picking the item's value by `$itemIndex`, which n8n
 * evaluates per item. Values the same for every item stay fixed values.
 */
export function parametersForItems(parameters: Parameters, itemCount: number): INodeParameters {
	if (typeof parameters !== 'function') return parameters as INodeParameters;
	const perItem = Array.from({ length: Math.max(itemCount, 1) }, (_, itemIndex) =>
		parameters(itemIndex),
	);
	return mergeItemValues(perItem) as INodeParameters;
}

const isPlainObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function mergeItemValues(values: unknown[]): unknown {
	if (values.every((value) => isDeepStrictEqual(value, values[0]))) return values[0];
	if (values.every(isPlainObject)) {
		const keys = [...new Set(values.flatMap((value) => Object.keys(value)))];
		return Object.fromEntries(
			keys.map((key) => [key, mergeItemValues(values.map((value) => value[key]))]),
		);
	}
	// The values as a JSON text in a string literal whose braces are escaped, so no `{{` or `}}` in them can end the expression early.
	const literal = JSON.stringify(JSON.stringify(values.map((value) => value ?? null))).replace(
		/[{}]/g,
		(brace) => `\\u${brace.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
	return `={{ JSON.parse(${literal})[$itemIndex] }}` as NodeParameterValue;
}

function crewNode(
	options: Pick<
		CrewRunOptions,
		'continueOnFail' | 'onError' | 'credentials' | 'typeVersion' | 'retryOnFail'
	>,
	parameters: INodeParameters,
): INode {
	const credential = { id: CREDENTIAL_ID, name: 'Crew account' };
	return {
		id: 'crew-node-id',
		name: CREW_NODE_NAME,
		type: CREW_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [220, 0],
		parameters,
		credentials: { crewApi: credential },
		onError: options.onError ?? (options.continueOnFail ? 'continueRegularOutput' : 'stopWorkflow'),
		...(options.retryOnFail
			? {
					retryOnFail: true,
					maxTries: options.retryOnFail.maxTries,
					waitBetweenTries: options.retryOnFail.waitBetweenTries ?? 0,
				}
			: {}),
	};
}

export const triggerNode: INode = {
	id: 'trigger-node-id',
	name: TRIGGER_NAME,
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export function crewWorkflow(options: CrewRunOptions, itemCount: number): WorkflowSpec {
	return {
		nodes: [triggerNode, crewNode(options, parametersForItems(options.parameters, itemCount))],
		connections: { [TRIGGER_NAME]: { main: [[{ node: CREW_NODE_NAME, type: 'main', index: 0 }]] } },
		nodeTypes: new NodeTypes({
			'n8n-nodes-base.manualTrigger': manualTrigger,
			[CREW_TYPE]: options.withoutCancelSignal
				? crewWithoutCancelSignal
				: options.withoutStreaming
					? crewWithoutStreaming
					: crew,
		}),
		credentials: options.credentials,
		...(options.savedStaticData ? { savedStaticData: options.savedStaticData } : {}),
	};
}

export interface CrewRun {
	/** The Crew node's first (regular) output. */
	output: INodeExecutionData[];
	/** All its outputs: with On Error "Continue (using error output)" the second is the error output. */
	outputs: INodeExecutionData[][];
	record: RunRecord;
	/** The whole execution as n8n-core returned it. */
	run: IRun;
}

/**
 * n8n stores a node's error as a plain copy of its own properties (message,
 * description, context, httpCode…); it comes back as an Error with those, so
 * `rejects.toThrow` works on it.
 */
export function storedError(run: IRun): (Error & IDataObject) | undefined {
	const stored = run.data.resultData.error;
	return stored
		? (Object.assign(new Error(stored.message), stored) as unknown as Error & IDataObject)
		: undefined;
}

export interface CrewWorkflowRun extends CrewRun {
	/** The error n8n stored for the execution, if it failed. */
	error?: Error & IDataObject;
}

/** The Crew node's outputs in a run (its first, or with -1 its last), as n8n's execution view lists them. */
export function crewOutputsOf(run: IRun, runIndex = 0): INodeExecutionData[][] {
	return (run.data.resultData.runData[CREW_NODE_NAME]?.at(runIndex)?.data?.main ?? []).map(
		(output) => output ?? [],
	);
}

/** Runs the workflow and gives everything it left, after checking all of it for the token. */
export async function runCrewWorkflow(options: CrewRunOptions): Promise<CrewWorkflowRun> {
	const items = options.items ?? [{ json: {} }];
	const spec = crewWorkflow(options, items.length);
	const { run, record } = await runWorkflow(
		spec,
		triggerNode,
		items,
		options.cancelSignal,
		options.streaming,
	);
	assertRunHidesSecrets(
		options.credentials,
		'execution data (output, errors, run data)',
		run,
		record,
		spec.nodes.map((node) => node.parameters),
	);
	const outputs = crewOutputsOf(run);
	return { output: outputs[0] ?? [], outputs, record, run, error: storedError(run) };
}

/** Runs the workflow; resolves with the Crew node's outputs, or rejects with the error n8n stored. */
export async function runCrewNode(options: CrewRunOptions): Promise<CrewRun> {
	const { error, ...result } = await runCrewWorkflow(options);
	if (error) throw error;
	return result;
}

/** Runs the workflow and returns the error n8n stored. Fails the test if there was none. */
export async function runCrewNodeExpectingError(
	options: CrewRunOptions,
): Promise<Error & IDataObject> {
	try {
		await runCrewNode(options);
	} catch (error) {
		return error as Error & IDataObject;
	}
	throw new Error('The node was expected to fail, and did not');
}

export function items(count: number): INodeExecutionData[] {
	return Array.from({ length: count }, (_, index) => ({ json: { index } }));
}

/** The Crew node's resource-mapping method as the editor calls it, in n8n-core's load-options context. */
export function crewLoadOptionsContext(
	parameters: object,
	credentials: Credentials,
	typeVersion?: number,
) {
	const node = crewNode({ credentials, typeVersion }, parameters as INodeParameters);
	return loadOptionsContext(
		crewWorkflow({ parameters, credentials, typeVersion }, 1),
		node,
		'parameters.inputs',
	);
}

/**
 * The credential dialog's "Test" as n8n's CredentialsTester does it: the
 * credential's `test.request` becomes the routing of a declarative node,
 * which n8n-core's RoutingNode runs with the credential's authentication.
 */
export async function testCredential(
	credentials: Credentials,
): Promise<{ status: 'OK' } | { status: 'Error'; httpCode?: string; message: string }> {
	const testNodeType: INodeType = {
		description: {
			displayName: 'Credential test',
			name: 'noOp',
			group: ['transform'],
			version: 1,
			description: "The request of the credential's test",
			defaults: { name: 'Temp-Node' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'crewApi', required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: credentialTypes.crewApi.test!.request },
				},
			],
		},
	};
	const testNode: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
		credentials: { crewApi: { id: CREDENTIAL_ID, name: 'Crew account' } },
	};
	const { run, record } = await runWorkflow(
		{
			nodes: [triggerNode, testNode],
			connections: {
				[TRIGGER_NAME]: { main: [[{ node: testNode.name, type: 'main', index: 0 }]] },
			},
			nodeTypes: new NodeTypes({
				'n8n-nodes-base.manualTrigger': manualTrigger,
				'n8n-nodes-base.noOp': testNodeType,
			}),
			credentials,
		},
		triggerNode,
		[{ json: {} }],
	);
	assertRunHidesSecrets(credentials, 'credential test', run, record, []);
	const error = run.data.resultData.error as (IDataObject & { message: string }) | undefined;
	if (!error) return { status: 'OK' };
	return {
		status: 'Error',
		httpCode: error.httpCode as string | undefined,
		message: error.message,
	};
}
