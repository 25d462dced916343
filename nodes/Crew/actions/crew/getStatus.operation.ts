import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readCrewStatus } from '../../../status/crewStatus';
import { crewAnswerError, notFoundStatusError } from '../../../transport/crewErrors';
import { isSuccess } from '../../../transport';
import { requestCrewStatus } from '../../../status/statusRequest';
import { retryPassingFailures } from '../../../transport/retryReads';
import { kickoffIdField, runOfItem } from '../common/kickoffId';
import type { OperationTools } from '../../../execution/operationTools';
import { deploymentOf } from '../../../kickoff/deployment';

export const description: INodeProperties[] = [kickoffIdField('getStatus')];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	tools: OperationTools,
): Promise<IDataObject> {
	const { kickoffId, connection } = await runOfItem(this, itemIndex, 'getStatus');
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
			baseUrl: connection.baseUrl,
		});
	}
	const status = readCrewStatus(kickoffId, answer.body, await deploymentOf(this, tools));
	if (status.state === 'not_found') {
		throw notFoundStatusError(this.getNode(), {
			action: 'getStatus',
			itemIndex,
			kickoffId,
			baseUrl: connection.baseUrl,
		});
	}
	return status;
}
