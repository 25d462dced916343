/**
 * Each operation's advice for the codes the vendor's API reference lists
 * (400, 401, 404, 422, 500), from real answers of the reference service: the
 * advice is the operation's own, never another request's.
 */
import { ADVICE } from '../../nodes/transport/errorAdvice';
import type { CrewAction } from '../../nodes/transport/errorAdvice';
import type { Fault } from '../crew-service';
import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewNodeExpectingError } from '../helpers/executeFunctions';
import type { Credentials } from '../helpers/executeFunctions';

const crew = useCrewService();

const UNKNOWN_ID = '97eba64f-958c-40a0-b61c-625fe635a3c0';
const kickoff = (inputsJson = '{"topic": "AI"}') => ({
	operation: 'kickoff',
	inputsMode: 'json',
	inputsJson,
});
const PARAMETERS: Record<CrewAction, object> = {
	getInputs: { operation: 'getInputs' },
	kickoff: kickoff(),
	getStatus: { operation: 'getStatus', kickoffId: UNKNOWN_ID },
	resume: {
		operation: 'resume',
		kickoffId: UNKNOWN_ID,
		taskId: 'research_task',
		isApprove: true,
		humanFeedback: '',
	},
	stop: { operation: 'stop', kickoffId: UNKNOWN_ID },
};
const ROUTE: Record<CrewAction, Fault['route']> = {
	getInputs: 'inputs',
	kickoff: 'kickoff',
	getStatus: 'status',
	resume: 'resume',
	stop: 'stop',
};

/** How each answer is brought about: a wrong token, a Base URL with a path after it, a fault, or what the service really does. */
type Cause =
	| { credentials: 'wrongToken' | 'pathAfterBaseUrl' }
	| { fault: Omit<Fault, 'route'> }
	| { parameters: object };

// A Retry-After longer than a read waits for: the read fails at once instead of after two retries.
const SERVER_ERROR: Cause = {
	fault: { kind: 'status', status: 500, headers: { 'Retry-After': '60' } },
};
const WRONG_TOKEN: Cause = { credentials: 'wrongToken' };

