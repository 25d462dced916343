/**
 * Live progress: Kickoff and Wait in an execution n8n streams (a Webhook in
 * streaming response mode, a Chat Trigger) sends the crew's progress as chunks.
 * n8n-core's own isStreaming() and sendChunk() decide and send; the harness sets
 * up what n8n's WorkflowRunner does for a streaming response (StreamingSetup).
 */
import type { StructuredChunk } from 'n8n-workflow';

import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode, runCrewWorkflow } from '../helpers/crewWorkflow';
import type { StreamingSetup } from '../helpers/crewWorkflow';
import { runUntilParked } from '../helpers/waitingExecution';

/**
 * The service's clock moves one step per status read, not with real time: each read
 * sees the crew a little further on, so the chunks do not depend on the machine's speed.
 */
const STEP_MS = 100;
const DURATION_MS = 600;
const crew = useCrewService({
	now: () => (crew?.service ? crew.service.count('status') * STEP_MS : 0),
	durationMs: DURATION_MS,
});

const waitFor = (inputsJson: string, options: object = {}) => ({
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson,
	options: { pollInterval: 0.1, timeout: 20, ...options },
});

interface SeenChunk {
	chunk: StructuredChunk;
	/** The crew's state on the service when the chunk arrived. */
	crewState: string | undefined;
}

/** A streaming execution as n8n starts it for a Webhook in streaming response mode, recording each chunk as it arrives. */
function streamingWebhook(overrides: Partial<StreamingSetup> = {}) {
	const seen: SeenChunk[] = [];
	const streaming: StreamingSetup = {
		streamingEnabled: true,
		mode: 'webhook',
		onChunk: (chunk) => seen.push({ chunk, crewState: crew.service.runs.at(-1)?.state }),
		...overrides,
	};
	return { streaming, seen };
}

/** Item index → the chunks of that item, type and text. */
function chunksByItem(seen: SeenChunk[]) {
	const byItem = new Map<number, Array<{ type: string; content?: string }>>();
	for (const { chunk } of seen) {
		const list = byItem.get(chunk.metadata.itemIndex) ?? [];
		list.push({
			type: chunk.type,
			...(chunk.content !== undefined ? { content: chunk.content } : {}),
		});
		byItem.set(chunk.metadata.itemIndex, list);
	}
	return byItem;
}

