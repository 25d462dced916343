import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';

/** An operation run item by item: one item's output, or it throws that item's error. */
export type PerItemExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
	tools: OperationTools,
) => Promise<IDataObject>;

/**
 * An operation that sees the whole batch at once (Kickoff and Wait): one outcome per item, in
 * order.
 */
export type BatchExecute = (
	this: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
) => Promise<ItemOutcome[]>;

/**
 * What an operation module gives the router: `executeBatch` when the operation
 * runs the items together (it then picks its own mode from its own parameters),
 * else `execute`, run once per item.
 */
export type CrewOperationModule = { execute: PerItemExecute } | { executeBatch: BatchExecute };
