import type { INode } from 'n8n-workflow';

/**
 * Whether the node answers an AI agent or an MCP client rather than a workflow.
 * n8n offers the node as a tool under its own type name with "Tool" appended
 * (`n8n-nodes-crewai.crewTool`, n8n/dist/node-types.js, getByNameAndVersion), and
 * that type only ever runs as a tool. The type name is the signal that holds
 * everywhere: n8n 2.41's AI Agent runs its tools as ordinary nodes through
 * engine requests (n8n-core requests-response.js), where `isToolExecution()`
 * answers false (execute-context.js), and n8n 1.x has no `isToolExecution` at all.
 */
export function isToolCall(nodeType: string, isToolExecution: boolean): boolean {
	return isToolExecution || nodeType.endsWith('Tool');
}

/** Whether this run of the node is a tool call (isToolCall), as far as its context tells. */
export function runsAsTool(context: {
	getNode(): INode;
	isToolExecution?: () => boolean;
}): boolean {
	return isToolCall(
		context.getNode().type,
		typeof context.isToolExecution === 'function' && context.isToolExecution(),
	);
}
