import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, ILoadOptionsFunctions, JsonObject } from 'n8n-workflow';

import { isInputsListing } from '../records/crewInputs';
import { crewAnswerError } from '../transport/crewErrors';
import { getCrewConnection, isSuccess, sendCrewRequest } from '../transport';
import { retryPassingFailures } from '../transport/retryReads';
import type { OperationTools } from '../execution/operationTools';

/**
 * Reads `GET /inputs`, the listing as the service sent it; shared by this operation, the editor's
 * input fields and Detect.
 */
export async function loadInputsListing(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	itemIndex: number,
	tools: Pick<OperationTools, 'sleep' | 'isCancelled'>,
): Promise<unknown> {
	const connection = await getCrewConnection(context, itemIndex);
	const answer = await retryPassingFailures(
		async () => await sendCrewRequest(context, connection, { method: 'GET', path: '/inputs' }),
		tools.sleep,
		tools.isCancelled,
	);
	const errorContext = { action: 'getInputs' as const, itemIndex, baseUrl: connection.baseUrl };
	if (!isSuccess(answer)) throw crewAnswerError(context.getNode(), answer, errorContext);
	if (!isInputsListing(answer.body)) {
		const message = `${connection.baseUrl}/inputs answered, but not with a crew's list of inputs`;
		throw new NodeApiError(context.getNode(), { message } as JsonObject, {
			message,
			description:
				"Check the Base URL in the Crew API credential: it must be the crew's own API address, as shown on its dashboard, not a web page.",
			itemIndex,
		});
	}
	return answer.body;
}
