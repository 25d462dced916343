import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { CrewOperation, CrewResource } from './node.type';

/** One entry of an Operation menu: every entry names the action n8n's nodes panel lists. */
export interface OperationEntry extends INodePropertyOptions {
	value: CrewOperation;
	action: string;
}

/**
 * A resource's Operation menu, written once for the three resources. n8n's lint
 * rules read only object literals, so they do not see the entries here; the
 * package's tests lint the Crew node's description as n8n loads it instead
 * (test/package/descriptionLint.test.ts).
 */
export function operationMenu(
	resource: CrewResource,
	entries: OperationEntry[],
	defaultOperation: CrewOperation,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: entries,
		default: defaultOperation,
	};
}
