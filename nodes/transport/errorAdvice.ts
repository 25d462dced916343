/**
 * What a failed request's error advises, by what the request was for and the status code the
 * service answered: each sentence says what to do next.
 */

/** What the failed request was for: it decides which advice the user gets. */
export type CrewAction = 'getInputs' | 'kickoff' | 'getStatus' | 'resume' | 'stop';

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
