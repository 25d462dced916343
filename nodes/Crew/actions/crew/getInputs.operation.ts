import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, INodeProperties, JsonObject } from 'n8n-workflow';

import { isInputsListing, offeredInputs, resolveDeployment } from '../../../records/crewInputs';
import { crewAnswerError, scrubSecret } from '../../transport/crewErrors';
import { getCrewConnection, isSuccess, sendCrewRequest } from '../../transport';
import { retryPassingFailures } from '../../transport/retryReads';
import type { OperationTools } from '../itemResults/operationTools';
import { defaultDeploymentChoice } from '../crewStart/deployment';

export const description: INodeProperties[] = [];

/** Reads `GET /inputs`, the listing as the service sent it; shared by this operation, the editor's input fields and Detect. */
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
	return answer.body;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, tools: OperationTools): Promise<IDataObject> {
	const listing = await loadInputsListing(this, itemIndex, tools);
	// Detect reads this listing: no second request.
	const choice = this.getNodeParameter('deploymentType', 0, defaultDeploymentChoice(this.getNode()));
	const deployment = resolveDeployment(choice, listing);
	const inputs = offeredInputs(deployment, listing);
	const answer: IDataObject = { inputs: inputs.map((input) => input.name), input_details: inputs.map((input) => ({ ...input })) };
	// Only a flow says so: a crew's answer is what it always was.
	if (deployment === 'flow') answer.deployment = 'flow';
	return answer;
}
