import type { INode } from 'n8n-workflow';

import { crewAnswerError } from '../../../nodes/transport/crewErrors';
import {
	answerWithSecretsHidden,
	scrubSecret,
	scrubSecretsDeep,
	withSecretsHidden,
} from '../../../nodes/transport/hiddenSecrets';

const node: INode = {
	id: '1',
	name: 'Crew',
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A kickoff's error for an HTTP answer, as the transport builds it. */
function httpError(statusCode: number, body: unknown) {
	return crewAnswerError(
		node,
		{ kind: 'http', statusCode, body },
		{ action: 'kickoff', itemIndex: 2 },
	);
}

describe('scrubSecret', () => {
	it('replaces every occurrence and leaves text without it alone', () => {
		expect(scrubSecret('a SECRET b SECRET', 'SECRET')).toBe('a [token hidden] b [token hidden]');
		expect(scrubSecret('plain', 'SECRET')).toBe('plain');
		expect(scrubSecret('plain', undefined)).toBe('plain');
	});

	it("replaces the secret as a proxy's HTML page or Python's JSON shows it", () => {
		expect(scrubSecret('<p>password=pa&quot;ss&lt;&amp;&gt;word</p>', 'pa"ss<&>word')).toBe(
			'<p>password=[token hidden]</p>',
		);
		expect(scrubSecret('{"password": "p\\u00e4ssw\\u00f6rd"}', 'pässwörd')).toBe(
			'{"password": "[token hidden]"}',
		);
	});

	it('replaces the secret as a quoted request shows it: JSON-escaped or URL-encoded', () => {
		const secret = 'pa"ss\\word/+3f';
		expect(scrubSecret(`{"password":${JSON.stringify(secret)}}`, secret)).toBe(
			'{"password":"[token hidden]"}',
		);
		expect(scrubSecret(`https://x.example/?p=${encodeURIComponent(secret)}`, secret)).toBe(
			'https://x.example/?p=[token hidden]',
		);
	});
});

describe('withSecretsHidden', () => {
	it('hides every secret in what n8n keeps of the error: message, description, the answer it was built from', () => {
		const quoted = {
			detail: 'invalid webhooks: {"token": "callback-bearer-42", "password": "basic-pass-42"}',
		};
		const error = httpError(422, quoted);
		error.description = `${error.description} callback-bearer-42`;
		const hidden = withSecretsHidden(error, ['callback-bearer-42', 'basic-pass-42', undefined]);
		const kept = JSON.stringify({
			message: hidden.message,
			description: hidden.description,
			errorResponse: hidden.errorResponse,
			context: hidden.context,
		});
		expect(kept).not.toMatch(/callback-bearer-42|basic-pass-42/);
		expect(hidden.message).toBe(
			'The crew service answered 422 while starting the crew: invalid webhooks: {"token": "[token hidden]", "password": "[token hidden]"}',
		);
		expect(hidden.httpCode).toBe('422');
	});

	it('hides them in the stack and in the cause n8n saves, and stops at a cause that leads back to the error', () => {
		const cause = new Error('upstream said callback-bearer-42');
		const error = Object.assign(new Error('failed with callback-bearer-42'), { cause });
		(cause as Error & { cause?: unknown }).cause = error;
		withSecretsHidden(error, ['callback-bearer-42']);
		expect([error.message, error.stack, cause.message, cause.stack].join('\n')).not.toContain(
			'callback-bearer-42',
		);
	});

	it('hides secrets at any depth of a value, and leaves other values alone', () => {
		expect(
			scrubSecretsDeep({ a: ['x-secret-1 y', 3, null], b: { c: 'x-secret-2' } }, [
				'x-secret-1',
				'x-secret-2',
			]),
		).toEqual({ a: ['[token hidden] y', 3, null], b: { c: '[token hidden]' } });
	});
});

describe('answerWithSecretsHidden', () => {
	it("hides the secrets in a failed answer and in a network failure's message", () => {
		expect(
			answerWithSecretsHidden(
				{ kind: 'http', statusCode: 422, body: { detail: 'bad token sent-secret-1' } },
				['sent-secret-1'],
			),
		).toEqual({ kind: 'http', statusCode: 422, body: { detail: 'bad token [token hidden]' } });
		expect(
			answerWithSecretsHidden(
				{ kind: 'network', code: 'ECONNRESET', message: 'reset by sent-secret-1' },
				['sent-secret-1'],
			),
		).toEqual({ kind: 'network', code: 'ECONNRESET', message: 'reset by [token hidden]' });
	});

	it('leaves a success whole, so a kickoff_id is read as the service gave it even when a short secret matches part of it', () => {
		const answer = {
			kind: 'http' as const,
			statusCode: 200,
			body: { kickoff_id: '97eba64f-958c-40a0-b61c-625fe635a3c0' },
		};
		expect(answerWithSecretsHidden(answer, ['958c'])).toEqual(answer);
	});

	it("hides the secrets in a success's other texts: only the fields read as identifiers are left whole", () => {
		const answer = {
			kind: 'http' as const,
			statusCode: 200,
			body: {
				kickoff_id: '97eba64f-958c-40a0-b61c-625fe635a3c0',
				meta: { webhook_secret: 'sent-secret-1' },
			},
		};
		expect(answerWithSecretsHidden(answer, ['sent-secret-1', '958c'])).toEqual({
			...answer,
			body: {
				kickoff_id: '97eba64f-958c-40a0-b61c-625fe635a3c0',
				meta: { webhook_secret: '[token hidden]' },
			},
		});
	});
});
