import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { getCrewConnection } from '../../../transport';
import type { Tries } from '../../../retryOnFail/triesMemory';
import type { OperationTools } from '../../../execution/operationTools';
import type { ItemOutcome } from '../../../itemResults/outputItems';
import { batchFailure } from '../../../waiting/startedCrews';
import { kickoffSender } from '../../../waiting/waitStops';
import type { StopSettings } from '../../../waiting/waitStops';
import { readStopSettings } from '../descriptions/stop.description';
import type { StopOptions } from '../descriptions/stop.description';
import { HUMAN_IN_THE_LOOP_VERSION, RESUME_STOPS_VERSION } from '../../../versions/crewVersions';
import { sendResumes } from './itemResume';
import { readWaitPlan, waitAsPlanned } from './waitPlan';
import { triedBatch } from '../common/triedBatch';

export { description } from './resume.description';

/**
 * What Resume's wait stops, by the options and the node's version: nothing before 1.4, as when
 * saved (tested directly).
 */
export function resumeStopSettings(options: StopOptions, typeVersion: number): StopSettings {
	if (typeVersion < RESUME_STOPS_VERSION) return { stopAtTimeout: false, stopOnCancel: false };
	return readStopSettings(options, typeVersion);
}

/**
 * How Wait for the Resumed Run waits: Resume nodes before version 1.5 poll, as they did when saved.
 */
export function resumeWaitBy(waitBy: unknown, typeVersion: number): 'polling' | 'callback' {
	return typeVersion >= HUMAN_IN_THE_LOOP_VERSION && waitBy === 'callback' ? 'callback' : 'polling';
}

/**
 * Continues crews paused for human input, approving or rejecting the paused task:
 * each item's resume on its own, or with Wait for the Resumed Run, all of them
 * resumed and then waited on together.
 */
export const executeBatch = triedBatch('resume', async (context, itemCount, tools, tries) => {
	if (context.getNodeParameter('waitForResumedRun', 0, false) === true)
		return await resumeAndWait(context, itemCount, tools, tries);
	const results = await sendResumes(context, itemCount, tools, {
		sender: context,
		tries,
		check: () => undefined,
		failed: async (error) => error,
	});
	return results.map((result) =>
		result.kind === 'started' ? { json: result.json ?? {} } : { error: result.error },
	);
});

/**
 * Wait for the Resumed Run: resumes every item in order, then waits on all the resumed
 * runs together with the waiting engine (nodes/waiting/), exactly as Kickoff and Wait
 * waits on its crews: by polling (one deadline, the same status reading and item
 * outcomes and, from version 1.4, the same stops on cancel and at the timeout), or from
 * version 1.5 by callback (the execution parked until the resumed runs call back).
 */
async function resumeAndWait(
	context: IExecuteFunctions,
	itemCount: number,
	tools: OperationTools,
	tries: Tries,
): Promise<ItemOutcome[]> {
	const { typeVersion } = context.getNode();
	const plan = readWaitPlan(context, itemCount, tools, {
		byCallback:
			resumeWaitBy(context.getNodeParameter('waitBy', 0, 'polling'), typeVersion) === 'callback',
		stopping: (options) => resumeStopSettings(options, typeVersion),
	});
	if ('outcomes' in plan) return plan.outcomes;
	const { stopping, resumeUrl } = plan;
	const results = await sendResumes(context, itemCount, tools, {
		// As Kickoff and Wait's kickoffs: a resume in flight at the cancel is let finish, so that the
		// run it starts is known and stopped.
		sender: kickoffSender(context, stopping),
		tries,
		check: (itemIndex) => {
			// So no resume goes out after the cancel; before 1.4 the cancel aborts it (the node's own
			// context), as it always did.
			if (typeVersion >= RESUME_STOPS_VERSION && tools.isCancelled()) {
				throw new NodeOperationError(
					context.getNode(),
					'The execution was stopped before this crew was resumed',
					{ itemIndex },
				);
			}
		},
		failed: async (error, running) => {
			// As for a kickoff: a cancel stops the runs already resumed; otherwise the error says which
			// they are.
			const connection =
				running.length > 0 && stopping.stopOnCancel
					? await getCrewConnection(context, 0)
					: undefined;
			return await batchFailure(context, error, running, connection, stopping, tools.isCancelled);
		},
		resumeUrl,
	});
	return await waitAsPlanned(context, results, plan, {}, tools, tries);
}
