import { NodeOperationError } from 'n8n-workflow';
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { parseRetryAfter } from './retryAfter';
import { credentialSecretsOf, requestRedactor } from './redactor';
import { plainHttpProblem } from './ownNetwork';
import type { CrewAnswer, NetworkFailure } from './answers';
import type { StreamBody } from './streamedBody';

export { isPassingFailure, isSuccess, retryAfterOf } from './answers';
export type { CrewAnswer, HttpAnswer, NetworkFailure } from './answers';
export { CREDENTIAL_SECRET_FIELDS, credentialSecretsOf } from './redactor';

/**
 * The credential type, for every call that reads it. The credential class and the two nodes'
 * descriptions write it out instead: n8n's lint (no-credential-reuse, valid-credential-references)
 * reads those names as literals and checks nothing once they are constants.
 * test/unit/credentials/CrewApi.credentials.test.ts ties the three to this one.
 */
export const CREDENTIAL_TYPE = 'crewApi';

/** Long enough for a slow proxy, short enough that a hung connection does not hold a wait. */
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * The first request to a base URL that this process has not heard from: a deployment idle for a
 * while answers its first call slowly ("first call times out, the next one works",
 * docs/development/service-api.md#base-url-and-authentication), so it gets minutes; once the
 * service has answered, reads go back to their short timeouts.
 */
export const COLD_START_TIMEOUT_MS = 180_000;
/**
 * Every kickoff, by default: a kickoff that times out may still have started its run, and is never
 * sent again.
 */
export const DEFAULT_KICKOFF_TIMEOUT_SECONDS = 300;

/** The webhook side is the confirming status read of Wait By: Callback. */
export type CrewContext = IExecuteFunctions | ILoadOptionsFunctions | IWebhookFunctions;

/**
 * Where the crew is, its token, and every secret of the credential, which no answer the transport
 * gives shows.
 */
export interface CrewConnection {
	baseUrl: string;
	secret: string;
	/**
	 * Every secret field of the Crew API credential (the token and the callback secrets), trimmed.
	 */
	secrets: readonly string[];
	/**
	 * The credential as read for this connection, set only where the requests follow within
	 * moments (see getCrewConnection's `reuseCredential`): each request hands it to n8n's
	 * request helper instead of having n8n read the credential again.
	 */
	credential?: ICredentialsDecrypted;
}

/**
 * The base URL as users paste it: surrounding spaces and trailing slashes are
 * dropped; a missing scheme is an error rather than a guess, because guessing
 * https for a local http service fails in a more confusing way. `http://` only for
 * a service on your own network (ownNetwork.ts): every request carries the token.
 */
export function normalizeBaseUrl(raw: unknown): string {
	const text = typeof raw === 'string' ? raw.trim().replace(/\/+$/, '') : '';
	if (text === '') throw new Error('The Crew API credential has no Base URL.');
	let url: URL | undefined;
	try {
		url = /^https?:\/\/[^/]/i.test(text) ? new URL(text) : undefined;
	} catch {
		url = undefined;
	}
	if (url === undefined)
		throw new Error(
			`The Base URL "${text}" must start with https:// (or http:// for a service on your own network).`,
		);
	const problem = plainHttpProblem(url);
	if (problem !== undefined) throw new Error(`The Base URL "${text}" cannot be used: ${problem}.`);
	return text;
}

/**
 * The service's address and token, from the node's credential. With `reuseCredential`,
 * the requests sent through this connection use the credential read here: n8n's request
 * helper reads it again for every request otherwise, and in a webhook (a call to a parked
 * execution) n8n 2.x evaluates each such read in an expression isolate of its own, built
 * afresh (docs/reliability-and-performance.md#wait-by-callback-a-crews-call-to-the-next-node).
 * Only for requests sent at once: a long wait reads the credential anew, so an edited token
 * takes effect.
 */
export async function getCrewConnection(
	context: CrewContext,
	itemIndex: number,
	{ reuseCredential = false } = {},
): Promise<CrewConnection> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE, itemIndex);
	try {
		const connection: CrewConnection = {
			baseUrl: normalizeBaseUrl(credentials.baseUrl),
			secret: typeof credentials.token === 'string' ? credentials.token.trim() : '',
			secrets: credentialSecretsOf(credentials),
		};
		if (reuseCredential) {
			const details = context.getNode().credentials?.[CREDENTIAL_TYPE];
			connection.credential = {
				id: details?.id ?? '',
				name: details?.name ?? '',
				type: CREDENTIAL_TYPE,
				data: credentials,
			};
		}
		return connection;
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message, {
			itemIndex,
			description:
				"Open the Crew API credential and set Base URL to the crew's API address from its dashboard, e.g. https://my-crew-1a2b3c.crewai.com.",
		});
	}
}

