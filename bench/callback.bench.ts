/**
 * How soon a call lets a waiting execution go on, in ONE real n8n 2.41.1 (the e2e
 * harness's libraries: the packed package in a throwaway user folder, `n8n start`, the
 * reference crew service in its own process on loopback). In the same run, interleaved
 * round by round:
 *
 * - the baseline, n8n's own Wait node (Resume: On Webhook Call): Webhook → Respond to
 *   Webhook (gives the execution's resume URL) → Wait → After; the bench calls the resume
 *   URL once the execution is waiting;
 * - the Crew node's Kickoff and Wait, Wait By: Callback (a parked batch): Webhook → one
 *   item per crew → Kickoff and Wait → After, resumed by its crews' own calls; one crew,
 *   and a batch of N (default 50) whose crews end 0.1 s apart and the last one alone, 2 s
 *   after the others, so that its call is not queued behind theirs in n8n (a round where
 *   it was anyway, on a busy machine, is counted and shown apart, and the next rounds'
 *   last crew ends that much later).
 *
 * Measured: from the (last) call leaving its caller (the bench's clock for the Wait node,
 * the crew service's record of its call for the crews; one machine, one clock) to the
 * start of the After node, as n8n's run data gives it (`startTime`). Printed: median and
 * 90th percentile over the rounds, and each case's median as a ratio to the Wait node's
 * (goal: at most 2). Every round also checks what it measured: each call answered 200,
 * After given every crew's record, in order.
 *
 *   npm run bench:callback                          20 rounds, 1 crew and 50
 *   npm run bench:callback -- --rounds 30 --crews 50
 *   npm run bench:callback -- --keep                keeps n8n's folder (logs) and says where
 *
 * Needs `npm run build` (the script runs it) and n8n 2.41.1 in the e2e cache
 * (`node test/e2e/lib/install.js 2`).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { freePort } from '../test/e2e/lib/n8n';
import * as procs from '../test/e2e/lib/procs';
import { decodeExecutionData, publish, restClient } from '../test/e2e/lib/rest';
import { prepare } from '../test/e2e/lib/stack';
import { CREDENTIALS } from '../test/e2e/lib/fixtures';
import { waitForWebhook } from '../test/e2e/lib/webhookReady';

const argument = (name: string, fallback: number) => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const ROUNDS = Math.max(1, argument('rounds', 20));
const BATCH = Math.max(2, argument('crews', 50));
const KEEP = process.argv.includes('--keep');
const GOAL_RATIO = 2;

/** The Crew node watches its crews this long before it parks the execution. */
const FIRST_PHASE_S = 1;
/** A crew ends this long after its kickoff: past the first phase and the park, on a loaded machine too. */
const CREW_MS = 4_000;
/**
 * The batch's crews but the last end this far apart, and the last one this long after them:
 * n8n answers each call in turn (it loads the execution for every one), and the last call
 * is to find n8n idle, so that it measures the resume and not a queue.
 */
const BATCH_SPREAD_MS = 100;
const LAST_CREW_GAP_MS = 2_000;
/** The gap grows after a round whose last call queued anyway, up to this. */
const MAX_LAST_CREW_GAP_MS = 30_000;