const CASES: Array<[CrewAction, 400 | 401 | 404 | 422 | 500, Cause, RegExp]> = [
	[
		'getInputs',
		400,
		{ fault: { kind: 'status', status: 400 } },
		/answered 400 while reading the crew's inputs/,
	],
	['getInputs', 401, WRONG_TOKEN, /Invalid or missing bearer token/],
	[
		'getInputs',
		404,
		{ credentials: 'pathAfterBaseUrl' },
		/answered 404 while reading the crew's inputs: Not Found/,
	],
	[
		'getInputs',
		422,
		{ fault: { kind: 'status', status: 422, body: '{"detail": "Unprocessable Entity"}' } },
		/Unprocessable Entity/,
	],
	['getInputs', 500, SERVER_ERROR, /answered 500 while reading the crew's inputs/],
	[
		'kickoff',
		400,
		{
			fault: {
				kind: 'status',
				status: 400,
				body: '{"error": "Invalid Request", "message": "Invalid input format"}',
			},
		},
		/Invalid input format/,
	],
	['kickoff', 401, WRONG_TOKEN, /answered 401 while starting the crew/],
	[
		'kickoff',
		404,
		{ credentials: 'pathAfterBaseUrl' },
		/answered 404 while starting the crew: Not Found/,
	],
	['kickoff', 422, { parameters: kickoff('{"audience": "devs"}') }, /missing inputs topic/],
	['kickoff', 500, SERVER_ERROR, /answered 500 while starting the crew/],
	[
		'getStatus',
		400,
		{
			fault: {
				kind: 'status',
				status: 400,
				body: '{"error": "Invalid Request", "message": "Invalid kickoff ID format"}',
			},
		},
		/Invalid kickoff ID format/,
	],
	['getStatus', 401, WRONG_TOKEN, /answered 401 while reading the crew's status/],
	['getStatus', 404, { parameters: PARAMETERS.getStatus }, /No execution found with ID: 97eba64f/],
	[
		'getStatus',
		422,
		{
			fault: {
				kind: 'status',
				status: 422,
				body: '{"detail": [{"loc": ["path", "kickoff_id"], "msg": "value is not a valid uuid", "type": "type_error.uuid"}]}',
			},
		},
		/path\.kickoff_id: value is not a valid uuid/,
	],
	['getStatus', 500, SERVER_ERROR, /answered 500 while reading the crew's status/],
	[
		'resume',
		400,
		{
			fault: {
				kind: 'status',
				status: 400,
				body: '{"error": "Invalid Request", "message": "Execution is not in pending human input state"}',
			},
		},
		/not in pending human input state/,
	],
	['resume', 401, WRONG_TOKEN, /answered 401 while resuming the crew/],
	['resume', 404, { parameters: PARAMETERS.resume }, /Execution not found: 97eba64f/],
	[
		'resume',
		422,
		{
			fault: {
				kind: 'status',
				status: 422,
				body: '{"error": "Validation Error", "message": "Missing required fields", "details": {"missing_fields": ["task_id"]}}',
			},
		},
		/Missing required fields/,
	],
	['resume', 500, SERVER_ERROR, /answered 500 while resuming the crew/],
	[
		'stop',
		400,
		{ fault: { kind: 'status', status: 400, body: '{"detail": "Invalid kickoff ID"}' } },
		/answered 400 while stopping the crew \(kickoff ID 97eba64f[^)]*\): Invalid kickoff ID/,
	],
	['stop', 401, WRONG_TOKEN, /answered 401 while stopping the crew/],
	[
		'stop',
		404,
		{ parameters: PARAMETERS.stop },
		/^Not found: .* knows no run with kickoff ID 97eba64f.*, so nothing was stopped/,
	],
	[
		'stop',
		422,
		{
			fault: {
				kind: 'status',
				status: 422,
				body: '{"detail": [{"loc": ["path", "kickoff_id"], "msg": "value is not a valid uuid", "type": "type_error.uuid"}]}',
			},
		},
		/path\.kickoff_id: value is not a valid uuid/,
	],
	['stop', 500, SERVER_ERROR, /answered 500 while stopping the crew/],
];

function credentialsFor(cause: Cause): Credentials {
	if (!('credentials' in cause)) return crew.credentials;
	if (cause.credentials === 'wrongToken')
		return { ...crew.credentials, token: 'org-tok-WRONG-0123456789' };
	return { ...crew.credentials, baseUrl: `${crew.service.url}/not-the-crew` };
}

describe("advice per operation and status code, from the service's real answers", () => {
	it.each(CASES)('%s %i', async (action, statusCode, cause, message) => {
		if ('fault' in cause) crew.service.injectFault({ route: ROUTE[action], ...cause.fault });
		const parameters = 'parameters' in cause ? cause.parameters : PARAMETERS[action];
		const error = await runCrewNodeExpectingError({
			parameters,
			credentials: credentialsFor(cause),
		});

		expect(error.httpCode).toBe(String(statusCode));
		expect(error.message).toMatch(message);
		expect(error.description).toBe(
			statusCode === 422 && action === 'kickoff'
				? 'Give values for: topic. Get Inputs lists every input the crew expects.'
				: ADVICE[action][statusCode === 500 ? 'serverError' : statusCode],
		);
		expect(error.context).toMatchObject({ itemIndex: 0 });
	});
});

describe("Kickoff and Wait gives the kickoff's advice for its kickoff and the status read's for its reads", () => {
	const waitFor = (inputsJson: string) => ({
		...kickoff(inputsJson),
		operation: 'kickoffAndWait',
		options: { pollInterval: 0.1, timeout: 20 },
	});

	it('a 422 on a status read while waiting is about the kickoff ID, not the inputs', async () => {
		crew.service.injectFault({
			route: 'status',
			kind: 'status',
			status: 422,
			body: '{"detail": "Invalid kickoff ID"}',
		});
		const { output } = await runCrewNode({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
			continueOnFail: true,
		});
		expect(output[0].json.error).toBe(
			`The crew service answered 422 while reading the crew's status (kickoff ID ${crew.service.runs[0].kickoffId}): Invalid kickoff ID`,
		);
		expect(output[0].json.description).toBe(ADVICE.getStatus[422]);
		expect(output[0].json.description).not.toMatch(/inputs/);
	});

	it('a 422 on its kickoff names the missing inputs', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: waitFor('{}'),
			credentials: crew.credentials,
		});
		expect(error.message).toBe(
			'The crew service answered 422 while starting the crew: missing inputs topic',
		);
		expect(error.description).toBe(
			'Give values for: topic. Get Inputs lists every input the crew expects.',
		);
	});
});
