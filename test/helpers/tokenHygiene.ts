/**
 * Token hygiene, checked on every run of the node in the suite: the
 * credential's token and callback secrets are in no output item, no error and
 * no log line.
 */

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

export function assertTokenHidden(token: string, what: string, text: string, secretName = 'token') {
	if (token.trim().length >= 4 && text.includes(token.trim())) {
		throw new Error(`The credential's ${secretName} appears in the node's ${what}`);
	}
}

/** The secrets a Crew API credential holds: its token and the callback secrets of its Callbacks section. */
const SECRET_FIELDS = ['token', 'bearerToken', 'basicPassword', 'metaSecret', 'signingSecret'] as const;

/** Fails when any secret of the credential appears in the text. */
export function assertSecretsHidden(credentials: Partial<Record<(typeof SECRET_FIELDS)[number], string>>, what: string, text: string) {
	for (const field of SECRET_FIELDS) {
		const secret = credentials[field];
		if (typeof secret === 'string') assertTokenHidden(secret, what, text, field);
	}
}
