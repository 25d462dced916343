import type { INodeProperties } from 'n8n-workflow';

import { getCrewConnection } from '../../../transport';
import { startingOptions } from '../descriptions/inputs.description';
import { readKickoffBody, startCrew } from '../../../kickoff/startCrew';
import { deploymentOf } from '../../../kickoff/deployment';
import { readItemFiles } from '../../../files/itemFiles';
import { triedBatch } from '../common/triedBatch';
import { runPerItem } from '../common/perItem';

export const description: INodeProperties[] = [startingOptions('kickoff')];

/**
 * Each item's kickoff, one after another; a retry gives an item an earlier try started that kickoff
 * again, with no second one.
 */
export const executeBatch = triedBatch('kickoff', async (context, itemCount, tools, tries) => {
	const kickoff = async (itemIndex: number) => {
		const body = await readKickoffBody(context, itemIndex, await deploymentOf(context, tools));
		const files = await readItemFiles(context, itemIndex);
		const connection = await getCrewConnection(context, itemIndex);
		const start = async () =>
			await startCrew(context, connection, itemIndex, body, tools.sleep, files);
		const started = await tries.send(itemIndex, {}, start);
		return { ...(started.answer ?? {}), kickoff_id: started.kickoffId };
	};
	return await runPerItem(context, itemCount, kickoff, tools);
});
