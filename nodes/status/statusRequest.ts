import type { CrewAnswer, CrewConnection, CrewContext } from '../transport';
import { REQUEST_TIMEOUT_MS, sendCrewRequest } from '../transport';
import { StatusRouteMemory } from './statusRoute';

// Which status path each base URL answers, learned by every execution in this process.
const statusRoutes = new StatusRouteMemory();

/**
 * Reads one status record, at whichever status path the service has: see
 * statusRoute.ts for how the spelling is learned. When neither path has the
 * kickoff, the answer is the status route's own 404, which names it.
 */
export async function requestCrewStatus(
	context: CrewContext,
	connection: CrewConnection,
	kickoffId: string,
	timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<CrewAnswer> {
	return await statusRoutes.read(
		connection.baseUrl,
		kickoffId,
		async (path) => await sendCrewRequest(context, connection, { method: 'GET', path, timeoutMs }),
	);
}