const WAIT_NODE_PATH = 'bench-wait-node';
const PARKED_BATCH_PATH = 'bench-parked-batch';
const AFTER = 'After';

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Webhook → Respond to Webhook (the resume URL) → Wait (On Webhook Call) → After. */
const waitNodeWorkflow = {
	id: 'benchWaitNode001',
	name: 'Bench: Webhook → Wait, On Webhook Call → After',
	nodes: [
		{
			id: 'b0c1a11b-0001-4b3e-9c1a-62656e636801',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'b0c1a11b-0001-4b3e-9c1a-62656e6368a1',
			parameters: {
				httpMethod: 'POST',
				path: WAIT_NODE_PATH,
				responseMode: 'responseNode',
				options: {},
			},
		},
		{
			id: 'b0c1a11b-0002-4b3e-9c1a-62656e636801',
			name: 'Resume URL',
			type: 'n8n-nodes-base.respondToWebhook',
			typeVersion: 1.1,
			position: [220, 0],
			parameters: {
				respondWith: 'json',
				responseBody:
					'={{ JSON.stringify({ executionId: $execution.id, resumeUrl: $execution.resumeUrl }) }}',
				options: {},
			},
		},
		{
			id: 'b0c1a11b-0003-4b3e-9c1a-62656e636801',
			name: 'Wait',
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			position: [440, 0],
			webhookId: 'b0c1a11b-0003-4b3e-9c1a-62656e6368a3',
			parameters: { resume: 'webhook', httpMethod: 'POST', options: {} },
		},
		{
			id: 'b0c1a11b-0004-4b3e-9c1a-62656e636801',
			name: AFTER,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [660, 0],
			parameters: {},
		},
	],
	connections: {
		Webhook: { main: [[{ node: 'Resume URL', type: 'main', index: 0 }]] },
		'Resume URL': { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
		Wait: { main: [[{ node: AFTER, type: 'main', index: 0 }]] },
	},
	active: false,
	settings: { executionOrder: 'v1' },
};

/** Webhook → one item per crew → Kickoff and Wait, Wait By: Callback → After. */
const parkedBatchWorkflow = {
	id: 'benchParkedBat01',
	name: 'Bench: Webhook → one item per crew → Kickoff and Wait, Wait By: Callback → After',
	nodes: [
		{
			id: 'b0c1a11b-0011-4b3e-9c1a-62656e636802',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'b0c1a11b-0011-4b3e-9c1a-62656e6368b1',
			parameters: { httpMethod: 'POST', path: PARKED_BATCH_PATH, options: {} },
		},
		{
			id: 'b0c1a11b-0012-4b3e-9c1a-62656e636802',
			name: 'One Item Per Crew',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0],
			parameters: { fieldToSplitOut: 'body.crews', options: {} },
		},
		{
			id: 'b0c1a11b-0013-4b3e-9c1a-62656e636802',
			name: 'Kickoff and Wait',
			type: 'n8n-nodes-crewai.crew',
			typeVersion: 1.4,
			position: [440, 0],
			credentials: { crewApi: CREDENTIALS.organization },
			parameters: {
				operation: 'kickoffAndWait',
				waitBy: 'callback',
				inputsMode: 'json',
				inputsJson: '={{ JSON.stringify({ topic: $json.topic }) }}',
				options: {
					firstPhase: FIRST_PHASE_S,
					meta: '={{ JSON.stringify({ reference: $json.reference, round: $json.round, executionId: $execution.id }) }}',
					maxConcurrentKickoffs: 50,
					pollInterval: 0.5,
					timeout: 300,
				},
			},
		},
		{
			id: 'b0c1a11b-0014-4b3e-9c1a-62656e636802',
			name: AFTER,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [660, 0],
			parameters: {},
		},
	],
	connections: {
		Webhook: { main: [[{ node: 'One Item Per Crew', type: 'main', index: 0 }]] },
		'One Item Per Crew': { main: [[{ node: 'Kickoff and Wait', type: 'main', index: 0 }]] },
		'Kickoff and Wait': { main: [[{ node: AFTER, type: 'main', index: 0 }]] },
	},
	active: false,
	settings: { executionOrder: 'v1' },
};

interface Bench {
	n8n: any;
	crew: any;
	rest: any;
	baseUrl: string;
}

async function until<T>(
	what: string,
	probe: () => Promise<T | undefined | null | false>,
	timeoutMs: number,
	everyMs = 25,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`not ${what} within ${timeoutMs} ms`);
		await sleep(everyMs);
	}
}

