import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { readMissingInputs, readServiceMessage } from './serviceMessage';
import type { CrewAnswer, HttpAnswer, NetworkFailure } from './index';

/** What the failed request was for: it decides which advice the user gets. */
export type CrewAction = 'getInputs' | 'kickoff' | 'getStatus' | 'resume';

export interface ErrorContext {
	action: CrewAction;
	itemIndex: number;
	kickoffId?: string;
	/** The credential's token, so that no text the service sent can carry it into an error. */
	secret?: string;
	baseUrl?: string;
}

/** Replaces every occurrence of the secret, e.g. in a debugging proxy's page that echoes headers. */
export function scrubSecret(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	return text.split(secret).join('[token hidden]');
}

const ACTION_WORDS: Record<CrewAction, string> = {
	getInputs: 'reading the crew\'s inputs',
	kickoff: 'starting the crew',
	getStatus: 'reading the crew\'s status',
	resume: 'resuming the crew',
};

function adviceFor(answer: HttpAnswer, context: ErrorContext, missingInputs: string[]): string {
	const { statusCode } = answer;
	if (context.action === 'resume' && (statusCode === 400 || statusCode === 409)) {
		return 'Only a crew paused for human input can be resumed, with the ID of the task it waits on. Get Status shows the state and the task_id of a paused crew.';
	}
	if (statusCode === 400) {
		return 'The service rejected the format of the inputs. Every input must be a text value; check the Inputs of this node against Get Inputs.';
	}
	if (statusCode === 401 || statusCode === 403) {
		return 'Check the bearer token in the Crew API credential. Copy the current token from the crew\'s Status tab in the dashboard: resetting a token there stops the old one at once.';
	}
	if (statusCode === 404) {
		return context.action === 'getStatus' || context.action === 'resume'
			? 'Check the kickoff ID (it is the kickoff_id a Kickoff returned) and that the credential\'s Base URL is the address of the crew that ran it.'
			: 'Check the Base URL in the Crew API credential: it must be this crew\'s own API address, as shown on its dashboard.';
	}
	if (statusCode === 422) {
		return missingInputs.length > 0
			? `Give values for: ${missingInputs.join(', ')}. Get Inputs lists every input the crew expects.`
			: 'Some inputs the crew requires are missing or invalid. Get Inputs lists every input the crew expects.';
	}
	if (statusCode === 429) {
		return 'The service is limiting requests. Wait and run again, or start fewer crews at once.';
	}
	if (statusCode >= 500 && context.action === 'kickoff') {
		return 'The service failed. The crew may or may not have started: check the crew\'s executions in the dashboard before starting it again, and contact the service\'s support if this persists.';
	}
	if (statusCode >= 500 && context.action === 'resume') {
		return 'The service failed. The crew may or may not have been resumed: Get Status with this kickoff ID shows whether it is still paused. Contact the service\'s support if this persists.';
	}
	if (statusCode >= 500) {
		return 'The service failed. Run again later, and contact the service\'s support if this persists.';
	}
	return 'The service answered in a way the node does not expect. Check the Base URL and the token in the Crew API credential.';
}

/**
 * Builds the error from clean text only: the request options (and with them
 * the Authorization header) never reach it. The message is set again after
 * construction because NodeApiError swaps any message that mentions a network
 * code (ECONNRESET, ...) for a generic sentence.
 */
function apiError(node: INode, summary: string, advice: string, context: ErrorContext, httpCode?: string): NodeApiError {
	const message = scrubSecret(summary, context.secret);
	const description = scrubSecret(advice, context.secret);
	const error = new NodeApiError(node, { message } as JsonObject, { message, description, httpCode, itemIndex: context.itemIndex });
	error.message = message;
	error.description = description;
	return error;
}

/** A NodeApiError for an HTTP answer that is not a success: code, the service's words, and what to do. */
export function httpAnswerError(node: INode, answer: HttpAnswer, context: ErrorContext): NodeApiError {
	const serviceMessage = readServiceMessage(answer.body);
	const missingInputs = answer.statusCode === 422 ? readMissingInputs(answer.body) : [];
	let summary = `The crew service answered ${answer.statusCode} while ${ACTION_WORDS[context.action]}`;
	if (context.kickoffId !== undefined) summary += ` (kickoff ID ${context.kickoffId})`;
	if (missingInputs.length > 0) summary += `: missing inputs ${missingInputs.join(', ')}`;
	else if (serviceMessage) summary += `: ${serviceMessage}`;
	return apiError(node, summary, adviceFor(answer, context, missingInputs), context, String(answer.statusCode));
}

/** A NodeApiError for a request that got no HTTP answer at all. */
export function networkFailureError(node: INode, failure: NetworkFailure, context: ErrorContext): NodeApiError {
	const where = context.baseUrl ? ` at ${context.baseUrl}` : '';
	let summary: string;
	let advice: string;
	if (failure.code === 'ECONNREFUSED' || failure.code === 'ENOTFOUND' || failure.code === 'EAI_AGAIN') {
		summary = `Could not connect to the crew service${where} (${failure.code})`;
		advice = 'Check the Base URL in the Crew API credential, and that the crew is deployed and reachable from n8n.';
	} else if (failure.code === 'ETIMEDOUT' || failure.code === 'ECONNABORTED') {
		summary = `The crew service${where} did not answer in time while ${ACTION_WORDS[context.action]}`;
		advice = 'The service may be overloaded or unreachable. Run again later.';
	} else {
		summary = `The connection to the crew service${where} failed while ${ACTION_WORDS[context.action]} (${failure.code}: ${failure.message})`;
		advice = 'The network or the service dropped the request. Run again later.';
	}
	if (context.action === 'resume') {
		advice = 'The request may have reached the service, so the crew may or may not have been resumed; it was not sent again. Get Status with this kickoff ID shows whether it is still paused.';
	}
	if (context.action === 'kickoff') {
		advice = 'The request may have reached the service, so the crew may or may not have started; it was not sent again, because a second kickoff starts a second run. Check the crew\'s executions in the dashboard before starting it again.';
	}
	if (context.kickoffId !== undefined) summary += ` (kickoff ID ${context.kickoffId})`;
	return apiError(node, summary, advice, context);
}

export function crewAnswerError(node: INode, answer: CrewAnswer, context: ErrorContext): NodeApiError {
	return answer.kind === 'http' ? httpAnswerError(node, answer, context) : networkFailureError(node, answer, context);
}
