import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CrewStatus } from '../status/crewStatus';
import { NOTHING_SEEN, progressLines } from './crewProgress';
import type { ProgressMemory } from './crewProgress';
import type { RunningKickoff } from './waitForCompletion';
import type { ItemOutcome } from '../execution/operationTools';

/** What Kickoff and Wait tells a streamed response while it waits: nothing at all when the execution does not stream. */
export interface LiveProgress {
	/** For waitForCompletion; absent when not streaming, so the wait is exactly as before. */
	onStatus?: (kickoff: RunningKickoff, status: CrewStatus) => Promise<void>;
	/** Closes the kickoff's stream: a line for an outcome the status reads did not tell (a timeout, an error), then `end`. */
	finish: (kickoff: RunningKickoff, outcome: ItemOutcome) => Promise<void>;
	/** Closes the kickoff's stream as the execution parks (Wait By: Callback): nothing can stream after a resume. */
	parked: (kickoff: RunningKickoff) => Promise<void>;
}

const SILENT: LiveProgress = { finish: async () => {}, parked: async () => {} };

/**
 * n8n ends a streamed response when the execution goes to waiting, and the resume runs
 * the node's webhook, which has no way to stream (README, "Live progress").
 */
const parkedLine = (kickoffId: string) =>
	`The crew is still running (kickoff ID ${kickoffId}). This execution now waits for the crew to call back; its result will not stream here. Read it in the execution, or later with Get Status.\n`;

type ChunkType = 'begin' | 'item' | 'end';

/**
 * n8n 1.x before streaming has neither method; n8n-core says whether this
 * execution streams (a streaming Webhook or Chat Trigger, in a mode that allows it).
 */
function streams(context: IExecuteFunctions): boolean {
	const candidate = context as Partial<Pick<IExecuteFunctions, 'isStreaming' | 'sendChunk'>>;
	return typeof candidate.isStreaming === 'function' && typeof candidate.sendChunk === 'function' && candidate.isStreaming.call(context);
}

/**
 * Sends each kickoff's progress as chunks in the shape n8n's AI Agent uses: `begin`,
 * `item` text, `end`, per item index. The chunks of one kickoff go out one after the
 * other; a chunk that cannot be delivered (the client left) never ends the wait.
 */
export function liveProgress(context: IExecuteFunctions): LiveProgress {
	if (!streams(context)) return SILENT;
	const memories = new Map<number, ProgressMemory>();
	const send = async (type: ChunkType, itemIndex: number, content?: IDataObject | string) => {
		try {
			// Typed void in n8n-workflow; n8n-core's sendChunk returns the hook's promise.
			await Promise.resolve(context.sendChunk(type, itemIndex, content));
		} catch {
			// The stream is only a view of the wait: the node's output is what counts.
		}
	};
	const begun = async (itemIndex: number) => {
		const seen = memories.get(itemIndex);
		if (seen) return seen;
		memories.set(itemIndex, NOTHING_SEEN);
		await send('begin', itemIndex);
		return NOTHING_SEEN;
	};
	const end = async (itemIndex: number, line?: string) => {
		await begun(itemIndex);
		if (line) await send('item', itemIndex, line);
		await send('end', itemIndex);
	};
	return {
		onStatus: async (kickoff, status) => {
			const { lines, memory } = progressLines(kickoff.kickoffId, await begun(kickoff.itemIndex), status);
			memories.set(kickoff.itemIndex, memory);
			for (const line of lines) await send('item', kickoff.itemIndex, line);
		},
		finish: async (kickoff, outcome) => {
			const told = memories.get(kickoff.itemIndex)?.state;
			// A completed, failed, stopped or paused crew was told by its last status read.
			const untold = 'error' in outcome && told !== 'failed' && told !== 'stopped' && told !== 'paused' ? `${outcome.error.message}\n` : undefined;
			await end(kickoff.itemIndex, untold);
		},
		parked: async (kickoff) => await end(kickoff.itemIndex, parkedLine(kickoff.kickoffId)),
	};
}
