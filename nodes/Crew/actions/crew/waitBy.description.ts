import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_FIRST_PHASE_SECONDS, MAX_FIRST_PHASE_SECONDS } from '../../../waiting/callbackWait';

/** Kickoff and Wait's choice of how to learn that the crew ended. Polling is the behaviour of 0.1.0. */
export const waitByDescription: INodeProperties = {
	displayName: 'Wait By',
	name: 'waitBy',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Polling',
			value: 'polling',
			description: 'Read the status until every crew ends. The execution stays in memory (and holds a worker in queue mode) while the crews run.',
		},
		{
			name: 'Callback',
			value: 'callback',
			description: 'Start every item\'s crew, then park the execution once until the last crew calls n8n back. Nothing is held while the crews run; n8n must be reachable by the crew service.',
		},
	],
	default: 'polling',
	displayOptions: { show: { operation: ['kickoffAndWait'] } },
};

/** Kickoff and Wait options that only Wait By: Callback reads. */
export const waitByOptions: INodeProperties[] = [
	{
		displayName: 'First Phase (Seconds)',
		name: 'firstPhase',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_FIRST_PHASE_SECONDS },
		default: DEFAULT_FIRST_PHASE_SECONDS,
		description: 'Wait By: Callback only. How long to poll before parking the execution, so a crew that ends quickly is answered at once and cannot end before n8n has saved the execution as waiting.',
	},
];
