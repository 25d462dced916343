/**
 * A cancelled execution stopping its crews: Kickoff and Wait (node version 1.3)
 * waits on N crews in a workflow run on n8n-core's engine, as in the tests,
 * against the reference crew service on loopback; the execution is cancelled
 * as n8n's Stop button does. Printed: the time from the cancel until the
 * service has received all N stops, and the number of stop requests (goals:
 * at most 1.5 × the baseline, exactly N). Baseline, in the same run against the
 * same service: N plain concurrent POST /stop requests (fetch, no n8n), timed
 * from their start until the service has all N; the cancel's figure is given as
 * a ratio to it. Times of arrival are the service's own log (one clock for both). For
 * reference it also prints the same POSTs each sent on a connection of its own, as n8n's
 * request helper sends every request (fetch reuses the connections of its kickoffs).
 *
 *   npm run bench:stop                       50 and 500 crews, 5 rounds each
 *   npm run bench:stop -- --crews 500 --rounds 5
 */
import * as http from 'http';
import * as os from 'os';

import { startCrewService } from '../test/crew-service';
import type { CrewService } from '../test/crew-service';
import { items, runCrewWorkflow } from '../test/helpers/crewWorkflow';
import type { Credentials } from '../test/helpers/crewWorkflow';

const argument = (name: string): string | undefined => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : undefined;
};
const ROUNDS = Math.max(1, Number(argument('rounds')) || 5);
/** The batch sizes measured, one after the other: `--crews 500`, or both by default. */
const BATCHES = (argument('crews') ?? '50,500')
	.split(',')
	.map((size) => Math.max(1, Math.floor(Number(size))))
	.filter((size) => Number.isFinite(size));
/** The goal for both sizes: the cancel within this many times the plain concurrent stops. */
const GOAL_RATIO = 1.5;

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const ms = (value: number) => `${value.toFixed(0)} ms`;

function stopArrivals(service: CrewService): number[] {
	return service.requests
		.filter((request) => request.route === 'stop')
		.map((request) => request.at);
}

/** Kickoff and Wait on `crews` crews, cancelled once every kickoff has been answered; the stops as the service logged them. */
async function cancelledExecution(service: CrewService, credentials: Credentials, crews: number) {
	service.reset();
	const controller = new AbortController();
	let cancelledAt = 0;
	const watcher = setInterval(() => {
		const answered = service.requests.filter(
			(request) => request.route === 'kickoff' && request.status !== null,
		).length;
		if (answered === crews && cancelledAt === 0) {
			cancelledAt = Date.now();
			controller.abort();
		}
	}, 1);
	try {
		await runCrewWorkflow({
			parameters: {
				operation: 'kickoffAndWait',
				inputsMode: 'json',
				inputsJson: '{"topic": "AI"}',
				options: { pollInterval: 60, timeout: 600, maxConcurrentKickoffs: crews },
			},
			credentials,
			items: items(crews),
			cancelSignal: controller.signal,
			typeVersion: 1.3,
		});
	} finally {
		clearInterval(watcher);
	}
	const arrivals = stopArrivals(service);
	const stoppedIds = new Set(
		service.requests
			.filter((request) => request.route === 'stop')
			.map((request) => request.kickoffId),
	);
	return {
		untilAllStopsMs: arrivals.length === 0 ? NaN : Math.max(...arrivals) - cancelledAt,
		stopRequests: arrivals.length,
		distinctCrews: stoppedIds.size,
		revoked: service.runs.filter((run) => run.state === 'revoked').length,
	};
}

/** A POST on a connection of its own, closed after it, as n8n's request helper sends every request (its agent keeps none alive). */
async function postOnNewConnection(url: string, headers: Record<string, string>): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		const request = http.request(url, { method: 'POST', headers, agent: false }, (response) => {
			response.resume();
			response.on('end', resolve);
		});
		request.on('error', reject);
		request.end();
	});
}

