import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getCrewConnection } from '../../transport';
import { startingOptions } from '../crewStart/inputs.description';
import type { OperationTools } from '../itemResults/operationTools';
import { readKickoffBody, startCrew } from '../crewStart/startCrew';
import { deploymentOf } from '../crewStart/deployment';
import { readItemFiles } from '../crewStart/itemFiles';
import { startOnce, triesMemory } from '../crewStart/triesMemory';
import { requestDigest } from '../../../waiting/earlierTries';

export const description: INodeProperties[] = [startingOptions('kickoff')];

export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const body = await readKickoffBody(this, itemIndex, await deploymentOf(this, tools));
	const files = await readItemFiles(this, itemIndex);
	const connection = await getCrewConnection(this, itemIndex);
	let response: IDataObject = {};
	// n8n's Retry On Fail runs every item again: an item an earlier try started gives that kickoff ID, with no second kickoff.
	const started = await startOnce(triesMemory(this), { node: this.getNode(), itemIndex, request: requestDigest(body, files) }, tools.now, async () => {
		const crew = await startCrew(this, connection, itemIndex, body, tools.sleep, files);
		response = crew.response;
		return crew;
	});
	return { ...response, kickoff_id: started.kickoffId };
}
