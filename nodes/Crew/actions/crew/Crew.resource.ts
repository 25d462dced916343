import type { INodeProperties } from 'n8n-workflow';

import { deploymentTypeFields } from '../../../kickoff/deployment';
import { filesFields } from '../descriptions/files.description';
import { inputsFields } from '../descriptions/inputs.description';
import * as getInputs from './getInputs.operation';
import * as getStatus from './getStatus.operation';
import * as kickoff from './kickoff.operation';
import * as kickoffAndWait from './kickoffAndWait.operation';
import * as resume from './resume.operation';
import * as stop from './stop.operation';
import { operationMenu } from '../common/operationMenu';
import type { CrewOperationModule } from '../common/operationModule';
import type { CrewOperation } from '../common/node.type';

/** The Crew resource: its operation picker and each operation's fields. */
export const description: INodeProperties[] = [
	operationMenu(
		'crew',
		[
			{
				name: 'Get Inputs',
				value: 'getInputs',
				description: 'List the inputs the crew expects',
				action: 'Get the inputs of a crew',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Read the state and, once finished, the result of a kickoff',
				action: 'Get the status of a kickoff',
			},
			{
				name: 'Kickoff',
				value: 'kickoff',
				description: 'Start the crew and return its kickoff ID at once',
				action: 'Kick off a crew',
			},
			{
				name: 'Kickoff and Wait',
				value: 'kickoffAndWait',
				description: 'Start the crew for every item and wait for the results',
				action: 'Kick off a crew and wait for the result',
			},
			{
				name: 'Resume',
				value: 'resume',
				description: 'Approve or reject the task a crew paused on for human input',
				action: 'Resume a crew paused for human input',
			},
			{
				name: 'Stop',
				value: 'stop',
				description: 'Stop a running crew or flow, so it spends nothing more',
				action: 'Stop a running crew',
			},
		],
		'kickoffAndWait',
	),
	...deploymentTypeFields,
	...getInputs.description,
	...getStatus.description,
	...inputsFields,
	...filesFields,
	...kickoff.description,
	...kickoffAndWait.description,
	...resume.description,
	...stop.description,
];

/** Each operation by its value, for the router to look up. */
export const operations = {
	getInputs,
	getStatus,
	kickoff,
	kickoffAndWait,
	resume,
	stop,
} satisfies Partial<Record<CrewOperation, CrewOperationModule>>;
