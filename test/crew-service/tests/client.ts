/**
 * The one HTTP client of the reference service's own tests: raw requests, as
 * any caller of the service makes them, so that a test sees exactly what the
 * service answered (status, headers, text, and the JSON when the text is JSON).
 */
import type { CrewService } from '..';

export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	/** The parsed body; undefined when the text is not JSON. */
	json: any;
	/** The Content-Type header; '' when there is none. */
	contentType: string;
}

export interface CallOptions {
	/** The bearer token; the organization token by default, `null` for no Authorization. */
	token?: string | null;
	/** Sent as JSON, with Content-Type application/json unless `headers` set one. */
	body?: unknown;
	/** Sent as given, for bodies that are not JSON. */
	rawBody?: string;
	headers?: Record<string, string>;
	signal?: AbortSignal;
}

export async function call(
	service: CrewService,
	method: string,
	urlPath: string,
	opts: CallOptions = {},
): Promise<Reply> {
	const headers: Record<string, string> = { ...opts.headers };
	const token = opts.token === undefined ? service.tokens.organization : opts.token;
	if (token !== null) headers.authorization = `Bearer ${token}`;
	const body = opts.body === undefined ? opts.rawBody : JSON.stringify(opts.body);
	if (
		body !== undefined &&
		!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')
	)
		headers['content-type'] = 'application/json';
	const res = await fetch(service.url + urlPath, { method, headers, body, signal: opts.signal });
	const text = await res.text();
	let json: any;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return {
		status: res.status,
		headers: res.headers,
		text,
		json,
		contentType: res.headers.get('content-type') ?? '',
	};
}

/** POST /kickoff that must be accepted; its kickoff id. */
export async function kickoff(
	service: CrewService,
	body: unknown,
	token?: string,
): Promise<string> {
	const reply = await call(service, 'POST', '/kickoff', { body, token });
	expect(reply.status).toBe(200);
	return reply.json.kickoff_id as string;
}
