const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `/inspect` reports a conversational flow: `flow.chat.conversational`
 * and `flow.chat.handle_turn` both true (what the vendor's chat template checks).
 * Anything else, a crew or a plain flow, cannot chat.
 */
export function isConversationalFlow(inspectBody: unknown): boolean {
	const flow = isObject(inspectBody) ? inspectBody.flow : undefined;
	const chat = isObject(flow) ? flow.chat : undefined;
	return isObject(chat) && chat.conversational === true && chat.handle_turn === true;
}
