import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { readMissingInputs, readServiceMessage } from './serviceMessage';
import type { CrewAnswer, HttpAnswer, NetworkFailure } from './index';

/** What the failed request was for: it decides which advice the user gets. */
export type CrewAction = 'getInputs' | 'kickoff' | 'getStatus' | 'resume' | 'stop';

export interface ErrorContext {
	action: CrewAction;
	itemIndex: number;
	kickoffId?: string;
	baseUrl?: string;
}

const ACTION_WORDS: Record<CrewAction, string> = {
	getInputs: "reading the crew's inputs",
	kickoff: 'starting the crew',
	getStatus: "reading the crew's status",
	resume: 'resuming the crew',
	stop: 'stopping the crew',
};

/** The status codes the advice distinguishes; 'serverError' is any 5xx, 'other' anything else. */
export type AdviceCode = 400 | 401 | 403 | 404 | 409 | 422 | 429 | 'serverError' | 'other';

const CHECK_TOKEN =
	"Check the bearer token in the Crew API credential. Copy the current token from the crew's Status tab in the dashboard: resetting a token there stops the old one at once.";
const EMPTY_TOKEN =
	"The request reached the service without a token: the Crew API credential's Bearer Token is empty. Paste the crew's token from its Status tab in the dashboard into the credential.";
const TOKEN_NOT_ALLOWED =
	"The token was accepted but may not do this. A User Bearer Token has limited permissions: use the crew's Bearer Token (organization level) from its Status tab.";
const CHECK_BASE_URL =
	"Check the Base URL in the Crew API credential: it must be this crew's own API address, as shown on its dashboard, with no path after it.";
const CHECK_KICKOFF_ID_FORMAT =
	'The service refused the kickoff ID. Give it exactly as a Kickoff returned it (kickoff_id, a UUID such as 97eba64f-958c-40a0-b61c-625fe635a3c0), without quotes, spaces or other text around it.';
const NOT_PAUSED =
	'Only a crew paused for human input can be resumed, and only with the ID of the task it waits on. Get Status shows the state and the task_id of a paused crew.';
const UNEXPECTED =
	'The service answered in a way the node does not expect. Check the Base URL and the token in the Crew API credential.';

/**
 * What to do, by operation and status code. The same code means different
 * things per request: a 422 on a kickoff is about the inputs, on a status read
 * about the kickoff ID, on a resume about the task and the paused state.
 * Get Status also stands for the reads while Kickoff and Wait waits, Kickoff
 * for its kickoffs.
 */
