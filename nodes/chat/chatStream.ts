import type { IExecuteFunctions } from 'n8n-workflow';

/** What Send Message tells a streamed response: the reply's text as it arrives, nothing when n8n does not stream. */
export interface ChatStream {
	text: (text: string) => Promise<void>;
	/** Closes the item's stream, with a last line (an error) when given. */
	end: (line?: string) => Promise<void>;
}

/** n8n 1.x before streaming has neither method; n8n-core says whether this execution streams. */
function streams(context: IExecuteFunctions): boolean {
	const candidate = context as Partial<Pick<IExecuteFunctions, 'isStreaming' | 'sendChunk'>>;
	return typeof candidate.isStreaming === 'function' && typeof candidate.sendChunk === 'function' && candidate.isStreaming.call(context);
}

/**
 * The flow's text as chunks in the shape n8n's AI Agent sends (`begin`, `item`,
 * `end` per item index), which n8n's Chat Trigger shows as one growing reply.
 * A chunk that cannot be delivered (the person left) never ends the turn.
 */
export function chatStream(context: IExecuteFunctions, itemIndex: number): ChatStream {
	if (!streams(context)) return { text: async () => {}, end: async () => {} };
	let begun = false;
	const send = async (type: 'begin' | 'item' | 'end', content?: string) => {
		try {
			await Promise.resolve(context.sendChunk(type, itemIndex, content));
		} catch {
			// The stream is only a view of the turn: the node's output is what counts.
		}
	};
	const begin = async () => {
		if (begun) return;
		begun = true;
		await send('begin');
	};
	return {
		text: async (text) => {
			await begin();
			await send('item', text);
		},
		end: async (line) => {
			await begin();
			if (line) await send('item', line);
			await send('end');
		},
	};
}
