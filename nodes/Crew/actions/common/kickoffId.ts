import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { CrewOperation } from './node.type';
import { getCrewConnection } from '../../../transport';
import type { CrewConnection } from '../../../transport';

/** The operations that name a run by its kickoff ID. */
export type KickoffIdOperation = Extract<CrewOperation, 'getStatus' | 'resume' | 'stop'>;

const RUN_TO_FOLLOW =
	'The kickoff_id a Kickoff returned. By default the kickoff_id of the incoming item: after a Resume, the resumed run.';

/**
 * Where a paused crew's kickoff_id and task_id come from: what Resume says when either is empty.
 */
export const PAUSED_CREW_IDS_ADVICE =
	"The Crew Trigger's Human Input Requested item, Get Status, or the output of Kickoff and Wait gives the kickoff_id and the task_id of a crew paused for human input.";

/** What the field says on each operation, and what to do when it is empty. */
const wording: Record<KickoffIdOperation, { description: string; whenEmpty: string }> = {
	getStatus: {
		description: RUN_TO_FOLLOW,
		whenEmpty:
			'Set Kickoff ID to the kickoff_id a Kickoff returned, e.g. with an expression like {{ $json.kickoff_id }}.',
	},
	resume: {
		description: RUN_TO_FOLLOW,
		whenEmpty: PAUSED_CREW_IDS_ADVICE,
	},
	stop: {
		description:
			'The kickoff_id of the run to stop, as a Kickoff returned it. By default the kickoff_id of the incoming item.',
		whenEmpty:
			'Set Kickoff ID to the kickoff_id of the run to stop, e.g. with an expression like {{ $json.kickoff_id }}.',
	},
};

/**
 * The Kickoff ID field of one operation: the same parameter name everywhere, so a value survives a
 * change of operation.
 */
export function kickoffIdField(operation: KickoffIdOperation): INodeProperties {
	return {
		displayName: 'Kickoff ID',
		name: 'kickoffId',
		type: 'string',
		// What Kickoff, Kickoff and Wait (its items and error items), Resume (the run to follow) and
		// the Crew Trigger's items call it.
		default: '={{ $json.kickoff_id }}',
		required: true,
		placeholder: 'e.g. 97eba64f-958c-40a0-b61c-625fe635a3c0',
		description: wording[operation].description,
		displayOptions: { show: { operation: [operation] } },
	};
}

/** The item's kickoff ID, trimmed; an empty one is the item's error, before any request. */
export function readKickoffId(
	context: IExecuteFunctions,
	itemIndex: number,
	operation: KickoffIdOperation,
): string {
	const kickoffId = String(context.getNodeParameter('kickoffId', itemIndex, '') ?? '').trim();
	if (kickoffId === '') {
		throw new NodeOperationError(context.getNode(), 'Kickoff ID is empty', {
			itemIndex,
			description: wording[operation].whenEmpty,
		});
	}
	return kickoffId;
}

/** The run an item names (readKickoffId) and the connection to the deployment that runs it. */
export async function runOfItem(
	context: IExecuteFunctions,
	itemIndex: number,
	operation: KickoffIdOperation,
): Promise<{ kickoffId: string; connection: CrewConnection }> {
	const kickoffId = readKickoffId(context, itemIndex, operation);
	return { kickoffId, connection: await getCrewConnection(context, itemIndex) };
}
