import type { IExecuteFunctions } from 'n8n-workflow';

import type { Sleep } from '../execution/cancellableSleep';
import { sendCrewRequest } from '../transport/index';
import type { CrewAnswer, CrewConnection, CrewContext } from '../transport/index';
import { postAtMostOnce } from '../transport/postOnce';

/**
 * A stop is one small write on the service: long enough for a slow proxy, short
 * enough that the stops sent as an execution is cancelled end within seconds.
 */
export const STOP_REQUEST_TIMEOUT_MS = 10_000;

/** `POST /stop/{kickoff_id}`: the id encoded, so it cannot reach another path. */
export function stopPath(kickoffId: string): string {
	return `/stop/${encodeURIComponent(kickoffId)}`;
}

/**
 * The Stop operation's request: no body (as documented), sent again only after a
 * 429, which says it was not processed (transport/postOnce.ts).
 */
export async function requestStop(
	context: CrewContext,
	connection: CrewConnection,
	kickoffId: string,
	sleep: Sleep,
): Promise<CrewAnswer> {
	return await postAtMostOnce(
		context,
		connection,
		stopPath(kickoffId),
		undefined,
		sleep,
		STOP_REQUEST_TIMEOUT_MS,
	);
}

/** One stop of a crew a wait gives up on: one attempt, nothing sent twice, bounded in time. */
export async function sendStopOnce(
	context: CrewContext,
	connection: CrewConnection,
	kickoffId: string,
): Promise<CrewAnswer> {
	return await sendCrewRequest(context, connection, {
		method: 'POST',
		path: stopPath(kickoffId),
		timeoutMs: STOP_REQUEST_TIMEOUT_MS,
	});
}

/**
 * The node's context without the execution's cancel signal, for the stops sent
 * because the execution was cancelled. n8n-core's httpRequestWithAuthentication
 * puts that signal on every request made through a context that has one
 * (`if ('getExecutionCancelSignal' in this) requestOptions.abortSignal = ...`:
 * n8n-core request-helpers/authentication.js in 2.x, request-helper-functions.js
 * in 1.x), so once the execution is cancelled such a request is aborted before
 * it is sent. These are the same helper, credential and node, called with a
 * `this` that offers what the helper reads (getCredentials, getNode, helpers,
 * logger) and no cancel signal.
 */
export function outlivingCancel(context: IExecuteFunctions): IExecuteFunctions {
	const detached: Pick<IExecuteFunctions, 'getCredentials' | 'getNode' | 'helpers' | 'logger'> = {
		getCredentials: context.getCredentials.bind(context),
		getNode: context.getNode.bind(context),
		helpers: context.helpers,
		logger: context.logger,
	};
	return detached as IExecuteFunctions;
}
