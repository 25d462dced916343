import { InvalidParameterError } from '../../../nodes/records/invalidParameter';
import {
	checkUrlOptions,
	isAbsoluteHttpUrl,
	requireHttpUrl,
	URL_OPTIONS,
} from '../../../nodes/records/urlOptions';
import { errorOf } from '../../helpers/invalidParameter';

describe('isAbsoluteHttpUrl', () => {
	it.each([
		'https://example.com/webhook/crew',
		'http://localhost:5678/webhook/3f2b/crew',
		'http://127.0.0.1:9/x?a=1#f',
		'HTTPS://EXAMPLE.COM',
		'https://[::1]:8080/hook',
	])('accepts %s', (url) => {
		expect(isAbsoluteHttpUrl(url)).toBe(true);
	});

	it.each([
		'not a url',
		'example.com/webhook',
		'/webhook/crew',
		'ftp://example.com/x',
		'javascript:alert(1)',
		'http:/example.com',
		'https://',
		'https://exa mple.com/x',
		'https://example.com/a b',
		'mailto:me@example.com',
	])('refuses %s', (url) => {
		expect(isAbsoluteHttpUrl(url)).toBe(false);
	});
});

describe('checkUrlOptions', () => {
	it('checks the three webhook URLs', () => {
		expect(Object.keys(URL_OPTIONS).sort()).toEqual([
			'crewWebhookUrl',
			'stepWebhookUrl',
			'taskWebhookUrl',
		]);
	});

	it('takes empty, blank and absent options as not set, and good URLs as they are', () => {
		expect(() => checkUrlOptions({})).not.toThrow();
		expect(() =>
			checkUrlOptions({ crewWebhookUrl: '', stepWebhookUrl: '   ', taskWebhookUrl: null }),
		).not.toThrow();
		expect(() =>
			checkUrlOptions({ crewWebhookUrl: ' https://example.com/crew ', meta: 'not a url either' }),
		).not.toThrow();
	});

	it.each([
		['crewWebhookUrl', 'not a url', 'Crew Webhook URL is not an absolute http(s) URL: "not a url"'],
		[
			'stepWebhookUrl',
			'example.com/step',
			'Step Webhook URL is not an absolute http(s) URL: "example.com/step"',
		],
		['taskWebhookUrl', 42, 'Task Webhook URL is not an absolute http(s) URL: "42"'],
	])('names %s and shows its value', (name, value, message) => {
		const error = errorOf(() => checkUrlOptions({ [name]: value }));
		expect(error).toBeInstanceOf(InvalidParameterError);
		expect(error.message).toBe(message);
		expect(error.description).toMatch(
			/starting with https:\/\/.*No request was sent for this item/,
		);
	});

	it('shortens a very long value', () => {
		expect(
			errorOf(() => checkUrlOptions({ crewWebhookUrl: 'x'.repeat(5_000) })).message.length,
		).toBeLessThan(300);
	});

	it('checks a URL option added later once its name is listed', () => {
		expect(
			errorOf(() =>
				checkUrlOptions(
					{ eventStreamUrl: 'nope' },
					{ ...URL_OPTIONS, eventStreamUrl: 'Event Stream URL' },
				),
			).message,
		).toBe('Event Stream URL is not an absolute http(s) URL: "nope"');
	});
});

describe('requireHttpUrl', () => {
	it('takes absolute http and https URLs, trimmed', () => {
		expect(requireHttpUrl(' https://n8n.example.com/webhook/x/crew ', 'Event Stream URL')).toBe(
			'https://n8n.example.com/webhook/x/crew',
		);
		expect(requireHttpUrl('http://127.0.0.1:5678/webhook/x', 'Event Stream URL')).toBe(
			'http://127.0.0.1:5678/webhook/x',
		);
	});
	it.each([
		'n8n.example.com/webhook',
		'ftp://example.com/x',
		'/webhook/x',
		'https//missing-colon',
		42,
	])('refuses %p, naming the option', (value) => {
		expect(() => requireHttpUrl(value, 'Human Input Webhook URL')).toThrow(InvalidParameterError);
		expect(() => requireHttpUrl(value, 'Human Input Webhook URL')).toThrow(
			/^Human Input Webhook URL is not an absolute http\(s\) URL/,
		);
	});
});
