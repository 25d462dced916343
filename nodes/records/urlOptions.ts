import { InvalidParameterError, shownValue } from './invalidParameter';

/**
 * Options whose value is an address the service will call, by name, with the
 * label the user sees. A new URL option is checked once its name is here.
 */
export const URL_OPTIONS: Readonly<Record<string, string>> = {
	crewWebhookUrl: 'Crew Webhook URL',
	stepWebhookUrl: 'Step Webhook URL',
	taskWebhookUrl: 'Task Webhook URL',
};

/**
 * An absolute http(s) URL: the service cannot call anything else, and says so only as a confusing
 * 422.
 */
export function isAbsoluteHttpUrl(text: string): boolean {
	if (!/^https?:\/\/[^\s/?#]+/i.test(text) || /\s/.test(text)) return false;
	try {
		return ['http:', 'https:'].includes(new URL(text).protocol);
	} catch {
		return false;
	}
}

/** The URL an option holds, trimmed, or an error naming the option and showing its value. */
export function requireHttpUrl(value: unknown, label: string): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (isAbsoluteHttpUrl(text)) return text;
	throw new InvalidParameterError(
		`${label} is not an absolute http(s) URL: "${shownValue(value)}"`,
		`Give the full address the service should call, starting with https:// (or http://), e.g. https://example.com/webhook/crew. Leave ${label} empty to not use it. No request was sent for this item.`,
	);
}

/**
 * Throws for the first URL option that is set but not an absolute http(s)
 * URL, naming it and showing its value. Empty or absent means not set.
 */
export function checkUrlOptions(
	options: object,
	urlOptions: Readonly<Record<string, string>> = URL_OPTIONS,
): void {
	for (const [name, label] of Object.entries(urlOptions)) {
		const value = (options as Record<string, unknown>)[name];
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
			continue;
		requireHttpUrl(value, label);
	}
}
