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
			for (const key of Object.getOwnPropertyNames(part)) plain[key] = (part as unknown as Record<string, unknown>)[key];
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
	if (secret.length >= 4 && (text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)))) {
		throw new Error(`The credential's ${secretName} appears in the node's ${what}`);
	}
}

/** The secrets a Crew API credential holds: every password field of the credential type, read from it. */
export const CREDENTIAL_PASSWORD_FIELDS = new CrewApi().properties.filter((property) => property.typeOptions?.password === true).map((property) => property.name);

/** Fails when any secret of the credential appears in the text. */
export function assertSecretsHidden(credentials: object, what: string, text: string) {
	for (const field of CREDENTIAL_PASSWORD_FIELDS) {
		const secret = (credentials as Record<string, unknown>)[field];
		if (typeof secret === 'string') assertTokenHidden(secret, what, text, field);
	}
}
