/**
 * A small stand-in for n8n's IExecuteFunctions: parameters, items, the
 * credential, Continue On Fail and the cancel signal are fakes, but every HTTP
 * request really goes over loopback, authenticated the way n8n does it, from
 * the real CrewApi credential's `authenticate` definition.
 */
import * as http from 'http';
import * as https from 'https';
import { NodeApiError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';

import { CrewApi } from '../../credentials/CrewApi.credentials';
import { Crew } from '../../nodes/Crew/Crew.node';

export interface Credentials {
	baseUrl: string;
	token: string;
}

/** Parameters for every item, or a function of the item index (what an expression gives). */
export type Parameters = object | ((itemIndex: number) => object);

export interface FakeOptions {
	parameters: Parameters;
	credentials: Credentials;
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	cancelSignal?: AbortSignal;
	/** Leave out getExecutionCancelSignal, as n8n versions before it did. */
	withoutCancelSignal?: boolean;
}

export interface FakeRecord {
	/** Every request the node made, without its headers. */
	requests: Array<{ method: string; url: string }>;
	/** The most requests of each method the node had in flight at once. */
	maxInFlight: Record<string, number>;
	logs: string[];
}

const node: INode = {
	id: 'crew-node-id',
	name: 'Crew',
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	credentials: { crewApi: { id: '1', name: 'Crew account' } },
};

/** Resolves `={{ ... }}` templates the way n8n does for a credential, by evaluating them with `$credentials`. */
export function resolveCredentialTemplate(template: string, credentials: Credentials): string {
	const body = template.startsWith('=') ? template.slice(1) : template;
	return body.replace(/\{\{([\s\S]+?)\}\}/g, (_, expression: string) =>
		// eslint-disable-next-line @typescript-eslint/no-implied-eval
		String(new Function('$credentials', `return (${expression});`)(credentials)),
	);
}

function readPath(source: IDataObject, path: string): unknown {
	return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as IDataObject)[key] : undefined), source);
}

function parseBody(text: string): unknown {
	if (text === '') return '';
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** One real HTTP request, with n8n's options and the credential's header. */
export async function sendRequest(options: IHttpRequestOptions, credentials: Credentials): Promise<unknown> {
	const authenticate = new CrewApi().authenticate.properties.headers ?? {};
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(options.headers ?? {})) headers[name] = typeof value === 'string' ? value : JSON.stringify(value);
	for (const [name, template] of Object.entries(authenticate)) headers[name] = resolveCredentialTemplate(typeof template === 'string' ? template : JSON.stringify(template), credentials);
	let payload: string | undefined;
	if (options.body !== undefined) {
		payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
		headers['Content-Type'] = 'application/json';
	}
	const url = new URL(options.url);
	const transport = url.protocol === 'https:' ? https : http;
	const response = await new Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
		const request = transport.request(
			url,
			{ method: options.method ?? 'GET', headers, timeout: options.timeout, signal: options.abortSignal as AbortSignal | undefined },
			(incoming) => {
				const chunks: Buffer[] = [];
				incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
				incoming.on('end', () => resolve({ statusCode: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8') }));
				incoming.on('error', reject);
			},
		);
		request.on('timeout', () => request.destroy(Object.assign(new Error(`timeout of ${options.timeout}ms exceeded`), { code: 'ECONNABORTED' })));
		request.on('error', reject);
		request.end(payload);
	}).catch((error: NodeJS.ErrnoException) => {
		// n8n wraps the HTTP client's error, request options (with the token) and all.
		const clientError = Object.assign(new Error(error.message), {
			code: error.code,
			config: { url: options.url, headers },
		});
		throw new NodeApiError(node, clientError as unknown as JsonObject);
	});
	const body = parseBody(response.text);
	if (!options.ignoreHttpStatusErrors && response.statusCode >= 400) {
		throw new NodeApiError(node, { message: `Request failed with status code ${response.statusCode}`, config: { headers } });
	}
	return options.returnFullResponse ? { statusCode: response.statusCode, headers: response.headers, body } : body;
}

export function createExecuteFunctions(options: FakeOptions): { context: IExecuteFunctions; record: FakeRecord } {
	const items = options.items ?? [{ json: {} }];
	const record: FakeRecord = { requests: [], maxInFlight: {}, logs: [] };
	const inFlight: Record<string, number> = {};
	const parametersFor = (itemIndex: number): IDataObject => (
		typeof options.parameters === 'function' ? options.parameters(itemIndex) : options.parameters) as IDataObject;
	const log = (level: string) => (message: string, meta?: object) => record.logs.push(`${level} ${message} ${meta ? JSON.stringify(meta) : ''}`);

	const context = {
		getNode: () => node,
		getInputData: () => items,
		continueOnFail: () => options.continueOnFail === true,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			const value = readPath(parametersFor(itemIndex), name);
			if (value === undefined) {
				if (arguments.length >= 3 || fallback !== undefined) return fallback;
				throw new Error(`Could not get parameter "${name}"`);
			}
			return value;
		},
		getCredentials: async () => ({ ...options.credentials }),
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
		helpers: {
			httpRequestWithAuthentication: async (credentialType: string, requestOptions: IHttpRequestOptions) => {
				if (credentialType !== 'crewApi') throw new Error(`Unexpected credential type ${credentialType}`);
				record.requests.push({ method: requestOptions.method ?? 'GET', url: requestOptions.url });
				// As n8n does: a stopped execution aborts its requests in flight.
				const signal = options.withoutCancelSignal ? undefined : options.cancelSignal;
				const method = requestOptions.method ?? 'GET';
				inFlight[method] = (inFlight[method] ?? 0) + 1;
				record.maxInFlight[method] = Math.max(record.maxInFlight[method] ?? 0, inFlight[method]);
				try {
					return await sendRequest({ ...requestOptions, abortSignal: signal }, options.credentials);
				} finally {
					inFlight[method]--;
				}
			},
		},
	} as Record<string, unknown>;
	if (!options.withoutCancelSignal) {
		context.getExecutionCancelSignal = () => options.cancelSignal ?? new AbortController().signal;
	}
	return { context: context as unknown as IExecuteFunctions, record };
}

