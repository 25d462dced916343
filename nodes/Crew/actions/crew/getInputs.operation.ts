import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, INodeProperties, JsonObject } from 'n8n-workflow';

import { isInputsListing, readCrewInputs } from '../../../records/crewInputs';
import type { CrewInput } from '../../../records/crewInputs';
import { crewAnswerError, scrubSecret } from '../../transport/crewErrors';
import { getCrewConnection, isSuccess, sendCrewRequest } from '../../transport';
import { retryPassingFailures } from '../../transport/retryReads';
import type { OperationTools } from '../itemResults/operationTools';

export const description: INodeProperties[] = [];

/** Reads `GET /inputs`; shared by this operation and the editor's input fields. */
export async function loadCrewInputs(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	itemIndex: number,
	tools: Pick<OperationTools, 'sleep' | 'isCancelled'>,
): Promise<CrewInput[]> {
	const connection = await getCrewConnection(context, itemIndex);
	const answer = await retryPassingFailures(
		async () => await sendCrewRequest(context, connection, { method: 'GET', path: '/inputs' }),
		tools.sleep,
		tools.isCancelled,
	);
	const errorContext = { action: 'getInputs' as const, itemIndex, secret: connection.secret, baseUrl: connection.baseUrl };
	if (!isSuccess(answer)) throw crewAnswerError(context.getNode(), answer, errorContext);
	if (!isInputsListing(answer.body)) {
		const message = scrubSecret(`${connection.baseUrl}/inputs answered, but not with a crew's list of inputs`, connection.secret);
		throw new NodeApiError(context.getNode(), { message } as JsonObject, {
			message,
			description: 'Check the Base URL in the Crew API credential: it must be the crew\'s own API address, as shown on its dashboard, not a web page.',
			itemIndex,
		});
	}
	return readCrewInputs(answer.body);
}

export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const inputs = await loadCrewInputs(this, itemIndex, tools);
	return { inputs: inputs.map((input) => input.name), input_details: inputs.map((input) => ({ ...input })) };
}
