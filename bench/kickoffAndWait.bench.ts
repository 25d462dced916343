/**
 * Kickoff and Wait against the reference crew service over real HTTP on
 * loopback, in a workflow run on n8n-core's engine as in the tests. Every figure
 * is measured in this run; ratios are against the ideal (one crew's duration)
 * and against a sequential baseline (kick off and wait item by item, as n8n's
 * other start-and-wait nodes do) measured here too.
 *
 *   npm run bench            all scenarios (about three minutes)
 *   npm run bench -- --quick  N up to 10, no 500-item memory run
 *
 * It also prints, and checks, when a crew's end is noticed: polling's default
 * schedule on a simulated clock (crews of 2 s to 1 h), against Wait By: Callback
 * measured for real (the crew's call handed to the node's webhook as n8n does),
 * and a batch of 50 crews waiting by callback: its wall against the slowest
 * crew and its status reads per kickoff.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { readCrewStatus } from '../nodes/status/crewStatus';
import { createPollPolicy } from '../nodes/waiting/pollPolicy';
import { waitForCompletion } from '../nodes/waiting/waitForCompletion';
import { startCrewService } from '../test/crew-service';
import type { CrewService, Run } from '../test/crew-service';
import { items, runCrewNode } from '../test/helpers/crewWorkflow';
import type { Credentials } from '../test/helpers/crewWorkflow';
import { callResumeWebhook, runUntilParked } from '../test/helpers/waitingExecution';
import type { ParkedExecution } from '../test/helpers/waitingExecution';

const DURATION_MS = 2_000;
const POLL_INTERVAL_S = 0.5;
const quick = process.argv.includes('--quick');

interface Measurement {
	wallMs: number;
	detectionDelaysMs: number[];
	statusRequestsPerKickoff: number;
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)];
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function kickoffAndWait(
	service: CrewService,
	credentials: Credentials,
	itemCount: number,
): Promise<{ wallMs: number; returnedAt: number; runs: Run[] }> {
	const firstRun = service.runs.length;
	const started = Date.now();
	const { output } = await runCrewNode({
		parameters: (itemIndex: number) => ({
			operation: 'kickoffAndWait',
			inputsMode: 'json',
			inputsJson: JSON.stringify({ topic: `item ${itemIndex}` }),
			options: { pollInterval: POLL_INTERVAL_S, timeout: 600, maxConcurrentKickoffs: 10 },
		}),
		credentials,
		items: items(itemCount),
	});
	const returnedAt = Date.now();
	const failed = output.filter((item) => item.json.state !== 'completed');
	if (failed.length > 0)
		throw new Error(`${failed.length} items did not complete: ${JSON.stringify(failed[0].json)}`);
	return { wallMs: returnedAt - started, returnedAt, runs: service.runs.slice(firstRun) };
}

async function measureBatch(
	service: CrewService,
	credentials: Credentials,
	itemCount: number,
): Promise<Measurement> {
	const { wallMs, returnedAt, runs } = await kickoffAndWait(service, credentials, itemCount);
	return {
		wallMs,
		detectionDelaysMs: runs.map((run) => returnedAt - (run.completesAt as number)),
		statusRequestsPerKickoff: runs.reduce((sum, run) => sum + run.statusRequests, 0) / runs.length,
	};
}

async function measureSequential(
	service: CrewService,
	credentials: Credentials,
	itemCount: number,
): Promise<number> {
	const started = Date.now();
	for (let item = 0; item < itemCount; item++) await kickoffAndWait(service, credentials, 1);
	return Date.now() - started;
}

/** Status reads for one crew of the given length, on a simulated clock with the node's default policy. */
async function simulatedStatusRequests(
	durationMs: number,
	pollIntervalMs: number,
): Promise<{ reads: number; detectionMs: number }> {
	let clock = 0;
	let reads = 0;
	await waitForCompletion(
		[{ itemIndex: 0, kickoffId: 'k', startedAt: 0 }],
		createPollPolicy(pollIntervalMs),
		24 * 3_600_000,
		{
			now: () => clock,
			sleep: async (ms) => {
				clock += ms;
			},
			isCancelled: () => false,
			maxConcurrentReads: 1,
			readStatus: async (kickoff) => {
				reads++;
				return {
					kind: 'status',
					status: readCrewStatus(kickoff.kickoffId, {
						state: clock >= durationMs ? 'SUCCESS' : 'RUNNING',
						result: 'r',
					}),
				};
			},
		},
	);
	return { reads, detectionMs: clock - durationMs };
}

async function peakMemory(service: CrewService, credentials: Credentials, itemCount: number) {
	const gc = (global as { gc?: () => void }).gc;
	gc?.();
	const baseline = process.memoryUsage();
	let peakHeap = baseline.heapUsed;
	let peakRss = baseline.rss;
	const sampler = setInterval(() => {
		const now = process.memoryUsage();
		peakHeap = Math.max(peakHeap, now.heapUsed);
		peakRss = Math.max(peakRss, now.rss);
	}, 20);
	const { wallMs } = await kickoffAndWait(service, credentials, itemCount);
	clearInterval(sampler);
	// The reference service runs in this process too, so these figures include its share.
	return {
		wallMs,
		heapGrowthMb: (peakHeap - baseline.heapUsed) / 1_048_576,
		rssGrowthMb: (peakRss - baseline.rss) / 1_048_576,
		peakRssMb: peakRss / 1_048_576,
	};
}

