import type { IDataObject } from 'n8n-workflow';

import { InvalidParameterError } from '../records/invalidParameter';
import { isAbsoluteHttpUrl } from '../records/urlOptions';
import { isPlainObject } from '../records/plainObject';
import { plainHttpProblem } from '../transport/ownNetwork';
import { isSuccessCode } from '../transport/answers';

/**
 * A flow feedback request's callback_url carries its own token
 * (docs/development/service-api.md#flow-feedback-requests), so it is as secret as a password: it is
 * sent to, never shown. Messages name its host only.
 */
export function callbackHost(callbackUrl: string): string {
	try {
		return new URL(callbackUrl).host;
	} catch {
		return 'an invalid address';
	}
}

/**
 * The callback URL, checked; the error shows no part of it, since a typo could still hold the
 * token. Its token goes only over https, or plain http to a service on your own network (the
 * credential's Base URL rule, transport/ownNetwork.ts): the platform's callback_url is https.
 */
export function readCallbackUrl(value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!isAbsoluteHttpUrl(text)) {
		throw new InvalidParameterError(
			'Callback URL is not an absolute http(s) URL',
			'Map the callback_url of the Crew Trigger\'s "Flow Feedback Requested" item, e.g. {{ $json.callback_url }}.',
		);
	}
	const problem = plainHttpProblem(new URL(text));
	if (problem !== undefined) {
		throw new InvalidParameterError(
			`Callback URL must be an https:// address: ${problem}`,
			"The URL carries the request's own token, so it is sent over https only (http only to a service on your own network, as for the Crew API credential's Base URL). Map the callback_url of the Crew Trigger's \"Flow Feedback Requested\" item as it came. Nothing was sent.",
		);
	}
	return text;
}

/**
 * The answer's body (docs/development/service-api.md#flow-feedback-requests: `feedback` required,
 * `source` optional).
 */
export function feedbackBody(feedback: unknown): IDataObject {
	const text = typeof feedback === 'string' ? feedback.trim() : '';
	if (text === '') {
		throw new InvalidParameterError(
			'Feedback is empty',
			'Give the feedback, e.g. one of the request\'s emit_options such as "approved".',
		);
	}
	return { feedback: text, source: 'n8n' };
}

export type FeedbackAnswerResult =
	| { ok: true; json: IDataObject }
	| { ok: false; message: string; description: string };

/** What the callback_url's answer means, in words that say what to do; never the URL itself. */
export function interpretFeedbackAnswer(
	statusCode: number,
	body: unknown,
	host: string,
): FeedbackAnswerResult {
	const answer = isPlainObject(body) ? body : {};
	if (isSuccessCode(statusCode)) {
		const request = isPlainObject(answer.request) ? answer.request : {};
		return {
			ok: true,
			json: {
				answered: true,
				status: answer.status ?? 'accepted',
				request_id: request.id ?? null,
				outcome: request.outcome ?? null,
				responded_at: request.responded_at ?? null,
				callback_host: host,
			},
		};
	}
	if (statusCode === 409) {
		return {
			ok: false,
			message: 'This feedback request was already answered',
			description:
				'A feedback request takes one answer. Nothing was changed; the flow goes on with the first answer.',
		};
	}
	if (statusCode === 401 || statusCode === 403) {
		return {
			ok: false,
			message: `${host} refused the callback URL's token (${statusCode})`,
			description:
				'The callback URL must be passed on whole, as the Crew Trigger gave it; its token may also have expired.',
		};
	}
	if (statusCode === 404) {
		return {
			ok: false,
			message: `${host} knows no such feedback request (404)`,
			description: 'Pass on the callback URL of the request, as the Crew Trigger gave it.',
		};
	}
	if (statusCode >= 300 && statusCode < 400) {
		return {
			ok: false,
			message: `${host} answered ${statusCode}, a redirect, which the node does not follow`,
			description:
				"The feedback was sent to the callback URL only, and that address sent it elsewhere. Pass on the callback URL of the request as the Crew Trigger gave it; check the request in the deployment's dashboard before answering again.",
		};
	}
	return {
		ok: false,
		message: `${host} answered ${statusCode} to the feedback`,
		description:
			"The answer may not have been recorded. Check the request in the deployment's dashboard before answering again: a second answer is refused.",
	};
}
