/**
 * Token hygiene, checked on every run of the node in the suite: the
 * credential's token and callback secrets are in no output item, no error and
 * no log line.
 */
import { CrewApi } from '../../credentials/CrewApi.credentials';

/**
 * Everything a value carries that n8n may store, send to the editor or log:
 * JSON as n8n's execution store writes it, with errors expanded to all their
 * own properties (message, stack, cause, context, the request options an HTTP
 * client attaches) and cycles cut.
 */
export function serializeForLeakCheck(value: unknown): string {
	const seen = new WeakSet<object>();
	const expand = (part: unknown): unknown => {
		if (part instanceof Error) {
			const plain: Record<string, unknown> = { message: part.message, stack: part.stack };
			for (const key of Object.getOwnPropertyNames(part))
				plain[key] = (part as unknown as Record<string, unknown>)[key];
			return plain;
		}
		return part;
	};
	return (
		JSON.stringify(expand(value), (_, part: unknown) => {
			const expanded = expand(part);
			if (typeof expanded === 'bigint') return String(expanded);
			if (typeof expanded === 'object' && expanded !== null) {
				if (seen.has(expanded)) return '[circular]';
				seen.add(expanded);
			}
			return expanded;
		}) ?? ''
	);
}

/** Kept under its old name: the tests ask it of the errors they receive. */
export const serializeError = serializeForLeakCheck;

/** Fails when the secret is in the text: as it is, or JSON-escaped as serialized text shows it. */
export function assertTokenHidden(token: string, what: string, text: string, secretName = 'token') {
	const secret = token.trim();
	if (
		secret.length >= 4 &&
		(text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)))
	) {
		throw new Error(`The credential's ${secretName} appears in the node's ${what}`);
	}
}

/** The secrets a Crew API credential holds: every password field of the credential type, read from it. */
export const CREDENTIAL_PASSWORD_FIELDS = new CrewApi().properties
	.filter((property) => property.typeOptions?.password === true)
	.map((property) => property.name);

/** Fails when any secret of the credential appears in the text. */
export function assertSecretsHidden(credentials: object, what: string, text: string) {
	for (const field of CREDENTIAL_PASSWORD_FIELDS) {
		const secret = (credentials as Record<string, unknown>)[field];
		if (typeof secret === 'string') assertTokenHidden(secret, what, text, field);
	}
}

/** A string under one of these keys of a request body is a secret the request carried (a callback token or password, Meta's webhook secret). */
const SECRET_KEYS = new Set(['token', 'password', 'webhook_secret']);

/**
 * The secrets the run's JSON request bodies carried: callback tokens and passwords,
 * Meta's webhook secret, and the signature of a signed URL (n8n's resume URL) with the
 * URL whole. Read here on its own, not with the node's code, so that a secret the node
 * forgets to hide is still found. Those the workflow holds as a parameter (a version-1
 * node's Webhook Secret, a URL the user pasted) are left out: they are saved with the
 * workflow as the user wrote them, which is why later versions read secrets from the credential.
 */
export function secretsTheRunSent(
	record: { sentBodies: readonly string[] },
	workflowParameters: unknown,
): string[] {
	const written = JSON.stringify(workflowParameters ?? null);
	const found = new Set<string>();
	const visit = (value: unknown, key: string | undefined) => {
		if (typeof value === 'string') {
			if (key !== undefined && SECRET_KEYS.has(key)) found.add(value);
			const signature = /^https?:\/\/\S+[?&]signature=([^&#\s]{16,})/.exec(value)?.[1];
			if (signature !== undefined) found.add(value).add(decodeURIComponent(signature));
			return;
		}
		if (Array.isArray(value)) value.forEach((entry) => visit(entry, undefined));
		else if (typeof value === 'object' && value !== null)
			for (const [name, entry] of Object.entries(value)) visit(entry, name);
	};
	for (const body of record.sentBodies) {
		try {
			const parsed = JSON.parse(body) as Record<string, unknown>;
			// The inputs are the user's data, not secrets of the node.
			for (const [name, entry] of Object.entries(parsed ?? {}))
				if (name !== 'inputs') visit(entry, name);
		} catch {
			// Not JSON: nothing to read.
		}
	}
	return [...found].filter(
		(secret) =>
			secret.trim().length >= 4 &&
			!written.includes(secret) &&
			!written.includes(JSON.stringify(secret).slice(1, -1)),
	);
}

/**
 * The suite-wide check of one run: no secret of the credential, and no secret a request
 * body of the run carried (secretsTheRunSent), in what n8n keeps of it (`value`: output,
 * errors, run data) or in its logs.
 */
export function assertRunHidesSecrets(
	credentials: object,
	what: string,
	value: unknown,
	record: { logs: readonly string[]; sentBodies: readonly string[] },
	workflowParameters: unknown,
) {
	const kept = serializeForLeakCheck(value);
	const logs = record.logs.join('\n');
	assertSecretsHidden(credentials, what, kept);
	assertSecretsHidden(credentials, 'logs', logs);
	for (const secret of secretsTheRunSent(record, workflowParameters)) {
		assertTokenHidden(secret, what, kept, 'secret a request of the run carried');
		assertTokenHidden(secret, 'logs', logs, 'secret a request of the run carried');
	}
}