export const ADVICE: Readonly<Record<CrewAction, Readonly<Record<AdviceCode, string>>>> = {
	getInputs: {
		400: `The service refused the request for the crew's inputs. ${CHECK_BASE_URL}`,
		401: CHECK_TOKEN,
		403: TOKEN_NOT_ALLOWED,
		404: CHECK_BASE_URL,
		409: UNEXPECTED,
		422: `The service refused the request for the crew's inputs, which takes no parameters. ${CHECK_BASE_URL}`,
		429: 'The service is limiting requests. Wait a moment and run again.',
		serverError:
			"The service failed. Run again later, and contact the service's support if this persists.",
		other: UNEXPECTED,
	},
	kickoff: {
		400: 'The service rejected the format of the kickoff: every input must be a text value and Meta a JSON object. Check the Inputs and options of this node against Get Inputs.',
		401: CHECK_TOKEN,
		403: TOKEN_NOT_ALLOWED,
		404: CHECK_BASE_URL,
		409: UNEXPECTED,
		422: 'Some inputs the crew requires are missing or invalid. Get Inputs lists every input the crew expects.',
		429: 'The service is limiting requests. Wait and run again, or start fewer crews at once (Max Concurrent Kickoffs).',
		serverError:
			"The service failed. The crew may or may not have started: check the crew's executions in the dashboard before starting it again, and contact the service's support if this persists.",
		other: UNEXPECTED,
	},
	getStatus: {
		400: CHECK_KICKOFF_ID_FORMAT,
		401: CHECK_TOKEN,
		403: TOKEN_NOT_ALLOWED,
		404: "Check the kickoff ID (the kickoff_id a Kickoff returned) and that the credential's Base URL is the address of the crew that ran it: each crew knows only its own kickoffs.",
		409: UNEXPECTED,
		422: CHECK_KICKOFF_ID_FORMAT,
		429: 'The service is limiting requests. Read the status less often: raise the Poll Interval, or wait and run again.',
		serverError:
			"The service failed to read the status; the crew itself may still be running. Read it again later with this kickoff ID, and contact the service's support if this persists.",
		other: UNEXPECTED,
	},
	resume: {
		400: NOT_PAUSED,
		401: CHECK_TOKEN,
		403: TOKEN_NOT_ALLOWED,
		404: 'The service knows no execution with this kickoff ID. Give the kickoff_id of the paused crew, with the credential of the crew that ran it.',
		409: NOT_PAUSED,
		422: 'The service found the resume incomplete. Give the Kickoff ID of the paused crew and the Task ID it waits on; Get Status shows both for a crew paused for human input.',
		429: 'The service is limiting requests. Wait and run again; the crew stays paused until it is resumed.',
		serverError:
			"The service failed. The crew may or may not have been resumed: Get Status with this kickoff ID shows whether it is still paused. Contact the service's support if this persists.",
		other: UNEXPECTED,
	},
	stop: {
		400: 'The service refused to stop this run. Get Status with this kickoff ID shows its state.',
		401: CHECK_TOKEN,
		403: TOKEN_NOT_ALLOWED,
		404: "Check the kickoff ID (the kickoff_id a Kickoff returned) and that the credential's Base URL is the address of the crew that ran it: each crew knows only its own kickoffs.",
		409: 'The service refused to stop this run. Get Status with this kickoff ID shows its state.',
		422: CHECK_KICKOFF_ID_FORMAT,
		429: 'The service is limiting requests. Wait and run again; the crew keeps running until it is stopped.',
		serverError:
			"The service failed. The crew may or may not have been stopped: Get Status with this kickoff ID shows whether it still runs (its state is stopped once it has been). Contact the service's support if this persists.",
		other: UNEXPECTED,
	},
};

export function adviceCode(statusCode: number): AdviceCode {
	if (statusCode >= 500 && statusCode <= 599) return 'serverError';
	const known: AdviceCode[] = [400, 401, 403, 404, 409, 422, 429];
	return known.find((code) => code === statusCode) ?? 'other';
}

/**
 * For a kickoff's 422 about `inputs.id`: the deprecated way to restore a persisted flow, and the
 * option that replaced it.
 */
export const INPUTS_ID_ADVICE =
	"An input named id is read by the service as the state ID of a persisted flow, and must then be a UUID. To start from an earlier run's state, remove id from the inputs and set the Kickoff option Restore From State ID instead (the new run forks from that state under a fresh ID). An input named id that is not a state ID has to be renamed in the crew.";

/**
 * The advice for an HTTP answer; a kickoff's 422 that names the missing inputs says which to fill
 * in, one about `inputs.id` (the service's message names it) points to Restore From State ID.
 */
export function adviceFor(
	action: CrewAction,
	statusCode: number,
	missingInputs: readonly string[] = [],
	serviceMessage = '',
): string {
	// The live service's answer to a request with no Authorization header at all
	// (docs/development/service-api.md#errors).
	if (statusCode === 401 && /^not authenticated\.?$/i.test(serviceMessage.trim()))
		return EMPTY_TOKEN;
	if (action === 'kickoff' && statusCode === 422 && missingInputs.length > 0) {
		return `Give values for: ${missingInputs.join(', ')}. Get Inputs lists every input the crew expects.`;
	}
	if (action === 'kickoff' && statusCode === 422 && /\binputs\.id\b/.test(serviceMessage))
		return INPUTS_ID_ADVICE;
	return ADVICE[action][adviceCode(statusCode)];
}

