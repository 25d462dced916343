import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readKickoffBody, startCrew } from './startCrew';
import { deploymentOf } from './deployment';
import { readItemFiles } from '../files/itemFiles';
import { getCrewConnection } from '../transport';
import type { CrewContext } from '../transport';
import { toItemError } from '../itemResults/itemError';
import type { OperationTools } from '../itemResults/operationTools';
import { credentialSecrets, itemRequest, startOnce } from '../retryOnFail/triesMemory';
import type { RunMemory } from '../retryOnFail/earlierTries';
import { callbackHumanInputField, callbackStreamField, hashCallbackToken, newCallbackToken, signatureOf } from '../callbacksOut/resumeCallbacks';
import type { CallbackStart } from '../waiting/waitByCallback';

/**
 * One item's kickoff in Kickoff and Wait, for either wait: its crew started (or the one an
 * earlier try of the node started for the same request), or the item's error. With a resume
 * URL (Wait By: Callback) the kickoff asks the crew to call it, with a token of its own.
 */
export async function startItemKickoff(
	context: IExecuteFunctions,
	itemIndex: number,
	tools: OperationTools,
	run: { sender: CrewContext; memory: RunMemory; resumeUrl?: string },
): Promise<CallbackStart> {
	const node = context.getNode();
	try {
		const { resumeUrl } = run;
		if (resumeUrl !== undefined) refuseEventStream(context, itemIndex);
		const deployment = await deploymentOf(context, tools);
		const body = await readKickoffBody(context, itemIndex, deployment);
		const files = await readItemFiles(context, itemIndex);
		const connection = await getCrewConnection(context, itemIndex);
		if (tools.isCancelled()) throw new NodeOperationError(node, 'The execution was stopped before this crew was started', { itemIndex });
		// The request as the item asks for it, without this try's token: a crew an earlier try started keeps calling with its own.
		// The resume URL names the execution: a crew started for another one calls that one back.
		const request = itemRequest(context, itemIndex, connection.secret, resumeUrl);
		// The resume URL (n8n may sign it) and the crew's token are sent with the kickoff: a service answer that echoes them is not kept with them.
		const secrets = [...(await credentialSecrets(context, itemIndex)), ...(resumeUrl === undefined ? [] : [resumeUrl, signatureOf(resumeUrl)])];
		const started = await startOnce(run.memory, { node, itemIndex, request, secrets }, tools.now, async () => {
			if (resumeUrl === undefined) return await startCrew(context, connection, itemIndex, body, tools.sleep, files, run.sender);
			const token = newCallbackToken();
			secrets.push(token);
			const callback: IDataObject = { webhooks: callbackStreamField(resumeUrl, token, deployment), ...callbackHumanInputField(body, resumeUrl, deployment) };
			const crew = await startCrew(context, connection, itemIndex, { ...body, ...callback }, tools.sleep, files, run.sender);
			return { kickoffId: crew.kickoffId, tokenHash: hashCallbackToken(token) };
		});
		const kickoff = { itemIndex, kickoffId: started.kickoffId, startedAt: started.startedAt, seen: started.seen };
		if (resumeUrl === undefined) return { kind: 'started', kickoff };
		if (started.tokenHash === undefined) throw new NodeOperationError(node, 'The crew an earlier try started has no callback token remembered', { itemIndex });
		return { kind: 'started', kickoff, tokenHash: started.tokenHash };
	} catch (error) {
		return { kind: 'error', itemIndex, error: toItemError(node, error, itemIndex) };
	}
}

/** Wait By: Callback takes the crew's event stream for itself. */
function refuseEventStream(context: IExecuteFunctions, itemIndex: number): void {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (typeof options.eventStreamUrl === 'string' && options.eventStreamUrl.trim() !== '') {
		throw new NodeOperationError(context.getNode(), 'Event Stream cannot be set with Wait By: Callback', {
			itemIndex,
			description: 'Wait By: Callback uses the crew\'s event stream to be called back. Remove the Event Stream option, or set Wait By to Polling and stream events to a Crew Trigger.',
		});
	}
}
