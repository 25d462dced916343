/**
 * A problem with what the user gave the node, found before any request is sent.
 * The pure helpers that read parameters have no node to attach an error to; the
 * operations turn this into the item's NodeOperationError, with this description (itemResults/itemError.ts).
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
