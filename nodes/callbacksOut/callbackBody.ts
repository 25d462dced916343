import type { IDataObject } from 'n8n-workflow';

import { InvalidParameterError } from '../records/invalidParameter';
import { webhookFields } from '../records/kickoffBody';
import type { KickoffOptions } from '../records/kickoffBody';
import { requireHttpUrl } from '../records/urlOptions';
import { isStreamEventGroup, NONEXISTENT_EVENT_TYPES, STREAM_EVENT_GROUPS } from './streamEvents';

/**
 * The callback secrets of a Crew API credential. The same credential is
 * selected in the Crew node (which sends them to the service) and in the Crew
 * Trigger (which checks them), so the two always agree.
 */
export interface CallbackSecrets {
	bearerToken?: string;
	basicUser?: string;
	basicPassword?: string;
	/** Legacy URLs only: carried in meta, which the service echoes. */
	metaSecret?: string;
	/** Flow feedback requests: the deployment's `whsec_…` signing secret. */
	signingSecret?: string;
}

/**
 * The callback secrets of a Crew API credential's data, each a text or absent (its Base URL and
 * token are not among them).
 */
export function callbackSecretsOf(data: IDataObject): CallbackSecrets {
	const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
	return {
		bearerToken: text(data.bearerToken),
		basicUser: text(data.basicUser),
		basicPassword: text(data.basicPassword),
		metaSecret: text(data.metaSecret),
		signingSecret: text(data.signingSecret),
	};
}

/** The Kickoff's Event Stream option. */
export interface EventStreamOption {
	url?: string;
	/** Group names from STREAM_EVENT_GROUPS. */
	events?: string[];
	/** More type names, comma-separated: unpublished or user-defined events. */
	additionalEvents?: string;
	realtime?: boolean;
}

/** The Kickoff's Human Input Webhook option. */
export interface HumanInputOption {
	url?: string;
	authentication?: 'bearer' | 'basic';
}

export interface CallbackOptions {
	eventStream?: EventStreamOption;
	humanInputWebhook?: HumanInputOption;
}

/**
 * The type names to request: the picked groups' published names, then the additional ones, each
 * once.
 */
export function expandEventTypes(groups: string[], additional = ''): string[] {
	const types = new Set<string>();
	for (const group of groups) {
		if (!isStreamEventGroup(group)) {
			throw new InvalidParameterError(
				`Unknown event group "${group}"`,
				'Pick the event groups from the list.',
			);
		}
		for (const type of STREAM_EVENT_GROUPS[group]) types.add(type);
	}
	for (const name of additional
		.split(',')
		.map((part) => part.trim())
		.filter((part) => part !== '')) {
		if (!/^[A-Za-z0-9_.:-]+$/.test(name)) {
			throw new InvalidParameterError(
				`Additional Event Types has an invalid name: "${name}"`,
				'Give event type names separated by commas, e.g. flow_failed, my_custom_event.',
			);
		}
		const instead = NONEXISTENT_EVENT_TYPES[name];
		if (instead !== undefined) {
			throw new InvalidParameterError(
				`The service never sends "${name}"`,
				`That name is on outdated pages of the vendor's docs only. Use ${instead}.`,
			);
		}
		types.add(name);
	}
	return [...types];
}

function requireSecret(value: string | undefined, what: string): string {
	const text = value?.trim() ?? '';
	if (text === '') {
		throw new InvalidParameterError(
			`The Crew API credential has no ${what}`,
			`Set the ${what} in the Crew API credential (its Callbacks section); the Crew Trigger that receives the calls selects the same credential.`,
		);
	}
	return text;
}

/**
 * The `webhooks` object of a kickoff: where to stream which events, with the bearer token the Crew
 * Trigger checks.
 */
export function eventStreamField(option: EventStreamOption, secrets: CallbackSecrets): IDataObject {
	const url = requireHttpUrl(option.url, 'Event Stream URL');
	const events = expandEventTypes(option.events ?? ['runFinished'], option.additionalEvents);
	if (events.length === 0) {
		// The docs do not say what an empty list means; never send one.
		throw new InvalidParameterError(
			'Event Stream has no events',
			'Pick at least one event group, e.g. Run Finished.',
		);
	}
	return {
		events,
		url,
		realtime: option.realtime === true,
		authentication: {
			strategy: 'bearer',
			token: requireSecret(secrets.bearerToken, 'Callback Bearer Token'),
		},
	};
}

