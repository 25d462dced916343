/**
 * The Crew node as an AI agent's tool, on n8n-core's real engine. n8n serves a
 * `usableAsTool` node under its type name plus "Tool", with an ai_tool output
 * (n8n/dist/tool-generation/ai-tools.js, convertNodeToAiTool); the consumer
 * nodes below stand in for the two ways n8n calls such a tool:
 *
 * - `toolsAgent` asks n8n-core for its tools (getInputConnectionData → n8n-core's
 *   createNodeAsTool), as n8n's MCP Server Trigger and the AI Agent of n8n 1.x
 *   do, and calls each tool with arguments: the schema and the $fromAI values
 *   are n8n-core's own.
 * - `engineAgent` hands the engine a request to run the tool node with the
 *   model's arguments (n8n-core requests-response.js), as n8n 2.x's AI Agent does.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	EngineRequest,
	EngineResponse,
} from 'n8n-workflow';

import { Crew } from '../../nodes/Crew/Crew.node';
import { CREDENTIAL_ID } from './crewCredentialsHelper';
import type { Credentials } from './crewCredentialsHelper';
import { LoadOptionsContext } from 'n8n-core';

import { additionalDataFor, manualTrigger, NodeTypes, runWorkflow, workflowOf } from './n8nEngine';
import type { RunRecord, WorkflowSpec } from './n8nEngine';
import { triggerNode } from './crewWorkflow';
import { assertRunHidesSecrets } from './tokenHygiene';

export const CREW_TOOL_TYPE = 'n8n-nodes-crewai.crewTool';
const AGENT_NAME = 'Agent';
export const TOOL_NODE_NAME = 'Crew_Research';

const crew = new Crew();

/** The tool variant n8n makes of the Crew node: same code, no main input, an ai_tool output. */
export const crewTool: INodeType = {
	description: {
		...crew.description,
		name: 'crewTool',
		displayName: 'Crew Tool',
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	},
	methods: crew.methods,
	async execute(this: IExecuteFunctions) {
		return await crew.execute.call(this);
	},
};

/** One parameter of the tool's schema, as a model is offered it. */
export interface ToolParameter {
	type: string;
	description?: string;
	required: boolean;
}

/** What a consumer saw: the tool's name and parameters, and each call's answer (the text a model gets) or error message. */
export interface ToolCallRecord {
	name: string;
	parameters: Record<string, ToolParameter>;
	answers: Array<{ answer?: string; error?: string }>;
}

/** The parts of a zod schema (n8n-core builds the tool's schema with zod) that say what a model is offered. */
interface SchemaPart {
	description?: string;
	isOptional(): boolean;
	_def: { typeName: string; innerType?: SchemaPart };
}

/** A LangChain tool as n8n-core hands it over: a name, a zod object schema, and invoke. */
interface ToolLike {
	name: string;
	schema: { shape: Record<string, SchemaPart> };
	invoke(args: IDataObject): Promise<unknown>;
}

function describeParameters(tool: ToolLike): Record<string, ToolParameter> {
	return Object.fromEntries(
		Object.entries(tool.schema.shape).map(([key, part]) => {
			const inner = part._def.innerType ?? part;
			const type = inner._def.typeName.replace(/^Zod/, '').toLowerCase();
			return [key, { type, description: part.description, required: !part.isOptional() }];
		}),
	);
}

let plannedCalls: IDataObject[] = [];

const toolsAgent: INodeType = {
	description: {
		displayName: 'Tools consumer',
		name: 'toolsAgent',
		group: ['transform'],
		version: 1,
		description: 'Calls its tools as n8n-core hands them over',
		defaults: { name: AGENT_NAME },
		inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as ToolLike[];
		const [tool] = tools;
		const answers: ToolCallRecord['answers'] = [];
		for (const args of plannedCalls) {
			try {
				answers.push({ answer: String(await tool.invoke(args)) });
			} catch (error) {
				answers.push({ error: (error as Error).message });
			}
		}
		const json: IDataObject = { name: tool.name, parameters: describeParameters(tool), answers };
		return [[{ json }]];
	},
};

const engineAgent: INodeType = {
	description: {
		...toolsAgent.description,
		name: 'engineAgent',
		description: "Has the engine run its tool, as n8n 2.x's AI Agent does",
	},
	async execute(
		this: IExecuteFunctions,
		response?: EngineResponse,
	): Promise<INodeExecutionData[][] | EngineRequest> {
		// The engine hands every run a response; an empty one means the tools have not run yet.
		if (!response || response.actionResponses.length === 0) {
			return {
				actions: plannedCalls.map((input, index) => ({
					actionType: 'ExecutionNodeAction' as const,
					nodeName: TOOL_NODE_NAME,
					input,
					type: NodeConnectionTypes.AiTool,
					id: `call_${index}`,
					metadata: { itemIndex: 0 },
				})),
				metadata: {},
			};
		}
		const outputs = response.actionResponses.map(
			(result) =>
				result.data.data?.[NodeConnectionTypes.AiTool]?.[0]?.map((item) => item.json) ?? [],
		);
		return [[{ json: { outputs } }]];
	},
};