/**
 * The baseline: `crews` POST /stop of as many running crews, sent at once by a plain HTTP
 * client (fetch, which keeps its connections alive); with `newConnections`, each on a
 * connection of its own, for reference.
 */
async function plainStops(service: CrewService, crews: number, newConnections = false) {
	service.reset();
	const headers = {
		authorization: `Bearer ${service.tokens.organization}`,
		'content-type': 'application/json',
	};
	const ids = await Promise.all(
		Array.from({ length: crews }, async () => {
			const response = await fetch(`${service.url}/kickoff`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ inputs: { topic: 'AI' } }),
			});
			return ((await response.json()) as { kickoff_id: string }).kickoff_id;
		}),
	);
	const startedAt = Date.now();
	if (newConnections)
		await Promise.all(
			ids.map(async (id) => await postOnNewConnection(`${service.url}/stop/${id}`, headers)),
		);
	else
		await Promise.all(
			ids.map(
				async (id) =>
					await (await fetch(`${service.url}/stop/${id}`, { method: 'POST', headers })).text(),
			),
		);
	return Math.max(...stopArrivals(service)) - startedAt;
}

/** One batch size: the rounds alternate the node's cancel and the baseline; true when the goals are met. */
async function measure(
	service: CrewService,
	credentials: Credentials,
	crews: number,
): Promise<boolean> {
	const cancelled = [];
	const baseline = [];
	const newConnections = [];
	for (let round = 0; round < ROUNDS; round++) {
		cancelled.push(await cancelledExecution(service, credentials, crews));
		baseline.push(await plainStops(service, crews));
		newConnections.push(await plainStops(service, crews, true));
	}
	const cancelMs = median(cancelled.map((round) => round.untilAllStopsMs));
	const baselineMs = median(baseline);
	const ratio = cancelMs / baselineMs;
	const exact = cancelled.every(
		(round) => round.stopRequests === crews && round.distinctCrews === crews,
	);
	console.log(`${crews} crews, ${ROUNDS} rounds (median), load average ${loadAverage()}:`);
	console.log(
		`  cancel → service has all stops: ${ms(cancelMs)}; rounds: ${cancelled.map((round) => ms(round.untilAllStopsMs)).join(', ')}`,
	);
	console.log(
		`  stop requests per round: ${cancelled.map((round) => round.stopRequests).join(', ')} (goal exactly ${crews}); distinct crews stopped: ${cancelled.map((round) => round.distinctCrews).join(', ')}; runs REVOKED: ${cancelled.map((round) => round.revoked).join(', ')}`,
	);
	console.log(
		`  baseline, ${crews} plain concurrent POST /stop: ${ms(baselineMs)}; rounds: ${baseline.map(ms).join(', ')}`,
	);
	console.log(
		`  for reference, ${crews} plain concurrent POST /stop each on a new connection (as n8n sends them): ${ms(median(newConnections))}; rounds: ${newConnections.map(ms).join(', ')}`,
	);
	console.log(
		`  ratio cancel / baseline (${crews} crews): ${ratio.toFixed(2)} (goal at most ${GOAL_RATIO}): ${ratio <= GOAL_RATIO ? 'met' : 'NOT met'}; to the new-connection POSTs: ${(cancelMs / median(newConnections)).toFixed(2)}`,
	);
	return exact;
}

const loadAverage = () =>
	`${os
		.loadavg()
		.map((load) => load.toFixed(2))
		.join(' / ')} (1, 5, 15 min)`;

async function main() {
	const service = await startCrewService({ plan: () => ({ outcome: 'never' }) });
	const credentials = { baseUrl: service.url, token: service.tokens.organization };
	try {
		console.log(
			`Machine: ${os.cpus().length} cores, Node ${process.version}, load average ${loadAverage()}`,
		);
		let exact = true;
		for (const crews of BATCHES) exact = (await measure(service, credentials, crews)) && exact;
		// Sent twice or left out is a failure; a missed time goal is only printed (the machine's load moves it).
		if (!exact) process.exitCode = 1;
	} finally {
		await service.close();
	}
}

void main();
