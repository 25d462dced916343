import { WEBHOOK_SECRET_FIELD } from './kickoffBody';
import { isPlainObject } from './plainObject';

/** The query parameter of a signed URL that makes it one: n8n signs resume URLs with it. */
const SIGNATURE_PARAMETER = 'signature';
/**
 * Shorter values are not taken for signatures (n8n's are 64 hex digits): a short word would be
 * hidden wherever it appears.
 */
const MIN_SIGNATURE_LENGTH = 16;

/**
 * The fields that name a URL the service calls back: the only places a signed URL of ours is sent.
 */
const isCallbackUrlField = (key: string | undefined): boolean =>
	key === 'url' || (key !== undefined && key.endsWith('WebhookUrl'));

/**
 * A field that holds a secret by its name, wherever it is: the token or password of an
 * `authentication` object (a callback channel's) and Meta's webhook secret. The node puts
 * them there; a service that echoes them back (the live status record repeats Meta) shows them
 * under the same names.
 */
export function isSecretField(key: string | undefined, parentKey: string | undefined): boolean {
	return (
		(parentKey === 'authentication' && (key === 'token' || key === 'password')) ||
		(parentKey === 'meta' && key === WEBHOOK_SECRET_FIELD)
	);
}

function signatureOf(text: string): string | undefined {
	if (!/^https?:\/\//i.test(text)) return undefined;
	try {
		const signature = new URL(text).searchParams.get(SIGNATURE_PARAMETER) ?? '';
		return signature.length >= MIN_SIGNATURE_LENGTH ? signature : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The secrets a kickoff or resume body carries to the service: the token and password
 * of each `authentication` object (the event stream's, the human-input webhook's, a
 * Wait By: Callback crew's own), Meta's webhook secret, and a signed callback URL (n8n's
 * resume URL) with its signature. An answer that quotes the request must show none of
 * these, not even in part.
 */
export function secretsSentIn(body: unknown): string[] {
	const secrets = new Set<string>();
	const visit = (value: unknown, key: string | undefined, parentKey: string | undefined): void => {
		if (typeof value === 'string') {
			if (isSecretField(key, parentKey)) secrets.add(value);
			// A signed URL whole (hidden first, so it is not shown without its signature), then the
			// signature alone.
			const signature = isCallbackUrlField(key) ? signatureOf(value) : undefined;
			if (signature !== undefined) secrets.add(value).add(signature);
			return;
		}
		if (Array.isArray(value)) value.forEach((entry) => visit(entry, undefined, key));
		else if (isPlainObject(value))
			for (const [name, entry] of Object.entries(value)) visit(entry, name, key);
	};
	// The inputs are the user's data: an input named token, or holding a signed URL, is not a secret
	// of ours.
	if (isPlainObject(body))
		for (const [name, entry] of Object.entries(body))
			if (name !== 'inputs') visit(entry, name, undefined);
	return [...secrets].filter((secret) => secret.trim().length >= 4);
}
