/**
 * A persisted flow's state id: crewAI gives every flow state a UUID `id`, and
 * the service takes `restoreFromStateId` as one. Canonical text form only
 * (8-4-4-4-12 hex digits, any case, any version): it is what the service sends.
 */
const STATE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isStateId(value: unknown): value is string {
	return typeof value === 'string' && STATE_ID_PATTERN.test(value);
}
