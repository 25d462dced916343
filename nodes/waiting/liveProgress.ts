import type { IExecuteFunctions } from 'n8n-workflow';

import { itemStream, streams } from '../execution/streaming';
import type { ItemStream } from '../execution/streaming';
import type { CrewStatus } from '../status/crewStatus';
import { NOTHING_SEEN } from './crewProgress';
import { progressLines } from './progressText';
import type { ProgressMemory } from './crewProgress';
import type { RunningKickoff } from './waitForCompletion';
import type { ItemOutcome } from '../itemResults/outputItems';

/**
 * What Kickoff and Wait tells a streamed response while it waits: nothing at all when the execution
 * does not stream.
 */
export interface LiveProgress {
	/** For waitForCompletion; absent when not streaming, so the wait is exactly as before. */
	onStatus?: (kickoff: RunningKickoff, status: CrewStatus) => Promise<void>;
	/**
	 * Closes the kickoff's stream: a line for an outcome the status reads did not tell (a timeout, an
	 * error), then `end`.
	 */
	finish: (kickoff: RunningKickoff, outcome: ItemOutcome) => Promise<void>;
	/**
	 * Closes the kickoff's stream as the execution parks (Wait By: Callback): nothing can stream
	 * after a resume.
	 */
	parked: (kickoff: RunningKickoff) => Promise<void>;
}

const SILENT: LiveProgress = { finish: async () => {}, parked: async () => {} };

/**
 * n8n ends a streamed response when the execution goes to waiting, and the resume runs
 * the node's webhook, which has no way to stream (README, "Live progress").
 */
const parkedLine = (kickoffId: string) =>
	`The crew is still running (kickoff ID ${kickoffId}). This execution now waits for the crew to call back; its result will not stream here. Read it in the execution, or later with Get Status.\n`;

/**
 * Sends each kickoff's progress as its item's text in a streamed response (itemStream):
 * the stream opens at the first status read, each line as it comes.
 */
export function liveProgress(context: IExecuteFunctions): LiveProgress {
	if (!streams(context)) return SILENT;
	const items = new Map<number, { stream: ItemStream; memory: ProgressMemory }>();
	const begun = async (itemIndex: number) => {
		const seen = items.get(itemIndex);
		if (seen) return seen;
		const item = { stream: itemStream(context, itemIndex), memory: NOTHING_SEEN };
		items.set(itemIndex, item);
		await item.stream.begin();
		return item;
	};
	const end = async (itemIndex: number, line?: string) =>
		await (await begun(itemIndex)).stream.end(line);
	return {
		onStatus: async (kickoff, status) => {
			const item = await begun(kickoff.itemIndex);
			const { lines, memory } = progressLines(kickoff.kickoffId, item.memory, status);
			item.memory = memory;
			for (const line of lines) await item.stream.text(line);
		},
		finish: async (kickoff, outcome) => {
			const told = items.get(kickoff.itemIndex)?.memory.state;
			// A completed, failed, stopped or paused crew was told by its last status read.
			const untold =
				'error' in outcome && told !== 'failed' && told !== 'stopped' && told !== 'paused'
					? `${outcome.error.message}\n`
					: undefined;
			await end(kickoff.itemIndex, untold);
		},
		parked: async (kickoff) => await end(kickoff.itemIndex, parkedLine(kickoff.kickoffId)),
	};
}