/** Everything an error carries that n8n may store or show, own properties and cause included. */
export function serializeError(error: unknown): string {
	const seen = new WeakSet<object>();
	const expand = (value: unknown): unknown => {
		if (value instanceof Error) {
			const plain: Record<string, unknown> = { message: value.message, stack: value.stack };
			for (const key of Object.getOwnPropertyNames(value)) plain[key] = (value as unknown as Record<string, unknown>)[key];
			return plain;
		}
		return value;
	};
	return JSON.stringify(expand(error), (_, value: unknown) => {
		const expanded = expand(value);
		if (typeof expanded === 'object' && expanded !== null) {
			if (seen.has(expanded)) return '[circular]';
			seen.add(expanded);
		}
		return expanded;
	});
}

/** Token hygiene, checked on every run of the node in the suite: the token is in no output, error or log. */
function assertTokenHidden(token: string, what: string, text: string) {
	if (token.length >= 4 && text.includes(token)) {
		throw new Error(`The credential's token appears in the node's ${what}`);
	}
}

/** Runs the Crew node's execute against the fake; the output of its one branch. */
export async function runCrewNode(options: FakeOptions): Promise<{ output: INodeExecutionData[]; record: FakeRecord }> {
	const { context, record } = createExecuteFunctions(options);
	const { token } = options.credentials;
	let output: INodeExecutionData[];
	try {
		[output] = await new Crew().execute.call(context);
	} catch (error) {
		assertTokenHidden(token, 'error', serializeError(error));
		assertTokenHidden(token, 'logs', record.logs.join('\n'));
		throw error;
	}
	assertTokenHidden(token, 'output', JSON.stringify(output));
	assertTokenHidden(token, 'logs', record.logs.join('\n'));
	return { output, record };
}

/** Runs the node and returns the error it threw. Fails the test if it did not throw. */
export async function runCrewNodeExpectingError(options: FakeOptions): Promise<Error & IDataObject> {
	try {
		await runCrewNode(options);
	} catch (error) {
		return error as Error & IDataObject;
	}
	throw new Error('The node was expected to throw, and did not');
}

export function items(count: number): INodeExecutionData[] {
	return Array.from({ length: count }, (_, index) => ({ json: { index } }));
}