describe("Kickoff and Wait streams the crew's progress when the execution streams", () => {
	it.each(['contract', 'wild'] as const)(
		'begin, the progress while the crew runs, the final answer last, end (%s shape)',
		async (recordShape) => {
			crew.service.configure({ recordShape });
			const { streaming, seen } = streamingWebhook();
			const { output } = await runCrewNode({
				parameters: waitFor('{"topic": "AI"}'),
				credentials: crew.credentials,
				streaming,
			});
			const [run] = crew.service.runs;

			const chunks = chunksByItem(seen).get(0) ?? [];
			expect(chunks[0]).toEqual({ type: 'begin' });
			expect(chunks.at(-1)).toEqual({ type: 'end' });
			expect(chunks.at(-2)).toEqual({ type: 'item', content: 'Crew finished: topic=AI' });
			expect(chunks.at(-3)).toEqual({ type: 'item', content: 'The crew completed\n\n' });
			const texts = chunks.slice(1, -1).map((chunk) => chunk.content ?? '');
			// Read as one text, as n8n's chat shows it: the kickoff ID once, on the first line; each
			// progress line ends with a Markdown hard break; the answer after a blank line, last.
			const whole = texts.join('');
			expect(texts[0]).toMatch(
				new RegExp(`^The crew (is queued|is running) \\(kickoff ID ${run.kickoffId}\\)  \n$`),
			);
			expect(whole.split(run.kickoffId)).toHaveLength(2);
			expect(texts.slice(0, -2).every((text) => text.endsWith('  \n'))).toBe(true);
			expect(whole.endsWith('The crew completed\n\nCrew finished: topic=AI')).toBe(true);
			expect(whole.match(/The crew is running/g)).toHaveLength(1);
			if (recordShape === 'contract') {
				// Every task by name, in the order the crew ran them, each once.
				expect(texts.filter((text) => text.startsWith('Task finished:'))).toEqual([
					'Task finished: research_task (1 of 3)  \n',
					'Task finished: analysis_task (2 of 3)  \n',
					'Task finished: report_task (3 of 3)  \n',
				]);
				expect(texts).toContain('Working on analysis_task (1 of 3 tasks done)  \n');
			} else {
				expect(texts).toContain('Working on task 2 of 3  \n');
				expect(texts).toContain('Task finished: report  \n');
			}
			// Progress reached the stream while the crew was still running; the answer once it had completed.
			expect(
				seen.filter(
					({ chunk, crewState }) =>
						chunk.type === 'item' && (crewState === 'running' || crewState === 'pending'),
				).length,
			).toBeGreaterThanOrEqual(3);
			expect(seen.find(({ chunk }) => chunk.content === 'Crew finished: topic=AI')?.crewState).toBe(
				'completed',
			);
			expect(
				seen.every(
					({ chunk }) => chunk.metadata.nodeName === 'Crew' && chunk.metadata.itemIndex === 0,
				),
			).toBe(true);

			// The output is what it is without streaming.
			expect(output).toEqual([
				{
					json: expect.objectContaining({
						kickoff_id: run.kickoffId,
						state: 'completed',
						result: 'Crew finished: topic=AI',
					}),
					pairedItem: { item: 0 },
				},
			]);
		},
	);

	it('streams each item under its own index, each from begin to end, outputs in input order', async () => {
		const { streaming, seen } = streamingWebhook();
		const { output } = await runCrewNode({
			parameters: (itemIndex: number) => waitFor(`{"topic": "topic ${itemIndex}"}`),
			credentials: crew.credentials,
			items: items(3),
			streaming,
		});
		const byItem = chunksByItem(seen);
		expect([...byItem.keys()].sort()).toEqual([0, 1, 2]);
		for (const [itemIndex, chunks] of byItem) {
			expect(chunks[0]).toEqual({ type: 'begin' });
			expect(chunks.filter((chunk) => chunk.type === 'begin')).toHaveLength(1);
			expect(chunks.at(-2)).toEqual({
				type: 'item',
				content: `Crew finished: topic=topic ${itemIndex}`,
			});
			expect(chunks.at(-1)).toEqual({ type: 'end' });
		}
		expect(output.map((item) => item.json.result)).toEqual([
			'Crew finished: topic=topic 0',
			'Crew finished: topic=topic 1',
			'Crew finished: topic=topic 2',
		]);
	});

	it('a failed crew: its reason once, then end; with Continue On Fail the error item as without streaming', async () => {
		crew.service.configure({
			plan: () => ({ outcome: 'failure', error: 'Task execution failed: invalid API key' }),
		});
		const { streaming, seen } = streamingWebhook();
		const { output } = await runCrewNode({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
			continueOnFail: true,
			streaming,
		});
		const [run] = crew.service.runs;
		const chunks = chunksByItem(seen).get(0) ?? [];
		expect(chunks.slice(-2)).toEqual([
			// The kickoff ID was named on the first line; the item's error names it again.
			{ type: 'item', content: 'The crew failed: Task execution failed: invalid API key  \n' },
			{ type: 'end' },
		]);
		expect(chunks.filter((chunk) => chunk.content?.includes('invalid API key'))).toHaveLength(1);
		expect(output[0].json.error).toBe(
			`The crew failed (kickoff ID ${run.kickoffId}): Task execution failed: invalid API key`,
		);
	});

	it('a timeout: the timeout message with the kickoff ID, then end', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		const { streaming, seen } = streamingWebhook();
		await runCrewWorkflow({
			parameters: waitFor('{"topic": "AI"}', { timeout: 0.6 }),
			credentials: crew.credentials,
			continueOnFail: true,
			streaming,
		});
		const [run] = crew.service.runs;
		const chunks = chunksByItem(seen).get(0) ?? [];
		expect(chunks.at(-1)).toEqual({ type: 'end' });
		expect(chunks.at(-2)?.content).toBe(
			`The crew did not finish within 0.6 seconds (kickoff ID ${run.kickoffId}); it was last running\n`,
		);
	});
});

