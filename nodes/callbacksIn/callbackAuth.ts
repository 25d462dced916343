import { createHash, timingSafeEqual } from 'crypto';

import type { CallbackSecrets } from '../callbacksOut/callbackBody';

/**
 * Compares two secrets in constant time. Both are hashed first, so neither the
 * content nor the length of the expected secret shows in the time taken.
 */
export function sameSecret(given: string, expected: string): boolean {
	const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
	return timingSafeEqual(digest(given), digest(expected)) && expected !== '';
}

/**
 * What the Crew Trigger checks callers against: the Crew API credential's callback secrets, the
 * ones the Crew node sends.
 */
export type TriggerSecrets = CallbackSecrets;

export type AuthCheck = { ok: true; scheme: 'bearer' | 'basic' } | { ok: false; reason: string };

/**
 * Checks an Authorization header as the service sends it for the event stream
 * and the human-input webhook: `Bearer <token>` (the scheme case-insensitive,
 * RFC 7235) or `Basic base64(user:password)`.
 */
export function checkAuthorization(header: string | undefined, secrets: TriggerSecrets): AuthCheck {
	const bearerToken = secrets.bearerToken?.trim() ?? '';
	const basicUser = secrets.basicUser ?? '';
	const basicPassword = secrets.basicPassword ?? '';
	if (bearerToken === '' && basicUser === '') {
		return {
			ok: false,
			reason: 'the Crew Trigger has no Crew API credential with a Callback Bearer Token',
		};
	}
	const match = /^(\w+) +(\S+)\s*$/.exec(header ?? '');
	if (!match) return { ok: false, reason: 'no Authorization header' };
	const [, scheme, value] = match;
	if (scheme.toLowerCase() === 'bearer' && bearerToken !== '' && sameSecret(value, bearerToken))
		return { ok: true, scheme: 'bearer' };
	if (scheme.toLowerCase() === 'basic' && basicUser !== '') {
		const decoded = Buffer.from(value, 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		// Both compared every time, so a right user name takes no longer to refuse than a wrong one.
		const userOk = sameSecret(colon < 0 ? decoded : decoded.slice(0, colon), basicUser);
		const passwordOk = sameSecret(colon < 0 ? '' : decoded.slice(colon + 1), basicPassword);
		if (userOk && passwordOk && colon >= 0) return { ok: true, scheme: 'basic' };
	}
	return { ok: false, reason: 'wrong credentials in the Authorization header' };
}