/** n8n's On Error setting of the tool node. */
export type ToolOnError = 'stopWorkflow' | 'continueRegularOutput';

/** The tool node; without onError as a new node has none (n8n 2.x then hands the model a tool's error). */
function toolNode(parameters: INodeParameters, onError?: ToolOnError): INode {
	return {
		...(onError ? { onError } : {}),
		id: 'crew-tool-id',
		name: TOOL_NODE_NAME,
		type: CREW_TOOL_TYPE,
		typeVersion: 1.1,
		position: [200, 200],
		parameters,
		credentials: { crewApi: { id: CREDENTIAL_ID, name: 'Crew account' } },
	};
}

function agentWorkflow(
	agentType: 'toolsAgent' | 'engineAgent',
	parameters: INodeParameters,
	credentials: Credentials,
	onError?: ToolOnError,
): WorkflowSpec {
	const agent: INode = {
		id: 'agent-id',
		name: AGENT_NAME,
		type: agentType,
		typeVersion: 1,
		position: [200, 0],
		parameters: {},
	};
	return {
		nodes: [triggerNode, agent, toolNode(parameters, onError)],
		connections: {
			[triggerNode.name]: {
				main: [[{ node: AGENT_NAME, type: NodeConnectionTypes.Main, index: 0 }]],
			},
			[TOOL_NODE_NAME]: {
				ai_tool: [[{ node: AGENT_NAME, type: NodeConnectionTypes.AiTool, index: 0 }]],
			},
		},
		nodeTypes: new NodeTypes({
			'n8n-nodes-base.manualTrigger': manualTrigger,
			toolsAgent,
			engineAgent,
			[CREW_TOOL_TYPE]: crewTool,
		}),
		credentials,
	};
}

/**
 * n8n-core's context for the tool node's resource-mapping method, as the editor
 * calls it: with the node's parameters as the editor holds them at that moment.
 */
export function crewToolLoadOptionsContext(parameters: INodeParameters, credentials: Credentials) {
	const spec = agentWorkflow('toolsAgent', parameters, credentials);
	const { workflow, workflowData } = workflowOf(spec);
	const additionalData = {
		...additionalDataFor(spec, workflowData, 'internal'),
		currentNodeParameters: parameters,
	};
	return new LoadOptionsContext(
		workflow,
		toolNode(parameters),
		additionalData,
		'parameters.inputs',
	);
}

async function runAgent(
	agentType: 'toolsAgent' | 'engineAgent',
	parameters: INodeParameters,
	credentials: Credentials,
	calls: IDataObject[],
	onError?: ToolOnError,
) {
	plannedCalls = calls;
	const spec = agentWorkflow(agentType, parameters, credentials, onError);
	const { run, record } = await runWorkflow(spec, triggerNode, [{ json: { chatInput: 'go' } }]);
	assertRunHidesSecrets(
		credentials,
		'execution data (output, errors, run data)',
		run,
		record,
		spec.nodes.map((node) => node.parameters),
	);
	const stored = run.data.resultData.error;
	if (stored) throw Object.assign(new Error(stored.message), stored);
	const json = run.data.resultData.runData[AGENT_NAME]?.at(-1)?.data?.main?.[0]?.[0]?.json ?? {};
	return { json, record };
}

/** Calls the Crew tool the way n8n's MCP Server Trigger (and n8n 1.x's agent) does. */
export async function callCrewTool(
	parameters: INodeParameters,
	credentials: Credentials,
	calls: IDataObject[],
): Promise<ToolCallRecord & { record: RunRecord }> {
	const { json, record } = await runAgent('toolsAgent', parameters, credentials, calls);
	return { ...(json as unknown as ToolCallRecord), record };
}

/** Calls the Crew tool the way n8n 2.x's AI Agent does; gives each call's output items as the agent reads them. */
export async function callCrewToolThroughEngine(
	parameters: INodeParameters,
	credentials: Credentials,
	calls: IDataObject[],
	onError?: ToolOnError,
): Promise<{ outputs: IDataObject[][]; record: RunRecord }> {
	const { json, record } = await runAgent('engineAgent', parameters, credentials, calls, onError);
	return { outputs: (json as { outputs: IDataObject[][] }).outputs, record };
}
