import type { IDataObject } from 'n8n-workflow';

import { WEBHOOK_SECRET_FIELD } from '../records/kickoffBody';
import { isPlainObject } from '../records/plainObject';
import { Redactor } from '../transport/redactor';

/** A value with `webhook_secret` left out of every `meta` object in it, at any depth. */
function withoutMetaSecret(value: unknown, key?: string): unknown {
	if (Array.isArray(value)) return value.map((entry) => withoutMetaSecret(entry));
	if (!isPlainObject(value)) return value;
	const entries = Object.entries(value).filter(
		([name]) => !(key === 'meta' && name === WEBHOOK_SECRET_FIELD),
	);
	return Object.fromEntries(entries.map(([name, entry]) => [name, withoutMetaSecret(entry, name)]));
}

/**
 * The Crew Trigger's item without any secret: `meta.webhook_secret` left out wherever a
 * `meta` is (a legacy call's, and the human-input call's, which echoes the kickoff's meta
 * whole: a Kickoff with a legacy Crew Webhook URL put the Legacy Webhook Secret there), and
 * every secret of the trigger's credential hidden in every text (as the transport hides them:
 * transport/redactor.ts). Applied to every channel's items.
 */
export function withoutSecrets(item: IDataObject, secrets: readonly string[]): IDataObject {
	return new Redactor(secrets).value(withoutMetaSecret(item) as IDataObject);
}
