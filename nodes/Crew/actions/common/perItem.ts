import type { IExecuteFunctions } from 'n8n-workflow';

import { toItemError } from '../../../itemResults/itemError';
import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';
import type { PerItemExecute } from './operationModule';

/** One item's result, or its error. */
export type InOrder<T> = { itemIndex: number; result: T } | { itemIndex: number; error: Error };

/**
 * Items one after another, in order. Without Continue On Fail the first error stops the node,
 * so nothing more is sent after an item that failed; `stopWith` words that error, given the
 * results before it (Resume names the runs it already resumed).
 */
export async function eachItemInOrder<T>(
	context: IExecuteFunctions,
	itemCount: number,
	run: (itemIndex: number) => Promise<T>,
	stopWith: (error: Error, done: T[]) => Promise<Error> = async (error) => error,
): Promise<Array<InOrder<T>>> {
	const outcomes: Array<InOrder<T>> = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			outcomes.push({ itemIndex, result: await run(itemIndex) });
		} catch (error) {
			const itemError = toItemError(context.getNode(), error, itemIndex);
			if (!context.continueOnFail()) {
				throw await stopWith(
					itemError,
					outcomes.flatMap((done) => ('result' in done ? [done.result] : [])),
				);
			}
			outcomes.push({ itemIndex, error: itemError });
		}
	}
	return outcomes;
}

/** An operation's items one after another (eachItemInOrder), each its output or its error. */
export async function runPerItem(
	context: IExecuteFunctions,
	itemCount: number,
	execute: PerItemExecute,
	tools: OperationTools,
): Promise<ItemOutcome[]> {
	const outcomes = await eachItemInOrder(
		context,
		itemCount,
		async (itemIndex) => await execute.call(context, itemIndex, tools),
	);
	return outcomes.map((outcome) =>
		'result' in outcome ? { json: outcome.result } : { error: outcome.error },
	);
}