/** The execution once it has the status asked for (any finished status for 'finished'). */
async function executionWhen(
	bench: Bench,
	executionId: string,
	status: 'waiting' | 'finished',
	timeoutMs: number,
) {
	return await until(
		`execution ${executionId} ${status}`,
		async () => {
			// n8n answers 503 "Database is not ready!" while SQLite is busy, on a loaded machine: ask again.
			const execution = await bench.rest.execution(executionId).catch((error: Error) => {
				if (/: 503 /.test(error.message)) return undefined;
				throw error;
			});
			if (!execution) return undefined;
			const finished = !['new', 'running', 'waiting', 'unknown'].includes(execution.status);
			return (status === 'finished' ? finished : execution.status === status) && execution;
		},
		timeoutMs,
	);
}

/** The After node's start, and its items, from a finished execution's run data. */
async function afterNode(bench: Bench, executionId: string) {
	const execution = await executionWhen(bench, executionId, 'finished', 120_000);
	if (execution.status !== 'success')
		throw new Error(`execution ${executionId} ended ${execution.status}`);
	const data = decodeExecutionData(bench.n8n, execution.data);
	const run = data.resultData.runData[AFTER]?.[0];
	if (!run) throw new Error(`execution ${executionId}: the ${AFTER} node did not run`);
	return {
		startTime: run.startTime as number,
		items: (run.data?.main?.[0] ?? []).map((item: { json: Record<string, unknown> }) => item.json),
	};
}

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, text: await response.text() };
}

/** The baseline: n8n's Wait node, resumed by one call once the execution waits. Milliseconds from the call to After's start. */
async function waitNodeRound(bench: Bench): Promise<number> {
	const started = await post(`${bench.baseUrl}/webhook/${WAIT_NODE_PATH}`, {});
	if (started.status !== 200)
		throw new Error(`the Wait node's workflow answered ${started.status}: ${started.text}`);
	const { executionId, resumeUrl } = JSON.parse(started.text) as {
		executionId: string;
		resumeUrl: string;
	};
	await executionWhen(bench, executionId, 'waiting', 30_000);
	const calledAt = Date.now();
	const call = await post(resumeUrl, { resumed: true });
	if (call.status !== 200)
		throw new Error(`the Wait node's resume URL answered ${call.status}: ${call.text}`);
	const after = await afterNode(bench, executionId);
	return after.startTime - calledAt;
}

interface Call {
	kind: string;
	kickoffId: string;
	at: number;
	status: number | null;
	error?: string;
}

async function crewCalls(bench: Bench, kickoffIds: readonly string[]): Promise<Call[]> {
	const response = await fetch(`${bench.crew.url as string}/_reference/webhooks`);
	return ((await response.json()) as Call[]).filter(
		(call) => call.kind === 'stream' && kickoffIds.includes(call.kickoffId),
	);
}

const answered = (call: Call) => call.status !== null || call.error !== undefined;

interface BatchSample {
	ms: number;
	/** The last crew called while n8n was still answering the others' calls: its call waited behind them. */
	queued: boolean;
	/** How much later than the last call n8n had answered the others (0 when before it). */
	othersLateMs: number;
}

/**
 * The Crew node's parked batch of `crews` crews, resumed by their calls: from the last
 * crew's call (as the service recorded it) to After's start.
 */