/**
 * Builds the error from clean text only: the request options (and with them
 * the Authorization header) never reach it, and the service's words come from an
 * answer the transport gave with every secret of the request hidden. The message is
 * set again after construction because NodeApiError swaps any message that mentions
 * a network code (ECONNRESET, ...) for a generic sentence.
 */
function apiError(
	node: INode,
	message: string,
	description: string,
	context: ErrorContext,
	httpCode?: string,
): NodeApiError {
	const error = new NodeApiError(node, { message } as JsonObject, {
		message,
		description,
		httpCode,
		itemIndex: context.itemIndex,
	});
	error.message = message;
	error.description = description;
	return error;
}

/**
 * A NodeApiError for an HTTP answer that is not a success: code, the service's words, and what to
 * do.
 */
export function httpAnswerError(
	node: INode,
	answer: HttpAnswer,
	context: ErrorContext,
): NodeApiError {
	// The transport hid every secret before the words are shortened here: a token cut in two would
	// not be found whole.
	const serviceMessage = readServiceMessage(answer.body);
	const missingInputs =
		answer.statusCode === 422 && context.action === 'kickoff' ? readMissingInputs(answer.body) : [];
	let summary = `The crew service answered ${answer.statusCode} while ${ACTION_WORDS[context.action]}`;
	if (context.kickoffId !== undefined) summary += ` (kickoff ID ${context.kickoffId})`;
	if (missingInputs.length > 0) summary += `: missing inputs ${missingInputs.join(', ')}`;
	else if (serviceMessage) summary += `: ${serviceMessage}`;
	return apiError(
		node,
		summary,
		adviceFor(context.action, answer.statusCode, missingInputs, serviceMessage),
		context,
		String(answer.statusCode),
	);
}

/** A NodeApiError for a request that got no HTTP answer at all. */
export function networkFailureError(
	node: INode,
	failure: NetworkFailure,
	context: ErrorContext,
): NodeApiError {
	const where = context.baseUrl ? ` at ${context.baseUrl}` : '';
	let summary: string;
	let advice: string;
	if (
		failure.code === 'ECONNREFUSED' ||
		failure.code === 'ENOTFOUND' ||
		failure.code === 'EAI_AGAIN'
	) {
		summary = `Could not connect to the crew service${where} (${failure.code})`;
		advice =
			'Check the Base URL in the Crew API credential, and that the crew is deployed and reachable from n8n.';
	} else if (failure.code === 'ETIMEDOUT' || failure.code === 'ECONNABORTED') {
		summary = `The crew service${where} did not answer in time while ${ACTION_WORDS[context.action]}`;
		advice = 'The service may be overloaded or unreachable. Run again later.';
	} else {
		summary = `The connection to the crew service${where} failed while ${ACTION_WORDS[context.action]} (${failure.code}: ${failure.message})`;
		advice = 'The network or the service dropped the request. Run again later.';
	}
	if (context.action === 'resume') {
		advice =
			'The request may have reached the service, so the crew may or may not have been resumed; it was not sent again. Get Status with this kickoff ID shows whether it is still paused.';
	}
	if (context.action === 'stop') {
		advice =
			'The request may have reached the service, so the crew may or may not have been stopped; it was not sent again. Get Status with this kickoff ID shows whether it still runs; a Stop sent again is harmless (a run that has ended answers as already ended).';
	}
	if (context.action === 'kickoff') {
		advice =
			"The request may have reached the service, so the crew may or may not have started; it was not sent again, because a second kickoff starts a second run. Check the crew's executions in the dashboard before starting it again.";
	}
	if (
		context.action === 'kickoff' &&
		(failure.code === 'ETIMEDOUT' || failure.code === 'ECONNABORTED')
	) {
		// A cold deployment answers its first call slowly
		// (docs/development/service-api.md#base-url-and-authentication): the run may well be under way.
		summary = `The crew service${where} did not answer the kickoff in time; the crew may have started`;
		advice =
			"The kickoff was not sent again, because a second kickoff starts a second run. Before running again, check whether it started: the crew's executions in the dashboard (or Get Status, with a kickoff ID a Crew Trigger received). A deployment that was idle can take minutes to answer its first call; raise Kickoff Timeout in this node's options if this happens often.";
	}
	if (context.kickoffId !== undefined) summary += ` (kickoff ID ${context.kickoffId})`;
	return apiError(node, summary, advice, context);
}

