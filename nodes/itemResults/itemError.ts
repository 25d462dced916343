import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { InvalidParameterError } from '../records/invalidParameter';

/** For an error no part of the node foresaw: a bug, or n8n failing underneath the node. */
export const UNEXPECTED_ERROR_DESCRIPTION =
	"The Crew node did not expect this error. Run the workflow again; if it happens again, report it to the node's maintainers with this message.";

/**
 * The error of one item as it leaves the node: always a NodeApiError or
 * NodeOperationError that carries the item's index and says what to do, so that
 * n8n shows it on the right item (and on the error output). The node's own
 * errors pass as they are; a parameter problem found by the pure helpers gets
 * its description; anything else, such as an expression n8n could not resolve,
 * is wrapped and keeps its own description when it has one.
 */
export function toItemError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	if (error instanceof InvalidParameterError) {
		return new NodeOperationError(node, error.message, {
			itemIndex,
			description: error.description,
		});
	}
	const cause = error instanceof Error ? error : new Error(String(error));
	const { description } = cause as { description?: unknown };
	return new NodeOperationError(node, cause, {
		itemIndex,
		description:
			typeof description === 'string' && description !== ''
				? description
				: UNEXPECTED_ERROR_DESCRIPTION,
	});
}