async function parkedBatchRound(
	bench: Bench,
	crews: number,
	round: string,
	lastGapMs = 0,
): Promise<BatchSample> {
	await bench.crew.reset();
	const ends = Array.from({ length: crews }, (_, index) =>
		index === crews - 1 && crews > 1
			? CREW_MS + (crews - 2) * BATCH_SPREAD_MS + lastGapMs
			: CREW_MS + index * BATCH_SPREAD_MS,
	);
	const body = {
		crews: ends.map((durationMs, index) => ({
			topic: `${round} crew ${index}`,
			round,
			reference: { durationMs },
		})),
	};
	const started = await post(`${bench.baseUrl}/webhook/${PARKED_BATCH_PATH}`, body);
	if (started.status !== 200)
		throw new Error(`the Crew node's workflow answered ${started.status}: ${started.text}`);
	const runs = await until(
		'every kickoff',
		async () => {
			const found = (
				(await bench.crew.runs()) as Array<{
					kickoffId: string;
					inputs: { topic: string };
					meta: { executionId: string };
				}>
			).filter((run) => run.inputs.topic.startsWith(`${round} `));
			return found.length === crews && found;
		},
		60_000,
	);
	const kickoffIds = body.crews.map(
		(crew) => runs.find((run) => run.inputs.topic === crew.topic)?.kickoffId as string,
	);
	const last = kickoffIds[crews - 1];
	const executionId = String(runs[0].meta.executionId);
	await executionWhen(bench, executionId, 'waiting', 30_000);
	// When n8n had answered every call but the last: later than the last call means that call waited behind them.
	const othersAnswered = await until(
		"the other crews' calls answered",
		async () => {
			const others = (await crewCalls(bench, kickoffIds)).filter((call) => call.kickoffId !== last);
			return others.length === crews - 1 && others.every(answered) && { at: Date.now(), others };
		},
		120_000,
	);
	const lastCall = await until(
		"the last crew's call answered",
		async () => (await crewCalls(bench, [last])).find(answered),
		60_000,
	);
	// A call before the park gets n8n's 409 and is not sent again: every call answered 200, or still in n8n's
	// hands when the service stopped waiting for the answer (5 s, on a busy machine; n8n goes on with it).
	const refused = [...othersAnswered.others, lastCall].filter(
		(call) => call.status !== 200 && !/^timed out/.test(call.error ?? ''),
	);
	if (refused.length > 0)
		throw new Error(
			`round ${round}: calls answered ${refused.map((call) => call.status ?? call.error).join(', ')}`,
		);
	if (othersAnswered.others.some((call) => call.at > lastCall.at))
		throw new Error(`round ${round}: the last crew did not call last`);
	const after = await afterNode(bench, executionId);
	const order = after.items.map((json: Record<string, unknown>) => json.kickoff_id);
	if (
		after.items.length !== crews ||
		order.some((id: unknown, index: number) => id !== kickoffIds[index]) ||
		after.items.some((json: Record<string, unknown>) => json.state !== 'completed')
	) {
		throw new Error(`round ${round}: After did not get every crew's completed record in order`);
	}
	// n8n answered the others only after the last call had come: that call waited behind them.
	const othersLateMs = Math.max(0, othersAnswered.at - lastCall.at);
	return { ms: after.startTime - lastCall.at, queued: othersLateMs > 0, othersLateMs };
}

const percentile = (values: number[], share: number) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const loadAverage = () =>
	os
		.loadavg()
		.map((load) => load.toFixed(2))
		.join(' / ');

async function startBench(root: string): Promise<Bench> {
	const stack: { n8n: any; crew: any } = await prepare({
		major: '2',
		root,
		log: (line: string) => say(`  ${line}`),
		editWorkflows: (workflows: object) => {
			const saved = workflows as Record<string, unknown>;
			for (const key of Object.keys(saved)) delete saved[key];
			Object.assign(saved, { waitNode: waitNodeWorkflow, parkedBatch: parkedBatchWorkflow });
		},
	});
	const port = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	await stack.n8n.start({ env: { N8N_PORT: String(port), WEBHOOK_URL: `${baseUrl}/` } });
	await stack.n8n.setupOwner();
	const rest = await restClient(stack.n8n.server.url);
	for (const workflow of [waitNodeWorkflow, parkedBatchWorkflow]) {
		await publish({ n8n: stack.n8n, rest, workflowId: workflow.id });
		await waitForWebhook(baseUrl, workflow.nodes[0].parameters.path, 'POST', stack.n8n.server.proc);
	}
	return { n8n: stack.n8n, crew: stack.crew, rest, baseUrl };
}

