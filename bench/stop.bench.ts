/**
 * A cancelled execution stopping its crews: Kickoff and Wait (node version 1.3)
 * waits on 50 crews in a workflow run on n8n-core's engine, as in the tests,
 * against the reference crew service on loopback; the execution is cancelled
 * as n8n's Stop button does. Printed: the time from the cancel until the
 * service has received all 50 stops, and the number of stop requests (goals:
 * under 2 s, exactly 50). Baseline, in the same run against the same service:
 * 50 plain concurrent POST /stop requests (fetch, no n8n), timed from their
 * start until the service has all 50; the cancel's figure is given as a ratio
 * to it. Times of arrival are the service's own log (one clock for both).
 *
 *   npm run bench:stop             3 rounds
 *   npm run bench:stop -- --rounds 5
 */
import * as os from 'os';

import { startCrewService } from '../test/crew-service';
import type { CrewService } from '../test/crew-service';
import { items, runCrewWorkflow } from '../test/helpers/crewWorkflow';
import type { Credentials } from '../test/helpers/crewWorkflow';

const CREWS = 50;
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Math.max(1, Number(process.argv[roundsArg + 1]) || 3) : 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const ms = (value: number) => `${value.toFixed(0)} ms`;

function stopArrivals(service: CrewService): number[] {
	return service.requests.filter((request) => request.route === 'stop').map((request) => request.at);
}

/** Kickoff and Wait on 50 crews, cancelled once every kickoff has been answered; the stops as the service logged them. */
async function cancelledExecution(service: CrewService, credentials: Credentials) {
	service.reset();
	const controller = new AbortController();
	let cancelledAt = 0;
	const watcher = setInterval(() => {
		const answered = service.requests.filter((request) => request.route === 'kickoff' && request.status !== null).length;
		if (answered === CREWS && cancelledAt === 0) {
			cancelledAt = Date.now();
			controller.abort();
		}
	}, 1);
	try {
		await runCrewWorkflow({
			parameters: { operation: 'kickoffAndWait', inputsMode: 'json', inputsJson: '{"topic": "AI"}', options: { pollInterval: 60, timeout: 600, maxConcurrentKickoffs: CREWS } },
			credentials,
			items: items(CREWS),
			cancelSignal: controller.signal,
			typeVersion: 1.3,
		});
	} finally {
		clearInterval(watcher);
	}
	const arrivals = stopArrivals(service);
	const stoppedIds = new Set(service.requests.filter((request) => request.route === 'stop').map((request) => request.kickoffId));
	return {
		untilAllStopsMs: arrivals.length === 0 ? NaN : Math.max(...arrivals) - cancelledAt,
		stopRequests: arrivals.length,
		distinctCrews: stoppedIds.size,
		revoked: service.runs.filter((run) => run.state === 'revoked').length,
	};
}

/** The baseline: 50 POST /stop of 50 running crews sent at once by a plain HTTP client. */
async function plainStops(service: CrewService) {
	service.reset();
	const headers = { authorization: `Bearer ${service.tokens.organization}`, 'content-type': 'application/json' };
	const ids = await Promise.all(
		Array.from({ length: CREWS }, async () => {
			const response = await fetch(`${service.url}/kickoff`, { method: 'POST', headers, body: JSON.stringify({ inputs: { topic: 'AI' } }) });
			return ((await response.json()) as { kickoff_id: string }).kickoff_id;
		}),
	);
	const startedAt = Date.now();
	await Promise.all(ids.map(async (id) => await (await fetch(`${service.url}/stop/${id}`, { method: 'POST', headers })).text()));
	return Math.max(...stopArrivals(service)) - startedAt;
}

async function main() {
	const service = await startCrewService({ plan: () => ({ outcome: 'never' }) });
	const credentials = { baseUrl: service.url, token: service.tokens.organization };
	try {
		const cancelled = [];
		const baseline = [];
		for (let round = 0; round < ROUNDS; round++) {
			cancelled.push(await cancelledExecution(service, credentials));
			baseline.push(await plainStops(service));
		}
		const cancelMs = median(cancelled.map((round) => round.untilAllStopsMs));
		const baselineMs = median(baseline);
		console.log(`Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(2)).join(' / ')} (1, 5, 15 min)`);
		console.log(`${CREWS} crews, ${ROUNDS} rounds (median):`);
		console.log(`  cancel → service has all stops: ${ms(cancelMs)} (goal < 2000 ms); rounds: ${cancelled.map((round) => ms(round.untilAllStopsMs)).join(', ')}`);
		console.log(`  stop requests per round: ${cancelled.map((round) => round.stopRequests).join(', ')} (goal exactly ${CREWS}); distinct crews stopped: ${cancelled.map((round) => round.distinctCrews).join(', ')}; runs REVOKED: ${cancelled.map((round) => round.revoked).join(', ')}`);
		console.log(`  baseline, ${CREWS} plain concurrent POST /stop: ${ms(baselineMs)}; rounds: ${baseline.map(ms).join(', ')}`);
		console.log(`  ratio cancel / baseline: ${(cancelMs / baselineMs).toFixed(2)}`);
		const missed = cancelled.some((round) => round.stopRequests !== CREWS || round.distinctCrews !== CREWS);
		if (missed) process.exitCode = 1;
	} finally {
		await service.close();
	}
}

void main();
