import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, JsonObject, ResourceMapperField } from 'n8n-workflow';

import type { Sleep } from '../execution/cancellableSleep';

import { buildKickoffBody } from '../records/kickoffBody';
import { InvalidParameterError } from '../records/invalidParameter';
import { parseJsonObject } from '../records/jsonInput';
import { findMissingInputs, toWireInputs } from '../records/inputText';
import { toFlowFieldValues, toFlowInputs } from '../records/flowInputs';
import type { DeploymentKind } from '../records/crewInputs';
import type { KickoffOptions } from '../records/kickoffBody';
import {
	buildCallbackFields,
	legacyWebhookSecret,
	readCallbackOptions,
} from '../callbacksOut/callbackBody';
import type { CallbackOptionValues } from '../callbacksOut/callbackBody';
import { readCallbackSecrets } from '../callbacksOut/callbackSecrets';
import { crewAnswerError } from '../transport/crewErrors';
import { secretsSentIn } from '../records/sentSecrets';
import { DEFAULT_KICKOFF_TIMEOUT_SECONDS, isSuccess } from '../transport';
import type { CrewConnection, CrewContext } from '../transport';
import { postAtMostOnce } from '../transport/postOnce';
import { checkUrlOptions } from '../records/urlOptions';
import { isPlainObject } from '../records/plainObject';
import { kickoffRequestBody, multipartKickoffError } from '../files/fileKickoff';
import type { ItemFiles } from '../files/itemFiles';
import { failedSend } from './sendOutcome';
import type { SendOutcome } from './sendOutcome';

export const MAX_KICKOFF_TIMEOUT_SECONDS = 1_800;

/**
 * The inputs of one item, in the mode the user chose: a crew's as the text values
 * its prompts take, a flow's with their JSON types and nothing required.
 */
function readInputs(
	context: IExecuteFunctions,
	itemIndex: number,
	deployment: DeploymentKind,
): IDataObject {
	const mode = context.getNodeParameter('inputsMode', itemIndex, 'map') as string;
	if (mode === 'json') {
		const given = parseJsonObject(
			context.getNodeParameter('inputsJson', itemIndex, '{}'),
			'Inputs (JSON)',
		);
		return deployment === 'flow' ? toFlowInputs(given) : toWireInputs(given);
	}
	const schema = (context.getNodeParameter('inputs.schema', itemIndex, []) ??
		[]) as ResourceMapperField[];
	if (deployment === 'flow') {
		// Unconverted: n8n would turn an empty number field into 0 and refuse an empty list field;
		// empty means the flow's default here.
		const raw = (context.getNodeParameter(
			'inputs.value',
			itemIndex,
			{},
			{ skipValidation: true },
		) ?? {}) as IDataObject;
		return toFlowFieldValues(
			raw,
			Object.fromEntries(schema.map((field) => [field.id, field.type])),
		);
	}
	const values = (context.getNodeParameter('inputs.value', itemIndex, {}) ?? {}) as IDataObject;
	const inputs = toWireInputs(values);
	const required = schema
		.filter((field) => field.required && !field.removed)
		.map((field) => field.id);
	const missing = findMissingInputs(required, inputs);
	if (missing.length > 0) {
		throw new InvalidParameterError(
			`Required inputs are empty: ${missing.join(', ')}`,
			'Fill in these inputs, or map a value from an earlier node. The crew cannot run without them.',
		);
	}
	return inputs;
}

/**
 * The kickoff request body for one item, with the callback channels asked for and
 * their secrets from the Crew API credential. A parameter problem is thrown
 * as an InvalidParameterError, which the operations turn into that item's error (toItemError).
 */
export async function readKickoffBody(
	context: IExecuteFunctions,
	itemIndex: number,
	deployment: DeploymentKind = 'crew',
): Promise<IDataObject> {
	const options = context.getNodeParameter('options', itemIndex, {}) as KickoffOptions &
		CallbackOptionValues;
	checkUrlOptions(options);
	const callbacks = readCallbackOptions(options);
	const inputs = readInputs(context, itemIndex, deployment);
	const secrets = await readCallbackSecrets(context, itemIndex);
	const webhookSecret = legacyWebhookSecret(options, secrets);
	return {
		...buildKickoffBody(inputs, { ...options, webhookSecret }),
		...buildCallbackFields(callbacks, secrets),
	};
}

/** The Kickoff Timeout option in milliseconds: the default when empty or not positive. */
export function readKickoffTimeoutMs(value: unknown): number {
	const seconds = Number(value);
	return Math.round(
		(value !== undefined && value !== null && value !== '' && seconds > 0
			? Math.min(seconds, MAX_KICKOFF_TIMEOUT_SECONDS)
			: DEFAULT_KICKOFF_TIMEOUT_SECONDS) * 1000,
	);
}

function kickoffIdOfAnswer(body: unknown): string | undefined {
	if (!isPlainObject(body)) return undefined;
	const id = body.kickoff_id ?? body.kickoffId ?? body.id;
	return typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : undefined;
}

/**
 * Sends `POST /kickoff` for one item, with its files when it has any (see
 * files/fileKickoff.ts), and says what it came to: the kickoff ID, or the error and
 * whether a crew may have started all the same. A kickoff is not idempotent: after a
 * network error or a 5xx the crew may be running, and the error says so. A problem
 * found before anything is sent (a file, a parameter) is thrown.
 */
export async function startCrew(
	context: IExecuteFunctions,
	connection: CrewConnection,
	itemIndex: number,
	body: IDataObject,
	sleep: Sleep,
	files?: ItemFiles,
	/**
	 * What sends the kickoff, when not `context`: a kickoff whose answer must outlive a cancel
	 * (stop/stopCrews.ts).
	 */
	sender: CrewContext = context,
): Promise<SendOutcome> {
	const options = context.getNodeParameter('options', itemIndex, {}) as {
		kickoffTimeout?: unknown;
	};
	const timeoutMs = readKickoffTimeoutMs(options.kickoffTimeout);
	const request = await kickoffRequestBody(
		context,
		connection,
		itemIndex,
		body,
		files,
		sleep,
		timeoutMs,
	);
	// The transport hides every secret the kickoff carried in its answer (a multipart body's, named
	// here), so nothing that reads it sees one.
	const answer = await postAtMostOnce(
		sender,
		connection,
		'/kickoff',
		request,
		sleep,
		timeoutMs,
		secretsSentIn(body),
	);
	const errorContext = { action: 'kickoff' as const, itemIndex, baseUrl: connection.baseUrl };
	if (!isSuccess(answer)) {
		const error =
			multipartKickoffError(context, answer, files, itemIndex, connection) ??
			crewAnswerError(context.getNode(), answer, errorContext);
		return failedSend(error, answer, files?.mode === 'multipart');
	}
	const kickoffId = kickoffIdOfAnswer(answer.body);
	if (kickoffId === undefined) {
		const message = `The crew service answered ${answer.statusCode} to the kickoff but sent no kickoff_id`;
		const error = new NodeApiError(context.getNode(), { message } as JsonObject, {
			message,
			description:
				'The Base URL may point at something other than a crew (a web page, a proxy). Check it in the Crew API credential; the crew may or may not have started.',
			itemIndex,
		});
		return failedSend(error, answer);
	}
	return {
		kind: 'started',
		kickoffId,
		answer: isPlainObject(answer.body) ? answer.body : { kickoff_id: kickoffId },
	};
}
