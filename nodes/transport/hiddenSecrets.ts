import type { CrewAnswer } from './answers';

/**
 * The shortest secret that is hidden. A shorter one is left: it would hide ordinary
 * words, and no secret field of the credential is that short by choice.
 */
export const MIN_HIDDEN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of the secret, e.g. in a debugging proxy's page that echoes
 * headers: as it is, and as a quoted request shows it (JSON-escaped, URL-encoded,
 * HTML-escaped). A secret under 4 characters is left: it would hide ordinary words.
 */
export function scrubSecret(text: string, secret: string | undefined): string {
	if (!secret || secret.length < MIN_HIDDEN_SECRET_LENGTH) return text;
	const jsonEscaped = JSON.stringify(secret).slice(1, -1);
	const forms = new Set([
		secret,
		jsonEscaped,
		// Python's json.dumps, the vendor's language, writes every non-ASCII character as \uXXXX.
		jsonEscaped.replace(
			/[\u0080-\uffff]/g,
			(character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
		),
		encodeURIComponent(secret),
		// A proxy's HTML page.
		secret
			.replace(/&/g, '&amp;')
			.replace(/</g, '&lt;')
			.replace(/>/g, '&gt;')
			.replace(/"/g, '&quot;')
			.replace(/'/g, '&#39;'),
	]);
	return [...forms].reduce(
		(scrubbed, form) =>
			scrubbed.includes(form) ? scrubbed.split(form).join('[token hidden]') : scrubbed,
		text,
	);
}

/** Every secret replaced in a text: the credential's, and a crew's own. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
	return secrets.reduce<string>((scrubbed, secret) => scrubSecret(scrubbed, secret), text);
}

/**
 * A field the node reads as an identifier and hands back to the service byte for byte
 * (`kickoff_id`, `id`, `task_id`, `session_id`, `executionId`…). Its value is the
 * service's own, never a secret of a request; hiding a secret of 4 characters that
 * happens to match part of a UUID would break the run's ID, so these are left whole.
 */
export function isIdentifierField(name: string): boolean {
	return name === 'id' || /(?:_id|Id|ID)$/.test(name);
}

/**
 * A value with every secret replaced in its texts, at any depth, but for identifier fields
 * (isIdentifierField).
 */
export function scrubSecretsDeep(
	value: unknown,
	secrets: readonly (string | undefined)[],
): unknown {
	if (typeof value === 'string') return scrubSecrets(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => scrubSecretsDeep(entry, secrets));
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(
			Object.entries(value).map(([name, entry]) => [
				name,
				typeof entry === 'string' && isIdentifierField(name)
					? entry
					: scrubSecretsDeep(entry, secrets),
			]),
		);
	}
	return value;
}

/**
 * The error with every secret replaced wherever n8n keeps or shows it: its message, description,
 * stack and cause, the answer it was built from, its context. For a request that carried more
 * secrets than the API token (a kickoff's callback secrets, a resume URL), whose answer may quote
 * it.
 */
export function withSecretsHidden<E extends Error>(
	error: E,
	secrets: readonly (string | undefined)[],
	seen = new Set<Error>(),
): E {
	// A cause may lead back to the error.
	if (seen.has(error)) return error;
	seen.add(error);
	const fields = error as E & {
		description?: unknown;
		errorResponse?: unknown;
		context?: unknown;
		messages?: unknown;
		cause?: unknown;
	};
	fields.message = scrubSecrets(fields.message, secrets);
	if (fields.stack !== undefined) fields.stack = scrubSecrets(fields.stack, secrets);
	for (const name of ['description', 'errorResponse', 'context', 'messages'] as const) {
		if (fields[name] !== undefined && fields[name] !== null)
			fields[name] = scrubSecretsDeep(fields[name], secrets);
	}
	// n8n saves a cause's name and message with the execution.
	if (fields.cause instanceof Error) withSecretsHidden(fields.cause, secrets, seen);
	return error;
}

/**
 * An answer with every secret hidden: a network failure's message, an HTTP answer's body,
 * a success's as well as a failure's (identifier fields, such as a kickoff_id, are left whole:
 * see isIdentifierField). The transport's Redactor applies it to every answer it gives
 * (redactor.ts), so no caller needs to.
 */
export function answerWithSecretsHidden(
	answer: CrewAnswer,
	secrets: readonly (string | undefined)[],
): CrewAnswer {
	if (answer.kind === 'network')
		return { ...answer, message: scrubSecrets(answer.message, secrets) };
	return { ...answer, body: scrubSecretsDeep(answer.body, secrets) };
}
