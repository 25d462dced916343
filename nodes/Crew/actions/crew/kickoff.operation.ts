import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getCrewConnection } from '../../transport';
import { startingOptions } from '../crewStart/inputs.description';
import type { OperationTools } from '../itemResults/operationTools';
import { readKickoffBody, startCrew } from '../crewStart/startCrew';
import { deploymentOf } from '../crewStart/deployment';
import { readItemFiles } from '../crewStart/itemFiles';

export const description: INodeProperties[] = [startingOptions('kickoff')];

export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const body = await readKickoffBody(this, itemIndex, await deploymentOf(this, tools));
	const files = await readItemFiles(this, itemIndex);
	const connection = await getCrewConnection(this, itemIndex);
	const started = await startCrew(this, connection, itemIndex, body, tools.sleep, files);
	return { ...started.response, kickoff_id: started.kickoffId };
}
