import type { DisplayCondition, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { detectDeployment } from '../records/crewInputs';
import type { DeploymentChoice, DeploymentKind } from '../records/crewInputs';
import { loadInputsListing } from './inputsListing';
import type { OperationTools } from '../execution/operationTools';
// Node version 1.2 detects by default; workflows saved before keep treating the deployment as a
// crew.
import { DETECTING_VERSION } from '../versions/crewVersions';

/**
 * Operations whose behaviour depends on a crew or a flow: its inputs, its kickoff, its final state.
 */
const DEPLOYMENT_OPERATIONS = ['getInputs', 'getStatus', 'kickoff', 'kickoffAndWait'];

const deploymentOptions = [
	{
		name: 'Detect',
		value: 'detect',
		description:
			"Ask the deployment's inputs (GET /inputs): a listing with a state ID field and nothing required is a flow, anything else a crew",
	},
	{
		name: 'Crew',
		value: 'crew',
		description: "Inputs are the crew's prompt placeholders: text, all required",
	},
	{
		name: 'Flow',
		value: 'flow',
		description:
			"Inputs are the flow's state fields: optional, sent with their JSON types, without the state ID",
	},
];

function deploymentField(
	defaultChoice: DeploymentChoice,
	versions: Array<number | DisplayCondition>,
): INodeProperties {
	return {
		displayName: 'Deployment Type',
		name: 'deploymentType',
		type: 'options',
		noDataExpression: true,
		options: deploymentOptions,
		default: defaultChoice,
		description:
			"Whether the Base URL serves a crew or a flow. A flow's inputs are optional state fields sent with their types, its state ID is offered for Restore From State ID, and Wait By: Callback listens for its end.",
		displayOptions: {
			show: { resource: ['crew'], operation: DEPLOYMENT_OPERATIONS, '@version': versions },
		},
	};
}

/**
 * Detect for new nodes; Crew, the behaviour they were saved with, for nodes of versions 1 and 1.1.
 */
export const deploymentTypeFields: INodeProperties[] = [
	deploymentField('crew', [1, 1.1]),
	deploymentField('detect', [{ _cnd: { gte: DETECTING_VERSION } }]),
];

/**
 * The Deployment Type a node has when its parameters do not say (n8n fills the default of its
 * version).
 */
export function defaultDeploymentChoice(node: INode): DeploymentChoice {
	return node.typeVersion >= DETECTING_VERSION ? 'detect' : 'crew';
}

/** One detection per node run: every item of a run goes to the same deployment. */
const detections = new WeakMap<object, Promise<DeploymentKind>>();

/**
 * What the node talks to, by its Deployment Type; Detect reads `GET /inputs` once per
 * node run (a failure of that read is the item's error, as any read's would be).
 */
export async function deploymentOf(
	context: IExecuteFunctions,
	tools: Pick<OperationTools, 'sleep' | 'isCancelled'>,
): Promise<DeploymentKind> {
	const choice = context.getNodeParameter(
		'deploymentType',
		0,
		defaultDeploymentChoice(context.getNode()),
	) as DeploymentChoice;
	if (choice === 'crew' || choice === 'flow') return choice;
	let detection = detections.get(context);
	if (!detection) {
		detection = loadInputsListing(context, 0, tools).then(detectDeployment);
		detections.set(context, detection);
		// A failed read is not remembered: the next item tries again.
		detection.catch(() => detections.delete(context));
	}
	return await detection;
}