export function crewAnswerError(
	node: INode,
	answer: CrewAnswer,
	context: ErrorContext,
): NodeApiError {
	return answer.kind === 'http'
		? httpAnswerError(node, answer, context)
		: networkFailureError(node, answer, context);
}

/**
 * Advice for a kickoff ID the service answers NOT FOUND for: a wrong ID or Base URL, or (live) a
 * run waiting for a human.
 */
export const NOT_FOUND_ADVICE =
	"Check the kickoff ID (the kickoff_id a Kickoff returned) and that the credential's Base URL is the address of the crew that ran it: each crew knows only its own kickoffs. The hosted service also answers NOT FOUND for a run that waits for human input: if this run was running, Resume it or look at it in the crew's dashboard.";

/**
 * The live service's 200 `NOT FOUND` (docs/development/service-api.md#not-found-is-a-200) for Get
 * Status: not found, the kickoff ID and the Base URL to check, as for a 404.
 */
export function notFoundStatusError(
	node: INode,
	context: ErrorContext & { kickoffId: string },
): NodeApiError {
	const where = context.baseUrl ? ` at ${context.baseUrl}` : '';
	const summary = `Not found: the crew service${where} knows no run with kickoff ID ${context.kickoffId} (it answered NOT FOUND)`;
	return apiError(node, summary, NOT_FOUND_ADVICE, context, '404');
}

/** A wait's end for a run never seen: NOT FOUND more often than a registration takes. */
export function notFoundError(
	node: INode,
	kickoffId: string,
	itemIndex: number,
	reads: number,
): NodeOperationError {
	return new NodeOperationError(
		node,
		`The crew service knows no run with this kickoff ID at this Base URL (kickoff ID ${kickoffId})`,
		{
			itemIndex,
			description: `It answered NOT FOUND ${reads} times since the kickoff and never showed the run. ${NOT_FOUND_ADVICE}`,
		},
	);
}

/**
 * The stop route's own 404: the kickoff ID is not one this deployment knows, so nothing was
 * stopped.
 */
export function stopNotFoundError(
	node: INode,
	context: ErrorContext & { kickoffId: string; askedForMs?: number },
	serviceMessage?: string,
): NodeApiError {
	const where = context.baseUrl ? ` at ${context.baseUrl}` : '';
	const said = serviceMessage ? ` (it answered 404: ${serviceMessage})` : ' (it answered 404)';
	// The Stop operation asked again for the registration window (unregisteredStop.ts) before this.
	const asked = context.askedForMs
		? `; asked again for ${Math.round(context.askedForMs / 1000)} seconds, longer than a new run takes to be known`
		: '';
	const summary = `Not found: the crew service${where} knows no run with kickoff ID ${context.kickoffId}, so nothing was stopped${said}${asked}`;
	return apiError(node, summary, ADVICE.stop[404], context, '404');
}

/**
 * FastAPI's router's bare 404 or a 405 for `POST /stop/...`: the deployment offers no
 * stop endpoint at all, whatever the kickoff ID, so the user is sent where a run can be stopped.
 */
export function stopUnavailableError(
	node: INode,
	context: ErrorContext & { kickoffId: string },
	statusCode: number,
): NodeApiError {
	const where = context.baseUrl ? ` at ${context.baseUrl}` : '';
	const summary = `This deployment cannot be stopped through its API: the crew service${where} has no stop endpoint (it answered ${statusCode} to POST /stop) (kickoff ID ${context.kickoffId})`;
	const advice =
		"The run was not stopped and keeps running. Stop it in the crew's dashboard on the platform (its executions list). Stopping through the API needs a deployment that offers POST /stop/{kickoff_id}; Get Status with this kickoff ID shows whether the run still goes on.";
	return apiError(node, summary, advice, context, String(statusCode));
}
