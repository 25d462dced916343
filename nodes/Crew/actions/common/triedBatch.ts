import type { IExecuteFunctions } from 'n8n-workflow';

import { withTries } from '../../../retryOnFail/triesMemory';
import type { Tries } from '../../../retryOnFail/triesMemory';
import type { SentRequest } from '../../../retryOnFail/earlierTries';
import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';
import type { BatchExecute } from './operationModule';

/**
 * An operation that sends kickoffs or resumes, as the router runs it: the whole batch, with a
 * recorder of the node's tries, so that no item's request is sent twice by Retry On Fail or a
 * retry from the Executions list.
 */
export function triedBatch(
	sends: SentRequest,
	run: (
		context: IExecuteFunctions,
		itemCount: number,
		tools: OperationTools,
		tries: Tries,
	) => Promise<ItemOutcome[]>,
): BatchExecute {
	return async function (this: IExecuteFunctions, itemCount: number, tools: OperationTools) {
		return await withTries(
			this,
			sends,
			tools.now,
			async (tries) => await run(this, itemCount, tools, tries),
		);
	};
}
