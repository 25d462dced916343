import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getCrewConnection } from '../../../transport';
import { startingOptions } from '../../../kickoff/inputs.description';
import type { OperationTools } from '../../../itemResults/operationTools';
import { readKickoffBody, startCrew } from '../../../kickoff/startCrew';
import { deploymentOf } from '../../../kickoff/deployment';
import { readItemFiles } from '../../../files/itemFiles';
import { credentialSecrets, itemRequest, startOnce, triesMemory } from '../../../retryOnFail/triesMemory';

export const description: INodeProperties[] = [startingOptions('kickoff')];

export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const body = await readKickoffBody(this, itemIndex, await deploymentOf(this, tools));
	const files = await readItemFiles(this, itemIndex);
	const connection = await getCrewConnection(this, itemIndex);
	// n8n's Retry On Fail runs every item again: an item an earlier try started gives that kickoff's answer again, with no second kickoff.
	const item = { node: this.getNode(), itemIndex, request: itemRequest(this, itemIndex, connection.secret), secrets: await credentialSecrets(this, itemIndex) };
	const started = await startOnce(triesMemory(this), item, tools.now, async () => {
		const crew = await startCrew(this, connection, itemIndex, body, tools.sleep, files);
		return { kickoffId: crew.kickoffId, answer: crew.response };
	});
	return { ...(started.answer ?? {}), kickoff_id: started.kickoffId };
}
