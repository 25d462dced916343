import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { offeredInputs, resolveDeployment } from '../../../records/crewInputs';
import type { OperationTools } from '../../../execution/operationTools';
import { defaultDeploymentChoice } from '../../../kickoff/deployment';
import { loadInputsListing } from '../../../kickoff/inputsListing';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	tools: OperationTools,
): Promise<IDataObject> {
	const listing = await loadInputsListing(this, itemIndex, tools);
	// Detect reads this listing: no second request.
	const choice = this.getNodeParameter(
		'deploymentType',
		0,
		defaultDeploymentChoice(this.getNode()),
	);
	const deployment = resolveDeployment(choice, listing);
	const inputs = offeredInputs(deployment, listing);
	const answer: IDataObject = {
		inputs: inputs.map((input) => input.name),
		input_details: inputs.map((input) => ({ ...input })),
	};
	// Only a flow says so: a crew's answer is what it always was.
	if (deployment === 'flow') answer.deployment = 'flow';
	return answer;
}
