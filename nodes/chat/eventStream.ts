import type { IHttpRequestOptions } from 'n8n-workflow';

import type { OpenStream } from './turn';
import { CREDENTIAL_TYPE, readBody, readFailure } from '../transport/index';
import { requestRedactor } from '../transport/redactor';
import { isSuccessCode } from '../transport/answers';
import type { CrewAnswer, CrewConnection, CrewContext } from '../transport/index';

/** What n8n's request helper gives for `encoding: 'stream'`: the response body as a Node stream. */
interface StreamBody {
	setEncoding?: (encoding: 'utf8') => void;
	destroy?: () => void;
	[Symbol.asyncIterator]?: () => AsyncIterator<unknown>;
}

async function readAll(body: StreamBody): Promise<string> {
	let text = '';
	if (typeof body[Symbol.asyncIterator] !== 'function') return typeof body === 'string' ? body : '';
	for await (const piece of body as AsyncIterable<unknown>)
		text += typeof piece === 'string' ? piece : String(piece);
	return text;
}

/**
 * Opens a Server-Sent Events response with the credential, one attempt. n8n's
 * `httpRequestWithAuthentication` with `encoding: 'stream'` and
 * `returnFullResponse` hands back the status code and the body as a Node stream
 * (axios `responseType: 'stream'`: n8n-core's request helper in 1.x,
 * `@n8n/backend-network`'s `httpRequest` in 2.x), so the frames are read as they
 * arrive; the execution's cancel signal, which n8n attaches, ends it on Stop.
 * `idleMs` becomes the request's timeout, which axios applies to a silent socket.
 */
export async function openCrewEventStream(
	context: CrewContext,
	connection: CrewConnection,
	path: string,
	idleMs: number,
): Promise<OpenStream | CrewAnswer> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: `${connection.baseUrl}${path}`,
		headers: { Accept: 'text/event-stream' },
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: Math.max(1, Math.round(idleMs)),
	};
	// As every answer of the transport: no secret of the credential in what the node reads of a
	// refusal.
	const redactor = requestRedactor(connection.secrets);
	let response: { statusCode?: number; body?: unknown };
	try {
		response = await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			options,
		);
	} catch (error) {
		return redactor.answer(readFailure(error));
	}
	const statusCode = response.statusCode ?? 0;
	const body = (response.body ?? {}) as StreamBody;
	body.setEncoding?.('utf8');
	if (!isSuccessCode(statusCode)) {
		let text = '';
		try {
			text = await readAll(body);
		} catch {
			// An error answer whose body broke off: its status code still tells.
		}
		return redactor.answer({ kind: 'http', statusCode, body: readBody(text) });
	}
	return {
		kind: 'stream',
		pieces: (async function* () {
			if (typeof body[Symbol.asyncIterator] !== 'function') return;
			for await (const piece of body as AsyncIterable<unknown>)
				yield typeof piece === 'string' ? piece : String(piece);
		})(),
		close: () => body.destroy?.(),
	};
}
