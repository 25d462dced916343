import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getCrewConnection } from '../../../transport';
import { startingOptions } from '../descriptions/inputs.description';
import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';
import { readKickoffBody, startCrew } from '../../../kickoff/startCrew';
import { deploymentOf } from '../../../kickoff/deployment';
import { readItemFiles } from '../../../files/itemFiles';
import { withTries } from '../../../retryOnFail/triesMemory';
import { runPerItem } from '../common/perItem';

export const description: INodeProperties[] = [startingOptions('kickoff')];

/**
 * Each item's kickoff, one after another; a retry gives an item an earlier try started that kickoff
 * again, with no second one.
 */
export async function executeBatch(
	this: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
): Promise<ItemOutcome[]> {
	return await withTries(
		this,
		'kickoff',
		tools.now,
		async (tries) =>
			await runPerItem(
				this,
				itemCount,
				async function (this: IExecuteFunctions, itemIndex: number) {
					const body = await readKickoffBody(this, itemIndex, await deploymentOf(this, tools));
					const files = await readItemFiles(this, itemIndex);
					const connection = await getCrewConnection(this, itemIndex);
					const started = await tries.send(
						itemIndex,
						{},
						async () => await startCrew(this, connection, itemIndex, body, tools.sleep, files),
					);
					return { ...(started.answer ?? {}), kickoff_id: started.kickoffId };
				},
				tools,
			),
	);
}
