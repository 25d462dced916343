import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readCrewStatus } from '../../../status/crewStatus';
import { crewAnswerError, notFoundStatusError } from '../../../transport/crewErrors';
import { getCrewConnection, isSuccess } from '../../../transport';
import { requestCrewStatus } from '../../../status/statusRequest';
import { retryPassingFailures } from '../../../transport/retryReads';
import type { OperationTools } from '../common/operationTools';
import { deploymentOf } from '../../../kickoff/deployment';

export const description: INodeProperties[] = [
	{
		displayName: 'Kickoff ID',
		name: 'kickoffId',
		type: 'string',
		// What Kickoff, Kickoff and Wait, Resume (the run to follow) and the Crew Trigger's items call it.
		default: '={{ $json.kickoff_id }}',
		required: true,
		placeholder: 'e.g. 97eba64f-958c-40a0-b61c-625fe635a3c0',
		description: 'The kickoff_id a Kickoff returned. By default the kickoff_id of the incoming item: after a Resume, the resumed run.',
		displayOptions: { show: { operation: ['getStatus', 'resume'] } },
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const kickoffId = String(this.getNodeParameter('kickoffId', itemIndex, '') ?? '').trim();
	if (kickoffId === '') {
		throw new NodeOperationError(this.getNode(), 'Kickoff ID is empty', {
			itemIndex,
			description: 'Set Kickoff ID to the kickoff_id a Kickoff returned, e.g. with an expression like {{ $json.kickoff_id }}.',
		});
	}
	const connection = await getCrewConnection(this, itemIndex);
	const answer = await retryPassingFailures(
		async () => await requestCrewStatus(this, connection, kickoffId),
		tools.sleep,
		tools.isCancelled,
	);
	if (!isSuccess(answer)) {
		throw crewAnswerError(this.getNode(), answer, {
			action: 'getStatus',
			itemIndex,
			kickoffId,
			secret: connection.secret,
			baseUrl: connection.baseUrl,
		});
	}
	const status = readCrewStatus(kickoffId, answer.body, await deploymentOf(this, tools));
	if (status.state === 'not_found') {
		throw notFoundStatusError(this.getNode(), { action: 'getStatus', itemIndex, kickoffId, secret: connection.secret, baseUrl: connection.baseUrl });
	}
	return status;
}
