/**
 * A problem with what the user gave the node, found before any request is sent. The pure helpers
 * that read parameters have no node to attach an error to; the operations turn this into the item's
 * NodeOperationError, with this description (itemResults/itemError.ts).
 */
export class InvalidParameterError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
		this.name = 'InvalidParameterError';
	}
}

/** A value in an error message is cut here: the message stays readable whatever was given. */
const MAX_SHOWN_LENGTH = 200;

/**
 * A parameter's value as an invalid-parameter message quotes it: text as it is, anything else as
 * JSON, cut short.
 */
export function shownValue(value: unknown): string {
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	return text.length > MAX_SHOWN_LENGTH ? `${text.slice(0, MAX_SHOWN_LENGTH - 1)}…` : text;
}
