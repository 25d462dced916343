import { isPlainObject } from '../records/plainObject';

/**
 * Whether `/inspect` reports a conversational flow: `flow.chat.conversational`
 * and `flow.chat.handle_turn` both true (what the vendor's chat template checks).
 * Anything else, a crew or a plain flow, cannot chat.
 */
export function isConversationalFlow(inspectBody: unknown): boolean {
	const flow = isPlainObject(inspectBody) ? inspectBody.flow : undefined;
	const chat = isPlainObject(flow) ? flow.chat : undefined;
	return isPlainObject(chat) && chat.conversational === true && chat.handle_turn === true;
}
