import type { IDataObject } from 'n8n-workflow';

import { isSecretField, secretsSentIn } from '../records/sentSecrets';
import { isPlainObject } from '../records/plainObject';
import {
	answerWithSecretsHidden,
	MIN_HIDDEN_SECRET_LENGTH,
	scrubSecrets,
	scrubSecretsDeep,
	withSecretsHidden,
} from './hiddenSecrets';
import type { CrewAnswer } from './answers';

/**
 * The Crew API credential's fields that hold a secret (each a password field): none may appear in
 * an output, an error or a log.
 */
export const CREDENTIAL_SECRET_FIELDS = [
	'token',
	'bearerToken',
	'basicPassword',
	'metaSecret',
	'signingSecret',
] as const;

/**
 * Every secret a Crew API credential holds (its password fields), as the node and the service use
 * them: trimmed.
 */
export function credentialSecretsOf(credentials: IDataObject): string[] {
	return CREDENTIAL_SECRET_FIELDS.flatMap((name) => {
		const value = credentials[name];
		return typeof value === 'string' && value.trim() !== '' ? [value.trim()] : [];
	});
}

const HIDDEN = '[token hidden]';

/**
 * A value with every field that holds a secret by its name (isSecretField) hidden, whatever it
 * holds: an answer that echoes Meta's webhook secret shows none, even from a request that did not
 * carry it (a status read of a run whose kickoff did, with node version 1's Webhook Secret option).
 */
export function withSecretFieldsHidden<T>(value: T, parentKey?: string): T {
	if (Array.isArray(value))
		return value.map((entry: unknown) => withSecretFieldsHidden(entry)) as T;
	if (!isPlainObject(value)) return value;
	const entries = Object.entries(value).map(([key, entry]) => [
		key,
		typeof entry === 'string' && isSecretField(key, parentKey)
			? HIDDEN
			: withSecretFieldsHidden(entry, key),
	]);
	return Object.fromEntries(entries) as T;
}

/**
 * The secrets of one request, and how they are hidden in whatever reads its answer.
 * Built once per request from every secret the request carries; the transport applies
 * it to the answer it gives (sendCrewRequest), a success as well as a failure, so no
 * later reader (an error, the output, the retry memory, a log) sees any of them.
 */
export class Redactor {
	/**
	 * Longest first: a secret that holds another (a signed URL and its signature) is hidden whole.
	 */
	readonly secrets: readonly string[];

	constructor(secrets: Iterable<string | undefined>) {
		const kept = new Set<string>();
		for (const secret of secrets)
			if (secret !== undefined && secret.length >= MIN_HIDDEN_SECRET_LENGTH) kept.add(secret);
		this.secrets = [...kept].sort((a, b) => b.length - a.length);
	}

	text(text: string): string {
		return scrubSecrets(text, this.secrets);
	}

	/**
	 * Every text at any depth, but for the fields the node reads as identifiers (see
	 * isIdentifierField); and the fields that hold a secret by their name.
	 */
	value<T>(value: T): T {
		return withSecretFieldsHidden(scrubSecretsDeep(value, this.secrets) as T);
	}

	answer<A extends CrewAnswer>(answer: A): A {
		const hidden = answerWithSecretsHidden(answer, this.secrets) as A;
		return hidden.kind === 'http'
			? { ...hidden, body: withSecretFieldsHidden(hidden.body) }
			: hidden;
	}

	error<E extends Error>(error: E): E {
		return withSecretsHidden(error, this.secrets);
	}
}

/**
 * The redactor of a request: the credential's secrets (the connection's), those its
 * JSON body carries (callback tokens and passwords, Meta's webhook secret, including node
 * version 1's Webhook Secret option, signed resume URLs: records/sentSecrets.ts), and
 * `more`, for a body the transport cannot read (a multipart kickoff carries its JSON
 * body's secrets in form fields).
 */
export function requestRedactor(
	credentialSecrets: readonly string[],
	body?: unknown,
	more: readonly string[] = [],
): Redactor {
	return new Redactor([
		...credentialSecrets,
		...(body === undefined ? [] : secretsSentIn(body)),
		...more,
	]);
}
