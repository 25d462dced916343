import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	callbackHost,
	feedbackBody,
	interpretFeedbackAnswer,
	readCallbackUrl,
} from '../../../callbacksOut/feedbackAnswer';
import { REQUEST_TIMEOUT_MS } from '../../../transport';

const show = { show: { operation: ['answerFeedback'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Callback URL',
		name: 'callbackUrl',
		type: 'string',
		typeOptions: { password: true },
		default: '={{ $json.callback_url }}',
		required: true,
		description:
			'The callback_url of a "Flow Feedback Requested" item from the Crew Trigger. It carries its own token, so it is hidden here and never shown in output or errors; it is sent to over https only (http only to a service on your own network), and never redirected.',
		displayOptions: show,
	},
	{
		displayName: 'Feedback',
		name: 'feedback',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'e.g. approved',
		description: "The answer, e.g. one of the request's emit_options; the flow goes on with it",
		displayOptions: show,
	},
];

/**
 * What answering needs from n8n: one HTTP POST, no credential. Injected so the logic is tested over
 * real HTTP.
 */
export type PostJson = (
	url: string,
	body: IDataObject,
) => Promise<{ statusCode: number; body: unknown }>;

/**
 * Answers one feedback request: one POST, never retried (a second answer is
 * refused with 409, and a lost answer may have been recorded), to an https URL (see
 * readCallbackUrl), never redirected. No Authorization header: the token is in the
 * URL, and the Crew API token must not go to another host.
 */
export async function answerFeedback(
	post: PostJson,
	callbackUrlValue: unknown,
	feedbackValue: unknown,
) {
	const callbackUrl = readCallbackUrl(callbackUrlValue);
	const body = feedbackBody(feedbackValue);
	const host = callbackHost(callbackUrl);
	let answer: { statusCode: number; body: unknown };
	try {
		answer = await post(callbackUrl, body);
	} catch (error) {
		// The client's error names the URL; only its code is kept.
		const code =
			(error as { code?: unknown; cause?: { code?: unknown } }).cause?.code ??
			(error as { code?: unknown }).code;
		return interpretNetworkFailure(host, typeof code === 'string' ? code : 'EUNKNOWN');
	}
	return interpretFeedbackAnswer(answer.statusCode, answer.body, host);
}

function interpretNetworkFailure(host: string, code: string) {
	return {
		ok: false as const,
		message: `The feedback could not be sent to ${host} (${code})`,
		description:
			"It may or may not have arrived. Check the request in the deployment's dashboard before answering again: a second answer is refused.",
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const post: PostJson = async (url, body) => {
		const response = (await this.helpers.httpRequest({
			method: 'POST',
			url,
			body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// A redirect would carry the feedback, and the URL's token with it, to an address nobody
			// checked: its 3xx is the item's error.
			disableFollowRedirect: true,
			timeout: REQUEST_TIMEOUT_MS,
		})) as { statusCode: number; body: unknown };
		return { statusCode: response.statusCode, body: response.body };
	};
	// A bad Callback URL or empty Feedback is an InvalidParameterError, made this item's error by the
	// router.
	const result = await answerFeedback(
		post,
		this.getNodeParameter('callbackUrl', itemIndex),
		this.getNodeParameter('feedback', itemIndex, ''),
	);
	if (result.ok) return result.json;
	throw new NodeOperationError(this.getNode(), result.message, {
		itemIndex,
		description: result.description,
	});
}
