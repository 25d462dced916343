/**
 * `npm run bench:files -- --queue`: one big file (512 MB by default) sent by the Crew node
 * (Kickoff, Send Files: With the Kickoff) on a queue worker of a real n8n 2.41.1 in queue
 * mode (test/e2e/queue/queueStack.js: Redis, a main and one worker with concurrency 1, one
 * sqlite file, the packed package on both), its binary data in n8n's database (queue
 * mode's default on n8n 2.x). Main's webhook starts the execution; on the worker, Read/Write
 * Files from Disk reads the file into n8n's binary data (the database), and the Crew node
 * sends it from there to the reference service (its own process). The baseline, in the
 * same run, round by round: the same file posted to the same service by a plain Node.js
 * streaming request (bench/fileTransfer.ts).
 *
 *   npm run bench:files -- --queue                     512 MB, 3 rounds of each
 *   npm run bench:files -- --queue --mb 900 --rounds 2
 *
 * The node's figures are n8n's own: the Crew node's run time in the execution's run data,
 * and the worker process's RSS (/proc, sampled every 20 ms) during that run over its level
 * just before it, with the worker's CPU time. In database mode n8n hands a node the whole
 * file in one piece: n8n-2.41.1's DatabaseManager.getAsStream reads the row into one Buffer
 * (`Readable.from(buffer)`), so the worker holds the file whatever the node does (reading a
 * 512 MB row with n8n's sqlite3 alone, outside n8n, peaked at 1.5 GB of RSS); and
 * SQLite takes no value over 1e9 bytes (SQLITE_MAX_LENGTH), so 1 GB cannot be stored there
 * at all (n8n's own ceiling for the mode is 1024 MiB, N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE,
 * default 512).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { startCrewService } from '../test/e2e/lib/crew';
import { CREDENTIALS, credentialsFor } from '../test/e2e/lib/fixtures';
import { freePort } from '../test/e2e/lib/n8n';
import { pack } from '../test/e2e/lib/pkg';
import * as procs from '../test/e2e/lib/procs';
import { decoderFor, readExecution } from '../test/e2e/queue/executions';
import { startCluster } from '../test/e2e/queue/queueStack';
import {
	argument,
	loadAverage,
	MB,
	measure,
	median,
	plainStreamingPost,
	throughputRatios,
	transferLine,
	writeBigFile,
} from './fileTransfer';
import type { Sample } from './fileTransfer';

const FILE_MB = argument('mb', 512);
const ROUNDS = argument('rounds', 3);
const GOAL_RATIO = 0.9;
const GOAL_RSS_MB = 32;
/** SQLite's longest value (SQLITE_MAX_LENGTH): a larger file cannot be kept in n8n's database. */
const SQLITE_MAX_BYTES = 1_000_000_000;
/** n8n's default ceiling for one file in database mode, in MiB; the setting goes up to 1024. */
const N8N_DATABASE_DEFAULT_MAX_MB = 512;

const WEBHOOK_PATH = 'bench-queue-file';
const READ_NODE = 'Read File';
const CREW_NODE = 'Kickoff';

const say = (line: string) => process.stdout.write(`${line}\n`);

function fileWorkflow(filePath: string) {
	return {
		id: 'benchQueueFile01',
		name: 'Bench: Webhook → Read/Write Files from Disk → Kickoff with the file (queue mode)',
		nodes: [
			{
				id: 'b0c1a11b-0021-4b3e-9c1a-62656e636803',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'b0c1a11b-0021-4b3e-9c1a-62656e6368c1',
				parameters: {
					httpMethod: 'POST',
					path: WEBHOOK_PATH,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
			},
			{
				id: 'b0c1a11b-0022-4b3e-9c1a-62656e636803',
				name: READ_NODE,
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fileSelector: filePath, options: {} },
			},
			{
				id: 'b0c1a11b-0023-4b3e-9c1a-62656e636803',
				name: CREW_NODE,
				type: 'n8n-nodes-crewai.crew',
				typeVersion: 1.4,
				position: [440, 0],
				credentials: { crewApi: CREDENTIALS.organization },
				parameters: {
					operation: 'kickoff',
					inputsMode: 'json',
					inputsJson: '{"topic": "queue"}',
					sendFiles: 'multipart',
					files: { file: [{ fieldName: 'document', binaryPropertyName: 'data' }] },
					options: { meta: '={{ JSON.stringify({ executionId: $execution.id }) }}' },
				},
			},
		],
		connections: {
			Webhook: { main: [[{ node: READ_NODE, type: 'main', index: 0 }]] },
			[READ_NODE]: { main: [[{ node: CREW_NODE, type: 'main', index: 0 }]] },
		},
		active: false,
		settings: { executionOrder: 'v1' },
	};
}