/** The `humanInputWebhook` object of a kickoff, with bearer or basic auth from the credential. */
export function humanInputField(option: HumanInputOption, secrets: CallbackSecrets): IDataObject {
	const url = requireHttpUrl(option.url, 'Human Input Webhook URL');
	if (option.authentication === 'basic') {
		return {
			url,
			authentication: {
				strategy: 'basic',
				username: requireSecret(secrets.basicUser, 'Human Input Basic Auth User'),
				password: requireSecret(secrets.basicPassword, 'Human Input Basic Auth Password'),
			},
		};
	}
	return {
		url,
		authentication: {
			strategy: 'bearer',
			token: requireSecret(secrets.bearerToken, 'Callback Bearer Token'),
		},
	};
}

const isSet = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/**
 * The auth the documented human-input object uses when Human Input Webhook Auth is
 * not set: whichever one the credential holds in full, the Callback Bearer Token
 * first; none when it holds neither, as the option promises that the URL alone
 * needs no credential.
 */
export function implicitHumanInputAuth(
	secrets: CallbackSecrets,
): HumanInputOption['authentication'] {
	if (isSet(secrets.bearerToken)) return 'bearer';
	if (isSet(secrets.basicUser) && isSet(secrets.basicPassword)) return 'basic';
	return undefined;
}

/**
 * The human-input fields of a kickoff. Always the top-level string
 * `humanInputWebhookUrl`, the field the hosted service called in the vendor's live
 * tests (with no Authorization: it takes none). The documented `humanInputWebhook`
 * object as well when it can carry auth: Human Input Webhook Auth was set (then a
 * missing secret is an error), or the credential holds a Callback Bearer Token or
 * both Human Input Basic Auth fields.
 */
export function humanInputFields(option: HumanInputOption, secrets: CallbackSecrets): IDataObject {
	const url = requireHttpUrl(option.url, 'Human Input Webhook URL');
	const fields: IDataObject = { humanInputWebhookUrl: url };
	const authentication = option.authentication ?? implicitHumanInputAuth(secrets);
	if (authentication !== undefined)
		fields.humanInputWebhook = humanInputField({ ...option, authentication }, secrets);
	return fields;
}

/** The Options collection's flat callback options, as the node stores them. */
export interface CallbackOptionValues {
	eventStreamUrl?: string;
	eventStreamEvents?: string[];
	eventStreamAdditionalTypes?: string;
	eventStreamRealtime?: boolean;
	humanInputWebhookUrl?: string;
	humanInputWebhookAuth?: 'bearer' | 'basic';
}

/**
 * Which channels the options ask for. A URL left empty asks for nothing; the
 * channel's other options without its URL are a mistake worth an error.
 */
export function readCallbackOptions(values: CallbackOptionValues): CallbackOptions {
	const options: CallbackOptions = {};
	if (isSet(values.eventStreamUrl)) {
		options.eventStream = {
			url: values.eventStreamUrl,
			events: values.eventStreamEvents,
			additionalEvents: values.eventStreamAdditionalTypes,
			realtime: values.eventStreamRealtime,
		};
	} else if (
		values.eventStreamEvents !== undefined ||
		isSet(values.eventStreamAdditionalTypes) ||
		values.eventStreamRealtime !== undefined
	) {
		throw new InvalidParameterError(
			'Event Stream URL is empty',
			"Give the Crew Trigger's production URL as Event Stream URL, or remove the other Event Stream options.",
		);
	}
	if (isSet(values.humanInputWebhookUrl)) {
		options.humanInputWebhook = {
			url: values.humanInputWebhookUrl,
			authentication: values.humanInputWebhookAuth,
		};
	} else if (values.humanInputWebhookAuth !== undefined) {
		throw new InvalidParameterError(
			'Human Input Webhook URL is empty',
			"Give the Crew Trigger's production URL as Human Input Webhook URL, or remove Human Input Webhook Auth.",
		);
	}
	return options;
}

/**
 * The secret to put in meta for the legacy URLs: the 0.1.0 Webhook Secret option
 * when a version-1 node has one, else the credential's, and only when a legacy URL
 * is set (the one channel it protects; the stream and human input have their own auth).
 */
export function legacyWebhookSecret(
	options: KickoffOptions,
	secrets: CallbackSecrets,
): string | undefined {
	const fromOption = options.webhookSecret?.trim();
	if (fromOption) return fromOption;
	const hasLegacyUrls = Object.keys(webhookFields(options)).length > 0;
	return hasLegacyUrls ? secrets.metaSecret?.trim() || undefined : undefined;
}

/**
 * The callback fields to add to a kickoff body: `webhooks` and the human-input fields, each only
 * when asked for.
 */
export function buildCallbackFields(
	options: CallbackOptions,
	secrets: CallbackSecrets,
): IDataObject {
	const fields: IDataObject = {};
	if (options.eventStream !== undefined)
		fields.webhooks = eventStreamField(options.eventStream, secrets);
	if (options.humanInputWebhook !== undefined)
		Object.assign(fields, humanInputFields(options.humanInputWebhook, secrets));
	return fields;
}