describe('Wait By: Callback streams its first phase (polling before it parks)', () => {
	const byCallback = (options: object) => ({
		operation: 'kickoffAndWait',
		waitBy: 'callback',
		inputsMode: 'json',
		inputsJson: '{"topic": "AI"}',
		options: { pollInterval: 0.1, timeout: 60, ...options },
	});
	// Nothing listens there: the crew's call back is not part of these checks.
	const webhookWaitingBaseUrl = 'http://127.0.0.1:9/webhook-waiting';

	it('a crew answered within the first phase streams like polling, to its final answer', async () => {
		const { streaming, seen } = streamingWebhook();
		const execution = await runUntilParked({
			parameters: byCallback({ firstPhase: 30 }),
			credentials: crew.credentials,
			webhookWaitingBaseUrl,
			streaming,
		});
		expect(execution.waitTill).toBeUndefined();
		const chunks = chunksByItem(seen).get(0) ?? [];
		expect(chunks[0]).toEqual({ type: 'begin' });
		expect(chunks.slice(-2)).toEqual([
			{ type: 'item', content: 'Crew finished: topic=AI' },
			{ type: 'end' },
		]);
		expect(execution.output[0].json.result).toBe('Crew finished: topic=AI');
	});

	it('a crew still running when the first phase ends: its progress, then the line that the rest will not stream, then end', async () => {
		crew.service.configure({ plan: () => ({ outcome: 'never' }) });
		const { streaming, seen } = streamingWebhook();
		const execution = await runUntilParked({
			parameters: byCallback({ firstPhase: 0.5 }),
			credentials: crew.credentials,
			webhookWaitingBaseUrl,
			streaming,
		});
		const [run] = crew.service.runs;
		expect(execution.waitTill).toBeInstanceOf(Date);
		const chunks = chunksByItem(seen).get(0) ?? [];
		expect(chunks[0]).toEqual({ type: 'begin' });
		expect(chunks[1]?.content).toMatch(
			new RegExp(`^The crew (is queued|is running) \\(kickoff ID ${run.kickoffId}\\)  \n$`),
		);
		expect(chunks.slice(-2)).toEqual([
			{
				type: 'item',
				content: expect.stringMatching(
					new RegExp(
						`^The crew is still running \\(kickoff ID ${run.kickoffId}\\)\\. This execution now waits for the crew to call back; its result will not stream here`,
					),
				),
			},
			{ type: 'end' },
		]);
	});
	it('a batch: a crew that ends within the first phase streams to its answer, one still running ends with the parked line', async () => {
		crew.service.configure({
			plan: ({ index }) => (index === 1 ? { outcome: 'never' } : { durationMs: 0 }),
		});
		const { streaming, seen } = streamingWebhook();
		const execution = await runUntilParked({
			parameters: byCallback({ firstPhase: 0.5 }),
			credentials: crew.credentials,
			webhookWaitingBaseUrl,
			streaming,
			items: items(2),
		});
		expect(execution.waitTill).toBeInstanceOf(Date);
		const byItem = chunksByItem(seen);
		expect(byItem.get(0)?.[0]).toEqual({ type: 'begin' });
		expect(byItem.get(0)?.slice(-2)).toEqual([
			{ type: 'item', content: 'Crew finished: topic=AI' },
			{ type: 'end' },
		]);
		expect(byItem.get(1)?.slice(-2)).toEqual([
			{
				type: 'item',
				content: expect.stringMatching(
					new RegExp(
						`^The crew is still running \\(kickoff ID ${crew.service.runs[1].kickoffId}\\)\\. This execution now waits`,
					),
				),
			},
			{ type: 'end' },
		]);
	});
});

describe('Without streaming nothing changes', () => {
	const outputWithout = async (
		options: { streaming?: StreamingSetup; withoutStreaming?: boolean } = {},
	) => {
		const { output } = await runCrewNode({
			parameters: waitFor('{"topic": "AI"}'),
			credentials: crew.credentials,
			...options,
		});
		// The kickoff id differs per run; everything else must be the same.
		return output.map(({ json, pairedItem }) => ({
			json: { ...json, kickoff_id: 'k' },
			pairedItem,
		}));
	};

	it('a handler but streaming not enabled (a Webhook in another response mode): no chunk, the same output', async () => {
		const plain = await outputWithout();
		const { streaming, seen } = streamingWebhook({ streamingEnabled: false });
		expect(await outputWithout({ streaming })).toEqual(plain);
		expect(seen).toEqual([]);
	});

	it('streaming enabled in a mode n8n does not stream (a trigger other than Webhook or Chat): no chunk', async () => {
		const { streaming, seen } = streamingWebhook({ mode: 'trigger' });
		await outputWithout({ streaming });
		expect(seen).toEqual([]);
	});

	it('an n8n without isStreaming and sendChunk (1.x before streaming): the same output', async () => {
		const plain = await outputWithout();
		const { streaming, seen } = streamingWebhook();
		expect(await outputWithout({ streaming, withoutStreaming: true })).toEqual(plain);
		expect(seen).toEqual([]);
	});
});
