import type { IExecuteFunctions } from 'n8n-workflow';

import { itemStream } from '../execution/streaming';
import type { ItemStream } from '../execution/streaming';

/**
 * What Send Message tells a streamed response: the reply's text as it arrives, nothing when n8n
 * does not stream.
 */
export type ChatStream = Pick<ItemStream, 'text' | 'end'>;

/**
 * The flow's reply, streamed as the item's text: n8n's Chat Trigger shows it as one growing reply.
 */
export function chatStream(context: IExecuteFunctions, itemIndex: number): ChatStream {
	return itemStream(context, itemIndex);
}
