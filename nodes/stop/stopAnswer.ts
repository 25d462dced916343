import { readCrewState } from '../status/crewStatus';
import type { CrewState } from '../status/crewStatus';
import { isPlainObject } from '../records/plainObject';
import { isSuccessCode } from '../transport/answers';

/**
 * What an answer to `POST /stop/{kickoff_id}` means
 * (docs/development/service-api.md#stopping-a-run; documented, never seen answered live, so every
 * answer is read defensively):
 * - `stopped`: any 2xx (documented: 200 `{"status": "stopped", "kickoffId": …}`).
 * - `alreadyEnded`: the 400 `Cannot stop execution. Current state: SUCCESS` (`FAILURE`, `REVOKED`):
 *   the run had ended; its state as the node names it.
 * - `unknownRun`: the route's own 404, `{"error": "Execution not found", …}`.
 * - `noRoute`: FastAPI's bare 404 `{"detail": "Not Found"}` or a 405: the deployment has no stop
 *   route at all, whatever the kickoff id.
 * - `refused`: anything else (401, 429, 5xx, a 400 that names no ended state): the caller reports
 *   the HTTP answer as for any other request.
 */
export type StopVerdict =
	| { kind: 'stopped' }
	| { kind: 'alreadyEnded'; state: EndedState; serviceState: string }
	| { kind: 'unknownRun' }
	| { kind: 'noRoute' }
	| { kind: 'refused' };

/** The states a run that cannot be stopped any more is in. */
export type EndedState = Extract<CrewState, 'completed' | 'failed' | 'stopped'>;

const CURRENT_STATE = /current state:\s*"?([A-Za-z][A-Za-z _-]*[A-Za-z])/i;

function texts(body: unknown): string[] {
	if (typeof body === 'string') return [body];
	if (!isPlainObject(body)) return [];
	return [body.detail, body.message, body.error].filter(
		(value): value is string => typeof value === 'string',
	);
}

/** The state word a refusal names ("Current state: SUCCESS"), when it names one. */
export function readCurrentState(body: unknown): string | undefined {
	for (const text of texts(body)) {
		const match = CURRENT_STATE.exec(text);
		if (match) return match[1].trim();
	}
	return undefined;
}

/** FastAPI's router's own 404, naming nothing: the path does not exist on this deployment. */
export function isBareRouteNotFound(body: unknown): boolean {
	return (
		isPlainObject(body) &&
		Object.keys(body).length === 1 &&
		typeof body.detail === 'string' &&
		body.detail.trim().toLowerCase() === 'not found'
	);
}

export function readStopAnswer(statusCode: number, body: unknown): StopVerdict {
	if (isSuccessCode(statusCode)) return { kind: 'stopped' };
	if (statusCode === 405) return { kind: 'noRoute' };
	if (statusCode === 404)
		return isBareRouteNotFound(body) ? { kind: 'noRoute' } : { kind: 'unknownRun' };
	if (statusCode === 400 || statusCode === 409) {
		const serviceState = readCurrentState(body);
		const state = serviceState === undefined ? undefined : readCrewState({ state: serviceState });
		// Only an ended state makes the refusal an answer; "Current state: RUNNING" would be a service
		// fault.
		if (
			serviceState !== undefined &&
			(state === 'completed' || state === 'failed' || state === 'stopped')
		)
			return { kind: 'alreadyEnded', state, serviceState };
	}
	return { kind: 'refused' };
}

/** What a stop the node sent by itself (at a timeout, or as the execution was cancelled) did. */
export type StopResult =
	| { kind: 'stopped' }
	| { kind: 'ended'; state: EndedState }
	| { kind: 'notStopped'; reason: string };

/**
 * A stop's HTTP answer as a wait reports it; `serviceMessage` is the service's own words, already
 * cleaned.
 */
export function stopResultOf(
	statusCode: number,
	body: unknown,
	serviceMessage?: string,
): StopResult {
	const verdict = readStopAnswer(statusCode, body);
	switch (verdict.kind) {
		case 'stopped':
			return { kind: 'stopped' };
		case 'alreadyEnded':
			return { kind: 'ended', state: verdict.state };
		case 'unknownRun':
			return {
				kind: 'notStopped',
				reason: 'the crew service knows no run with this kickoff ID (404)',
			};
		case 'noRoute':
			return {
				kind: 'notStopped',
				reason: `this deployment cannot be stopped through its API (it answered ${statusCode} to POST /stop); stop it in the crew's dashboard`,
			};
		case 'refused':
			return {
				kind: 'notStopped',
				reason: `the crew service answered ${statusCode}${serviceMessage ? `: ${serviceMessage}` : ''}`,
			};
	}
}
