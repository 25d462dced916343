import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readStopAnswer } from '../../../stop/stopAnswer';
import {
	crewAnswerError,
	stopNotFoundError,
	stopUnavailableError,
} from '../../../transport/crewErrors';
import { readServiceMessage } from '../../../transport/serviceMessage';
import { requestStop } from '../../../stop/stopRun';
import { kickoffIdField, runOfItem } from '../common/kickoffId';
import type { OperationTools } from '../../../execution/operationTools';
import { nextStopRetry } from '../../../stop/unregisteredStop';

export const description: INodeProperties[] = [kickoffIdField('stop')];

/**
 * Stops one run: `POST /stop/{kickoff_id}`. A run that had already ended is an
 * answer, not an error: the workflow wanted it not to run, and it does not. A 404
 * "Execution not found" is asked again for the registration window from that first
 * 404 (unregisteredStop.ts): a Stop right after a Kickoff reaches a run the service
 * has not registered yet, and one stop would leave it running. Only then is it the
 * not-found error. A deployment without the route (the bare 404) is told at once.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	tools: OperationTools,
): Promise<IDataObject> {
	const { kickoffId, connection } = await runOfItem(this, itemIndex, 'stop');
	let answer = await requestStop(this, connection, kickoffId, tools.sleep);
	const firstNotFoundAt = tools.now();
	let askedForMs: number | undefined;
	for (
		let attempt = 1;
		answer.kind === 'http' && readStopAnswer(answer.statusCode, answer.body).kind === 'unknownRun';
		attempt++
	) {
		const pause = nextStopRetry(attempt, firstNotFoundAt, tools.now());
		if (pause === undefined) askedForMs = tools.now() - firstNotFoundAt;
		if (pause === undefined || tools.isCancelled()) break;
		await tools.sleep(pause);
		answer = await requestStop(this, connection, kickoffId, tools.sleep);
	}
	const context = { action: 'stop' as const, itemIndex, kickoffId, baseUrl: connection.baseUrl };
	if (answer.kind !== 'http') throw crewAnswerError(this.getNode(), answer, context);
	const verdict = readStopAnswer(answer.statusCode, answer.body);
	switch (verdict.kind) {
		case 'stopped':
			return { kickoff_id: kickoffId, state: 'stopped', already_ended: false };
		case 'alreadyEnded':
			return {
				kickoff_id: kickoffId,
				state: verdict.state,
				already_ended: true,
				service_state: verdict.serviceState,
				message: `The run had already ended (${verdict.serviceState}), so there was nothing to stop. Get Status with this kickoff ID gives its record.`,
			};
		case 'unknownRun':
			throw stopNotFoundError(
				this.getNode(),
				{ ...context, askedForMs },
				readServiceMessage(answer.body),
			);
		case 'noRoute':
			throw stopUnavailableError(this.getNode(), context, answer.statusCode);
		case 'refused':
			throw crewAnswerError(this.getNode(), answer, context);
	}
}
