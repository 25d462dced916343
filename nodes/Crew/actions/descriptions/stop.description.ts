import type { INodeProperties } from 'n8n-workflow';

import type { StopSettings } from '../../../waiting/waitStops';
// From this node version on, a cancelled execution stops its crews unless the option says not to.
import { STOP_ON_CANCEL_VERSION } from '../../../versions/crewVersions';

/** The options of the operations that wait, about stopping the crews they give up on. */

export type OnTimeout = 'leaveRunning' | 'stopCrews';

export interface StopOptions {
	onTimeout?: OnTimeout;
	stopCrewsOnCancel?: boolean;
}

/**
 * What happens to the crews still running at the timeout: the same choice in every operation that
 * waits.
 */
export const onTimeoutField: INodeProperties = {
	displayName: 'On Timeout',
	name: 'onTimeout',
	type: 'options',
	options: [
		{
			name: 'Leave Crews Running',
			value: 'leaveRunning',
			description:
				'The items get an error with the kickoff ID; read the result later with Get Status',
		},
		{
			name: 'Stop Crews Still Running',
			value: 'stopCrews',
			description:
				'Stop every crew that has not ended, so it spends nothing more; the items say it was stopped',
		},
	],
	default: 'leaveRunning',
	description:
		'What happens to the crews still running when Timeout is reached. With Wait By: Callback this applies while the node watches the crews before the execution waits; once it waits, n8n runs no node code at the timeout: follow it with a Crew node with the Stop operation instead (see the advice of the timeout item).',
};

/**
 * Whether a cancelled execution stops the crews: on by default from the node version that brought
 * it to the operation.
 */
export const stopCrewsOnCancelField: INodeProperties = {
	displayName: 'Stop Crews When the Execution Is Stopped',
	name: 'stopCrewsOnCancel',
	type: 'boolean',
	default: true,
	description:
		"Whether stopping the execution (the Stop button, n8n's API, a worker in queue mode) also stops every crew this node started that has not ended. Kickoff and Wait nodes added before version 1.3 of this node leave them running unless this option is added and on; Resume offers it from version 1.4. An execution waiting for a callback runs no node code when it is stopped: stop its crews with the Stop operation.",
};

/** The two options of Kickoff and Wait that stop crews, for its Options collection. */
export const stopOptionFields: INodeProperties[] = [onTimeoutField, stopCrewsOnCancelField];

/** The settings by the options, and by the node's version where the cancel option is not set. */
export function readStopSettings(options: StopOptions, typeVersion: number): StopSettings {
	return {
		stopAtTimeout: options.onTimeout === 'stopCrews',
		stopOnCancel:
			typeof options.stopCrewsOnCancel === 'boolean'
				? options.stopCrewsOnCancel
				: typeVersion >= STOP_ON_CANCEL_VERSION,
	};
}