export function readBody(raw: unknown): unknown {
	const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
	if (typeof text !== 'string') return text;
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** The code of a failed request, wherever the HTTP helper of this n8n version put it. */
export function readFailure(error: unknown): NetworkFailure {
	const outer = error as {
		code?: unknown;
		message?: unknown;
		cause?: { code?: unknown; message?: unknown };
	};
	const inner = outer.cause ?? {};
	const code = [inner.code, outer.code].find(
		(value) => typeof value === 'string' && value !== '',
	) as string | undefined;
	const message = [inner.message, outer.message].find(
		(value) => typeof value === 'string' && value !== '',
	) as string | undefined;
	return { kind: 'network', code: code ?? 'EUNKNOWN', message: message ?? 'the request failed' };
}

// Base URLs that have answered in this process: their deployment is awake.
const answeredBaseUrls = new Set<string>();
const MAX_REMEMBERED_BASE_URLS = 1_000;

/** The timeout of one request: its own, or minutes while the base URL has never answered here. */
export function requestTimeout(requested: number, baseUrlHasAnswered: boolean): number {
	return baseUrlHasAnswered ? requested : Math.max(requested, COLD_START_TIMEOUT_MS);
}

/** A kickoff carries the user's Kickoff Timeout, minutes already: that one is kept as set. */
function ownsTimeout(request: { method: 'GET' | 'POST'; timeoutMs?: number }): boolean {
	return request.method === 'POST' && request.timeoutMs !== undefined;
}

function rememberAnswered(baseUrl: string) {
	if (answeredBaseUrls.has(baseUrl)) return;
	// A bound, so a process that talks to many crews does not grow without end; forgetting costs one
	// slow-allowed read.
	if (answeredBaseUrls.size >= MAX_REMEMBERED_BASE_URLS) answeredBaseUrls.clear();
	answeredBaseUrls.add(baseUrl);
}

/** One request to the service. */
export interface CrewRequest {
	method: 'GET' | 'POST';
	path: string;
	body?: IDataObject;
	stream?: StreamBody;
	timeoutMs?: number;
	/**
	 * Secrets the request carries where the transport cannot read them: a multipart body's form
	 * fields.
	 */
	carries?: readonly string[];
}

/**
 * The one place requests are made: authenticated by the credential, one
 * attempt, never throwing for an HTTP status. Callers decide about retries,
 * because only they know whether the request may be sent twice. Every answer
 * leaves here with every secret the request carried hidden (redactor.ts), a
 * success as well as a failure: nothing that reads it hides anything again.
 */
export async function sendCrewRequest(
	context: CrewContext,
	connection: CrewConnection,
	request: CrewRequest,
): Promise<CrewAnswer> {
	const redactor = requestRedactor(connection.secrets, request.body, request.carries);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${connection.baseUrl}${request.path}`,
		headers: { Accept: 'application/json' },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: requestTimeout(
			request.timeoutMs ?? REQUEST_TIMEOUT_MS,
			answeredBaseUrls.has(connection.baseUrl) || ownsTimeout(request),
		),
		json: true,
	};
	if (request.body !== undefined) options.body = request.body;
	if (request.stream !== undefined) {
		const { stream, contentType, contentLength } = request.stream;
		options.body = stream as unknown as IDataObject;
		options.headers = {
			...options.headers,
			'Content-Type': contentType,
			'Content-Length': String(contentLength),
		};
		// With redirects on, axios sends through follow-redirects, which keeps every chunk of
		// the body to replay it after a redirect (n8n sets no cap): a whole file in memory.
		// Off, the stream goes straight to the socket; a stream cannot be replayed anyway.
		options.disableFollowRedirect = true;
	}
	let response: { statusCode?: number; body?: unknown; headers?: Record<string, unknown> };
	try {
		const credential = connection.credential
			? { credentialsDecrypted: connection.credential }
			: undefined;
		response = await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			options,
			credential,
		);
	} catch (error) {
		return redactor.answer(readFailure(error));
	}
	rememberAnswered(connection.baseUrl);
	const headers = response.headers ?? {};
	return redactor.answer({
		kind: 'http',
		statusCode: response.statusCode ?? 0,
		body: readBody(response.body),
		retryAfterMs: parseRetryAfter(headers['retry-after'], Date.now()),
	});
}
