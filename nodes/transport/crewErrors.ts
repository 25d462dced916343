import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { readMissingInputs, readServiceMessage } from './serviceMessage';
import type { CrewAnswer, HttpAnswer, NetworkFailure } from './index';
import { ADVICE, adviceFor } from './errorAdvice';
import type { CrewAction } from './errorAdvice';

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