async function main() {
	procs.installExitHandlers();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crew-callback-bench-'));
	let bench: Bench | undefined;
	try {
		say(`Starting n8n 2.41.1 with the packed package (${root})`);
		bench = await startBench(root);
		say(
			`n8n ${bench.baseUrl}, crew service ${bench.crew.url as string}; load average ${loadAverage()}`,
		);
		// Warm-up, not counted: the first execution of each workflow loads n8n's and the node's code.
		await waitNodeRound(bench);
		await parkedBatchRound(bench, 1, 'warm-up');
		const waitNode: number[] = [];
		const oneCrew: number[] = [];
		const batch: BatchSample[] = [];
		const loads: number[] = [];
		let lastGapMs = LAST_CREW_GAP_MS;
		for (let round = 1; round <= ROUNDS; round++) {
			waitNode.push(await waitNodeRound(bench));
			oneCrew.push((await parkedBatchRound(bench, 1, `r${round}-1`)).ms);
			const lastOfBatch = await parkedBatchRound(bench, BATCH, `r${round}-${BATCH}`, lastGapMs);
			batch.push(lastOfBatch);
			loads.push(os.loadavg()[0]);
			say(
				`  round ${round}: Wait node ${seconds(waitNode.at(-1) as number)}, 1 crew ${seconds(oneCrew.at(-1) as number)}, last of ${BATCH} ${seconds(lastOfBatch.ms)}${lastOfBatch.queued ? ` (queued: n8n answered the others' calls ${seconds(lastOfBatch.othersLateMs)} after it; the last crew now ends later)` : ''} (load ${loads.at(-1)?.toFixed(2)})`,
			);
			// A busy machine answers the calls slower than they come: the last crew then ends that much later.
			if (lastOfBatch.queued)
				lastGapMs = Math.min(MAX_LAST_CREW_GAP_MS, lastGapMs + lastOfBatch.othersLateMs + 1_000);
		}
		const batchMs = batch.map((sample) => sample.ms);
		const queued = batch.filter((sample) => sample.queued).length;
		const baseline = percentile(waitNode, 0.5);
		const line = (name: string, values: number[]) =>
			`${name.padEnd(44)} median ${seconds(percentile(values, 0.5))}, p90 ${seconds(percentile(values, 0.9))}`;
		const ratio = (name: string, values: number[]) => {
			const value = percentile(values, 0.5) / baseline;
			return `ratio ${name} / Wait node (medians): ${value.toFixed(2)} (goal at most ${GOAL_RATIO}): ${value <= GOAL_RATIO ? 'met' : 'NOT met'}`;
		};
		say(
			`Call → next node's start, n8n 2.41.1, ${ROUNDS} rounds; ${os.cpus().length} cores, load average over the rounds ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} (median ${percentile(loads, 0.5).toFixed(2)}), now ${loadAverage()}`,
		);
		say(line("baseline: n8n's Wait node, On Webhook Call", waitNode));
		say(line('parked batch, 1 crew', oneCrew));
		say(line(`parked batch, the last of ${BATCH} crews`, batchMs));
		if (queued > 0)
			say(
				`  ${queued} of ${ROUNDS} rounds: the last call came while n8n still answered the others (the machine too slow for the spread); without them: ${line(
					'',
					batch.filter((sample) => !sample.queued).map((sample) => sample.ms),
				).trim()}`,
			);
		say(ratio('1 crew', oneCrew));
		say(ratio(`last of ${BATCH}`, batchMs));
	} finally {
		await procs.stopAll();
		if (KEEP) say(`kept ${root}`);
		else fs.rmSync(root, { recursive: true, force: true });
	}
}

main().catch(async (error: unknown) => {
	console.error(error);
	await procs.stopAll();
	process.exit(1);
});
