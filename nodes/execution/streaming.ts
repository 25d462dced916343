import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether this execution streams its response (a streaming Webhook or Chat Trigger, in a mode
 * that allows it): n8n-core says so; n8n 1.x before streaming has neither method.
 */
export function streams(context: IExecuteFunctions): boolean {
	const candidate = context as Partial<Pick<IExecuteFunctions, 'isStreaming' | 'sendChunk'>>;
	return (
		typeof candidate.isStreaming === 'function' &&
		typeof candidate.sendChunk === 'function' &&
		candidate.isStreaming.call(context)
	);
}

/** One item's part of a streamed response. */
export interface ItemStream {
	/** Opens the item's stream, once. */
	begin: () => Promise<void>;
	text: (text: string) => Promise<void>;
	/** Closes the item's stream, with a last line when given. */
	end: (line?: string) => Promise<void>;
}

const SILENT: ItemStream = { begin: async () => {}, text: async () => {}, end: async () => {} };

/**
 * An item's text as chunks in the shape n8n's AI Agent sends them (`begin`, `item`, `end`
 * per item index), which n8n's Chat Trigger shows as one growing reply; nothing at all when
 * the execution does not stream. A chunk that cannot be delivered (the person left) is
 * dropped: the stream is only a view, the node's output is what counts.
 */
export function itemStream(context: IExecuteFunctions, itemIndex: number): ItemStream {
	if (!streams(context)) return SILENT;
	let begun = false;
	const send = async (type: 'begin' | 'item' | 'end', content?: string) => {
		try {
			// Typed void in n8n-workflow; n8n-core's sendChunk returns the hook's promise.
			await Promise.resolve(context.sendChunk(type, itemIndex, content));
		} catch {
			// Dropped, as said above.
		}
	};
	const begin = async () => {
		if (begun) return;
		begun = true;
		await send('begin');
	};
	return {
		begin,
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
