import type { IExecuteFunctions } from 'n8n-workflow';

import { toItemError } from '../../../itemResults/itemError';
import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';
import type { PerItemExecute } from './operationModule';

/**
 * Items one after another, in order. Without Continue On Fail the first error
 * stops the node, so no further crew is started after one that failed.
 */
export async function runPerItem(
	context: IExecuteFunctions,
	itemCount: number,
	execute: PerItemExecute,
	tools: OperationTools,
): Promise<ItemOutcome[]> {
	const outcomes: ItemOutcome[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			outcomes.push({ json: await execute.call(context, itemIndex, tools) });
		} catch (error) {
			const itemError = toItemError(context.getNode(), error, itemIndex);
			if (!context.continueOnFail()) throw itemError;
			outcomes.push({ error: itemError });
		}
	}
	return outcomes;
}
