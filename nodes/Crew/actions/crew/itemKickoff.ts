import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readKickoffBody, startCrew } from '../../../kickoff/startCrew';
import { deploymentOf } from '../../../kickoff/deployment';
import { readItemFiles } from '../../../files/itemFiles';
import { getCrewConnection } from '../../../transport';
import type { CrewContext } from '../../../transport';
import { toItemError } from '../../../itemResults/itemError';
import type { OperationTools } from '../../../execution/operationTools';
import type { Tries } from '../../../retryOnFail/triesMemory';
import {
	callbackHumanInputField,
	callbackStreamField,
	hashCallbackToken,
	newCallbackToken,
} from '../../../callbacksOut/resumeCallbacks';
import type { CallbackStart } from '../../../waiting/waitByCallback';

/**
 * One item's kickoff in Kickoff and Wait, for either wait: its crew started (or the one an
 * earlier try of the node started for the same request), or the item's error. With a resume
 * URL (Wait By: Callback) the kickoff asks the crew to call it, with a token of its own.
 */
export async function startItemKickoff(
	context: IExecuteFunctions,
	itemIndex: number,
	tools: OperationTools,
	run: { sender: CrewContext; tries: Pick<Tries, 'send'>; resumeUrl?: string },
): Promise<CallbackStart> {
	const node = context.getNode();
	try {
		const { resumeUrl } = run;
		if (resumeUrl !== undefined) refuseEventStream(context, itemIndex);
		const deployment = await deploymentOf(context, tools);
		const body = await readKickoffBody(context, itemIndex, deployment);
		const files = await readItemFiles(context, itemIndex);
		const connection = await getCrewConnection(context, itemIndex);
		if (tools.isCancelled())
			throw new NodeOperationError(node, 'The execution was stopped before this crew was started', {
				itemIndex,
			});
		// The resume URL (n8n may sign it) and the crew's token go with the kickoff: the transport
		// hides both in its answer.
		const token = resumeUrl === undefined ? undefined : newCallbackToken();
		const callback: IDataObject =
			resumeUrl === undefined || token === undefined
				? {}
				: {
						webhooks: callbackStreamField(resumeUrl, token, deployment),
						...callbackHumanInputField(body, resumeUrl, deployment),
					};
		const crew = token === undefined ? {} : { tokenHash: hashCallbackToken(token) };
		const started = await run.tries.send(
			itemIndex,
			crew,
			async () =>
				await startCrew(
					context,
					connection,
					itemIndex,
					{ ...body, ...callback },
					tools.sleep,
					files,
					run.sender,
				),
		);
		const kickoff = {
			itemIndex,
			kickoffId: started.kickoffId,
			startedAt: started.startedAt,
			seen: started.seen,
		};
		return resumeUrl === undefined
			? { kind: 'started', kickoff }
			: { kind: 'started', kickoff, tokenHash: started.tokenHash };
	} catch (error) {
		return { kind: 'error', itemIndex, error: toItemError(node, error, itemIndex) };
	}
}

/** Wait By: Callback takes the crew's event stream for itself. */
function refuseEventStream(context: IExecuteFunctions, itemIndex: number): void {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (typeof options.eventStreamUrl === 'string' && options.eventStreamUrl.trim() !== '') {
		throw new NodeOperationError(
			context.getNode(),
			'Event Stream cannot be set with Wait By: Callback',
			{
				itemIndex,
				description:
					"Wait By: Callback uses the crew's event stream to be called back. Remove the Event Stream option, or set Wait By to Polling and stream events to a Crew Trigger.",
			},
		);
	}
}