/**
 * n8n's /webhook-waiting/ route for one parked execution at a time: every call the
 * service makes is handed to the node's webhook() (409 before parking and after
 * the resume, as n8n answers); resolves when a call resumes the execution.
 */
async function resumeEndpoint() {
	let parked: ParkedExecution | undefined;
	let onResumed: ((at: number) => void) | undefined;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				let status = 409;
				const execution = parked;
				if (execution) {
					const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
					const query = Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams);
					const { result, answered } = await callResumeWebhook(execution, {
						body,
						headers: { authorization: req.headers.authorization },
						query,
					});
					status = answered.status ?? 200;
					if (result.workflowData && parked === execution) {
						parked = undefined;
						onResumed?.(Date.now());
					}
				}
				res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook-waiting`;
	return {
		base,
		/** Parks the workflow, then waits for the call that resumes it; the clock time of that resume. */
		async untilResumed(execution: ParkedExecution): Promise<number> {
			const resumed = new Promise<number>((resolve) => (onResumed = resolve));
			parked = execution;
			return await resumed;
		},
		close: async () => await new Promise((resolve) => server.close(resolve)),
	};
}

/** Kickoff and Wait by callback for `durations.length` items, each crew its own duration; one waiting execution. */
async function waitByCallback(service: CrewService, credentials: Credentials, durations: number[]) {
	const endpoint = await resumeEndpoint();
	const firstRun = service.runs.length;
	service.configure({ plan: ({ inputs }) => ({ durationMs: durations[Number(inputs.topic)] }) });
	try {
		const started = Date.now();
		const execution = await runUntilParked({
			parameters: (itemIndex: number) => ({
				operation: 'kickoffAndWait',
				waitBy: 'callback',
				inputsMode: 'json',
				inputsJson: JSON.stringify({ topic: String(itemIndex) }),
				options: {
					pollInterval: POLL_INTERVAL_S,
					timeout: 600,
					firstPhase: 0.5,
					maxConcurrentKickoffs: 10,
				},
			}),
			credentials,
			items: items(durations.length),
			webhookWaitingBaseUrl: endpoint.base,
		});
		if (!execution.waitTill) throw new Error('the execution was not parked');
		const resumedAt = await endpoint.untilResumed(execution);
		const runs = service.runs.slice(firstRun);
		const lastEnd = Math.max(...runs.map((run) => run.completesAt as number));
		return {
			wallMs: resumedAt - started,
			slowestMs: Math.max(...durations),
			detectionMs: resumedAt - lastEnd,
			statusRequestsPerKickoff:
				runs.reduce((sum, run) => sum + run.statusRequests, 0) / runs.length,
		};
	} finally {
		service.configure({ plan: undefined });
		await endpoint.close();
	}
}

function verdict(ok: boolean) {
	return ok ? 'PASS' : 'FAIL';
}

async function main() {
	const service = await startCrewService({ durationMs: DURATION_MS });
	const credentials = { baseUrl: service.url, token: service.tokens.organization };
	const claims: string[] = [];
	console.log(
		`Kickoff and Wait benchmark — Node ${process.version}, ${process.platform}/${process.arch}`,
	);
	console.log(
		`crews of D = ${DURATION_MS / 1000} s, poll interval ${POLL_INTERVAL_S} s, reference service on loopback\n`,
	);

	console.log(
		'N    batch wall   wall/D   sequential wall   speed-up   detection median / max   status reads per kickoff',
	);
	for (const itemCount of quick ? [1, 10] : [1, 10, 50]) {
		const batch = await measureBatch(service, credentials, itemCount);
		const sequentialMs = await measureSequential(service, credentials, itemCount);
		const ratio = batch.wallMs / DURATION_MS;
		const speedUp = sequentialMs / batch.wallMs;
		const delayMedian = median(batch.detectionDelaysMs);
		console.log(
			`${String(itemCount).padEnd(4)} ${seconds(batch.wallMs).padStart(10)}   ${ratio.toFixed(2).padStart(6)}   ${seconds(sequentialMs).padStart(15)}   ${speedUp.toFixed(1).padStart(7)}x   ${seconds(delayMedian).padStart(9)} / ${seconds(Math.max(...batch.detectionDelaysMs)).padEnd(9)}   ${batch.statusRequestsPerKickoff.toFixed(1)}`,
		);
		if (itemCount === 50) {
			claims.push(`${verdict(ratio < 2)} N=50 wall/D = ${ratio.toFixed(2)} (claim: < 2.0)`);
			claims.push(
				`${verdict(speedUp >= 20)} N=50 speed-up over sequential = ${speedUp.toFixed(1)}x (claim: >= 20x)`,
			);
		}
		if (itemCount === 10 || itemCount === 50) {
			claims.push(
				`${verdict(delayMedian <= POLL_INTERVAL_S * 1000)} N=${itemCount} median detection delay = ${seconds(delayMedian)} (claim: <= poll interval ${POLL_INTERVAL_S} s)`,
			);
		}
	}

	// Not multiples of the poll interval, so detection delay is not flattered by polls landing on the finish.
	const mixedDurations = [700, 1_300, 1_900, 2_600, 3_100, 3_700, 4_100];
	service.configure({
		plan: ({ index }) => ({ durationMs: mixedDurations[index % mixedDurations.length] }),
	});
	service.reset();
	const mixed = await measureBatch(service, credentials, 21);
	service.reset();
	const mixedSequential = await measureSequential(service, credentials, 21);
	console.log(
		`\nmixed durations 0.7–4.1 s, N=21: batch ${seconds(mixed.wallMs)} = ${(mixed.wallMs / 4_100).toFixed(2)} x the slowest crew; sequential ${seconds(mixedSequential)}; speed-up ${(mixedSequential / mixed.wallMs).toFixed(1)}x`,
	);
	// Items return together, so the delay that measures polling is the slowest crew's: the smallest one.
	console.log(
		`  the slowest crew's finish noticed ${seconds(Math.min(...mixed.detectionDelaysMs))} later (poll interval ${POLL_INTERVAL_S} s)`,
	);
	service.configure({ plan: undefined });

	// The call leaves the service when the crew ends, so its delay does not grow with the run time: measured for real on 2 s crews.
	service.reset();
	const callbackDelays: number[] = [];
	for (let sample = 0; sample < 3; sample++)
		callbackDelays.push((await waitByCallback(service, credentials, [2_000])).detectionMs);
	const callbackDelay = median(callbackDelays);
	console.log(
		"\na crew's end noticed: Wait By: Callback (measured, 2 s crews, median of 3) against polling's default schedule (2 s interval, simulated clock):",
	);
	console.log('crew       callback   polling   polling status reads');
	for (const durationMs of [2_000, 60_000, 600_000, 3_600_000]) {
		const { reads, detectionMs } = await simulatedStatusRequests(durationMs, 2_000);
		const callback = durationMs === 2_000 ? seconds(callbackDelay) : `${seconds(callbackDelay)}*`;
		console.log(
			`${`${durationMs / 1000} s`.padEnd(9)}  ${callback.padStart(8)}   ${seconds(detectionMs).padStart(7)}   ${String(reads).padStart(4)}`,
		);
		if (durationMs >= 60_000) {
			const bound = Math.min(durationMs * 0.05, 30_000);
			claims.push(
				`${verdict(detectionMs <= bound)} polling notices a ${durationMs / 1000} s crew's end ${seconds(detectionMs)} late (claim: within 5% of its run time and the 30 s cap, ${seconds(bound)})`,
			);
		}
		if (durationMs === 3_600_000)
			claims.push(
				`${verdict(reads <= 200)} polling reads a 1 h crew's status ${reads} times (claim: <= 200)`,
			);
	}
	console.log(
		'  * the same call path as the 2 s crew: the service calls when the crew ends, whatever its run time',
	);
	claims.push(
		`${verdict(callbackDelay <= 1_000)} Wait By: Callback notices a crew's end ${seconds(callbackDelay)} late (claim: <= 1 s)`,
	);

	service.reset();
	const spread = Array.from({ length: 50 }, (_, index) => 1_500 + Math.round((index * 1_000) / 49));
	const batch = await waitByCallback(service, credentials, spread);
	console.log(
		`\n50 items by callback, crews of 1.5–2.5 s: resumed ${seconds(batch.wallMs)} after the first kickoff = ${(batch.wallMs / batch.slowestMs).toFixed(2)} x the slowest crew, ${seconds(batch.detectionMs)} after the last crew ended; ${batch.statusRequestsPerKickoff.toFixed(2)} status reads per kickoff`,
	);
	claims.push(
		`${verdict(batch.statusRequestsPerKickoff <= 3)} a batch of 50 by callback: ${batch.statusRequestsPerKickoff.toFixed(2)} status reads per kickoff (claim: <= 3)`,
	);

	if (!quick) {
		service.reset();
		const memory = await peakMemory(service, credentials, 500);
		console.log(
			`\n500 items x ${DURATION_MS / 1000} s: ${seconds(memory.wallMs)} wall; peak heap growth ${memory.heapGrowthMb.toFixed(1)} MB, peak RSS growth ${memory.rssGrowthMb.toFixed(1)} MB (peak RSS ${memory.peakRssMb.toFixed(0)} MB, service included)`,
		);
	}

	await service.close();
	console.log(`\n${claims.join('\n')}`);
	if (claims.some((claim) => claim.startsWith('FAIL'))) process.exitCode = 1;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
