/**
 * Cancelling an execution in the node tests, as n8n's Stop button does (aborting the signal
 * n8n-core hands the node), at the moment a test chooses; and the stops the service received.
 */
import type { CrewService } from '../crew-service';
import type { CrewWorkflowRun } from './crewWorkflow';

/** Ends a test that hangs well before jest's own timeout, with a message that says where. */
export const HANG_GUARD_MS = 20_000;

/** Runs the workflow and cancels its execution once `ready` holds (checked every 5 ms), or at the hang guard. */
export async function cancelWhen(
	ready: () => boolean,
	run: (signal: AbortSignal) => Promise<CrewWorkflowRun>,
): Promise<CrewWorkflowRun> {
	const controller = new AbortController();
	const watcher = setInterval(() => {
		if (ready()) controller.abort();
	}, 5);
	const guard = setTimeout(() => controller.abort(), HANG_GUARD_MS);
	try {
		return await run(controller.signal);
	} finally {
		clearInterval(watcher);
		clearTimeout(guard);
	}
}

/** How many stops the service received for each kickoff id. */
export function stopsByKickoff(service: CrewService): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const request of service.requests)
		if (request.route === 'stop' && request.kickoffId)
			counts[request.kickoffId] = (counts[request.kickoffId] ?? 0) + 1;
	return counts;
}