/** A process's RSS and CPU time, from /proc, every 20 ms until stopped: [ms since epoch, RSS bytes, CPU ms]. */
function sampleProcess(pid: number) {
	const samples: Array<[number, number, number]> = [];
	const ticksPerMs = 100 / 1000; // USER_HZ, 100 on Linux
	const read = () => {
		try {
			const rss =
				Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) *
				1024;
			const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
			samples.push([Date.now(), rss, (Number(fields[11]) + Number(fields[12])) / ticksPerMs]);
		} catch {
			/* the worker is gone: the run reports it */
		}
	};
	read();
	const timer = setInterval(read, 20);
	return {
		stop: () => {
			clearInterval(timer);
			read();
			return samples;
		},
	};
}

interface WorkerSample extends Sample {
	readSeconds: number;
}

/** One execution: the Crew node's run as n8n timed it, and the worker's RSS and CPU during it. */
async function nodeRound(
	cluster: any,
	crew: any,
	decode: any,
	workerPid: number,
	baseUrl: string,
): Promise<WorkerSample> {
	const sampler = sampleProcess(workerPid);
	const response = await fetch(`${baseUrl}/webhook/${WEBHOOK_PATH}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
		signal: AbortSignal.timeout(600_000),
	});
	const text = await response.text();
	const samples = sampler.stop();
	if (response.status !== 200)
		throw new Error(`the workflow answered ${response.status}: ${text.slice(0, 500)}`);
	const { kickoff_id: kickoffId } = JSON.parse(text) as { kickoff_id?: string };
	const run = (
		(await crew.runs()) as Array<{ kickoffId: string; meta: { executionId: string } | null }>
	).find((found) => found.kickoffId === kickoffId);
	if (!run?.meta)
		throw new Error(`the Crew node's kickoff did not reach the service: ${text.slice(0, 500)}`);
	const execution = await readExecution(cluster.rest, decode, String(run.meta.executionId));
	const runOf = (node: string) =>
		execution.data.resultData.runData[node]?.[0] as { startTime: number; executionTime: number };
	const crewRun = runOf(CREW_NODE);
	const start = crewRun.startTime;
	const end = start + crewRun.executionTime;
	const before = samples.filter(([at]) => at <= start).at(-1) ?? samples[0];
	const during = samples.filter(([at]) => at >= start && at <= end);
	const after = samples.find(([at]) => at >= end) ?? samples[samples.length - 1];
	const peakRss = Math.max(before[1], ...during.map(([, rss]) => rss));
	return {
		seconds: crewRun.executionTime / 1000,
		cpuSeconds: (after[2] - before[2]) / 1000,
		rssGrowthMb: (peakRss - before[1]) / MB,
		arrayBuffersGrowthMb: NaN,
		readSeconds: runOf(READ_NODE).executionTime / 1000,
	};
}

export async function main(): Promise<void> {
	procs.installExitHandlers();
	const size = FILE_MB * MB;
	if (size > SQLITE_MAX_BYTES) {
		throw new Error(
			`${FILE_MB} MB cannot be kept in n8n's database binary data on SQLite, which takes no value over 1e9 bytes (about 953 MB): n8n's Read/Write Files from Disk would fail with SQLITE_TOOBIG. Choose --mb 953 or less.`,
		);
	}
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crew-files-queue-bench-'));
	const filesDir = path.join(root, 'files');
	fs.mkdirSync(filesDir);
	const filePath = path.join(filesDir, 'big.pdf');
	try {
		say(
			`Writing a ${FILE_MB} MB file, packing the package, starting Redis, n8n 2.41.1 main and a worker (${root})`,
		);
		await writeBigFile(filePath, size);
		const packed = await pack(path.join(root, 'pack'));
		const crew: any = await startCrewService();
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const cluster = await startCluster({
			major: '2',
			root,
			packed,
			workers: 1,
			concurrency: 1,
			credentials: credentialsFor(crew.url, { ...crew.tokens, wrong: 'wrong-token' }),
			workflows: [fileWorkflow(filePath)],
			env: {
				WEBHOOK_URL: `${baseUrl}/`,
				N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
				// n8n refuses a larger file in database mode unless told (at most 1024 MiB).
				...(FILE_MB > N8N_DATABASE_DEFAULT_MAX_MB
					? { N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE: String(Math.ceil(FILE_MB)) }
					: {}),
			},
			mainEnv: { N8N_PORT: String(port) },
			log: (line: string) => say(`  ${line}`),
		});
		const decode = decoderFor(cluster.layout);
		const workerPid = (cluster.workers[0] as any).server.proc.pid as number;
		const token = crew.tokens.organization as string;
		say(
			`main ${baseUrl}, worker pid ${workerPid}, crew service ${crew.url as string}; load average ${loadAverage()}`,
		);

		const node: WorkerSample[] = [];
		const baseline: Sample[] = [];
		for (let round = 1; round <= ROUNDS; round++) {
			baseline.push(
				await measure(async () => void (await plainStreamingPost(crew.url, token, filePath, size))),
			);
			node.push(await nodeRound(cluster, crew, decode, workerPid, baseUrl));
			const last = node.at(-1) as WorkerSample;
			say(
				`  round ${round}: baseline ${(FILE_MB / (baseline.at(-1) as Sample).seconds).toFixed(1)} MB/s, Crew node ${(FILE_MB / last.seconds).toFixed(1)} MB/s (worker RSS +${last.rssGrowthMb.toFixed(1)} MB; Read/Write Files from Disk took ${last.readSeconds.toFixed(1)} s before it) (load ${os.loadavg()[0].toFixed(2)})`,
			);
		}
		const most = (samples: Sample[], key: keyof Sample) =>
			Math.max(...samples.map((sample) => sample[key]));
		const { ofMedians, pairedMedian } = throughputRatios(node, baseline);
		const rssGrowth = most(node, 'rssGrowthMb');
		say(
			`One ${FILE_MB} MB file through a queue worker, binary data in n8n's database, ${ROUNDS} rounds (medians); load average ${loadAverage()} (1, 5, 15 min), ${os.cpus().length} CPUs`,
		);
		say(
			transferLine(
				'baseline: fs stream piped to http',
				FILE_MB,
				baseline,
				`peak growth: RSS +${most(baseline, 'rssGrowthMb').toFixed(1)} MB (this process)`,
			),
		);
		say(
			transferLine(
				'Crew node on the worker (its run time)',
				FILE_MB,
				node,
				`peak growth: RSS +${rssGrowth.toFixed(1)} MB (the worker, CPU per MB the worker's)`,
			),
		);
		say(
			`throughput ratio node / baseline: ${ofMedians.toFixed(2)} (median of each round's ratio: ${pairedMedian.toFixed(2)}) (goal >= ${GOAL_RATIO}): ${ofMedians >= GOAL_RATIO ? 'met' : 'NOT met'}`,
		);
		say(
			`worker's peak RSS growth during the Crew node's run: ${rssGrowth.toFixed(1)} MB for a ${FILE_MB} MB file (goal < ${GOAL_RSS_MB} MB): ${rssGrowth < GOAL_RSS_MB ? 'met' : 'NOT met'}; n8n's database mode gives a node the file as one Buffer`,
		);
		say(
			`Read/Write Files from Disk, storing it in the database before: ${median(node.map((sample) => sample.readSeconds)).toFixed(1)} s (median)`,
		);
	} finally {
		await procs.stopAll();
		fs.rmSync(root, { recursive: true, force: true });
	}
}
