/**
 * One big file (1 GB by default) kicked off with multipart (Send Files: With the Kickoff)
 * through the Crew node on n8n-core's engine, the binary data in filesystem mode (n8n
 * 2.x's default), against the reference service in a child process (its memory is not
 * this process's). The file is written to disk piece by piece, and stored in n8n's binary
 * data store as Read/Write Files from Disk stores it (streamed). The baseline, measured in
 * the same run, round by round against the same service: the same file posted by a plain
 * Node.js streaming request (`fs.createReadStream(...).pipe(http.request(...))`) as the
 * same multipart body.
 *
 *   npm run bench:files                       1024 MB, 3 rounds of each
 *   npm run bench:files -- --mb 200 --rounds 5
 *   npm run bench:files -- --queue            through a queue worker (filesQueue.bench.ts)
 *
 * Prints, for each: throughput, this process's CPU time per MB, and its peak growth of
 * RSS and of `arrayBuffers` (Buffers live there) over its level just before, sampled
 * every 20 ms. Goals: throughput at least 0.9 × the baseline's, RSS growth under 32 MB.
 */
import { spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { once } from 'events';

import { pdfLikeBytes, useBinaryDataMode } from '../test/helpers/binaryData';
import { runCrewNode } from '../test/helpers/crewWorkflow';
import type { Credentials } from '../test/helpers/crewWorkflow';
import {
	argument,
	gcExposed,
	loadAverage,
	MB,
	measure,
	plainStreamingPost,
	throughputRatios,
	transferLine,
	writeBigFile,
} from './fileTransfer';
import type { Sample } from './fileTransfer';

const FILE_MB = argument('mb', 1024);
const ROUNDS = argument('rounds', 3);
const TOKEN = `bench-${randomBytes(8).toString('hex')}`;
const GOAL_RATIO = 0.9;
const GOAL_RSS_MB = 32;

async function startServiceProcess(): Promise<{ child: ChildProcess; url: string }> {
	const child = spawn(
		process.execPath,
		[
			path.join(__dirname, '../test/crew-service/cli.js'),
			'--port',
			'0',
			'--json',
			'--duration',
			'200',
		],
		{
			env: { ...process.env, CREW_ORG_TOKEN: TOKEN },
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const [line] = (await once(child.stdout, 'data')) as [Buffer];
	const { url } = JSON.parse(line.toString().split('\n')[0]) as { url: string };
	// Keep reading what it prints: a full pipe would block the service on its next write.
	child.stdout?.resume();
	return { child, url };
}

async function main() {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'crew-files-bench-'));
	const filePath = path.join(folder, 'big.pdf');
	const size = FILE_MB * MB;
	const { child, url } = await startServiceProcess();
	const store = await useBinaryDataMode('filesystem');
	try {
		const sha256 = await writeBigFile(filePath, size);
		const credentials: Credentials = { baseUrl: url, token: TOKEN };
		// As n8n's Read/Write Files from Disk stores it: streamed into the binary data store.
		const binary = await store.store(
			fs.createReadStream(filePath) as unknown as Buffer,
			'big.pdf',
			'application/pdf',
		);
		const parameters = {
			resource: 'crew',
			operation: 'kickoff',
			inputsMode: 'json',
			inputsJson: '{"topic":"node"}',
			sendFiles: 'multipart',
			files: { file: [{ fieldName: 'document', binaryPropertyName: 'data' }] },
		};
		// Warm-up: n8n-core's engine and the node's modules load outside the measured runs.
		const small = await store.store(pdfLikeBytes(64 * 1024), 'small.pdf', 'application/pdf');
		await runCrewNode({ parameters, credentials, items: [{ json: {}, binary: { data: small } }] });
		const smallPath = path.join(folder, 'small.pdf');
		fs.writeFileSync(smallPath, pdfLikeBytes(64 * 1024));
		await plainStreamingPost(url, TOKEN, smallPath, 64 * 1024);

		const node: Sample[] = [];
		const baseline: Sample[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			baseline.push(
				await measure(async () => void (await plainStreamingPost(url, TOKEN, filePath, size))),
			);
			node.push(
				await measure(async () => {
					const { output } = await runCrewNode({
						parameters,
						credentials,
						items: [{ json: {}, binary: { data: binary } }],
					});
					if (typeof output[0]?.json.kickoff_id !== 'string')
						throw new Error(`the node's kickoff failed: ${JSON.stringify(output[0]?.json)}`);
				}),
			);
		}
		const runsAnswer = await fetch(`${url}/_reference/runs`, {
			headers: { Authorization: `Bearer ${TOKEN}` },
		})
			.then(async (response) => (response.ok ? await response.json() : undefined))
			.catch(() => undefined);
		const arrived = JSON.stringify(runsAnswer ?? '');
		const hashSeen = arrived.includes(sha256);

		const most = (samples: Sample[], key: keyof Sample) =>
			Math.max(...samples.map((sample) => sample[key]));
		const memory = (samples: Sample[]) =>
			`peak growth: RSS +${most(samples, 'rssGrowthMb').toFixed(1)} MB, arrayBuffers +${most(samples, 'arrayBuffersGrowthMb').toFixed(1)} MB`;
		const { ofMedians, pairedMedian } = throughputRatios(node, baseline);
		const rssGrowth = most(node, 'rssGrowthMb');
		console.log(
			`One ${FILE_MB} MB file, multipart kickoff, ${ROUNDS} rounds (medians); load average ${loadAverage()} (1, 5, 15 min), ${os.cpus().length} CPUs, Node ${process.version}${gcExposed ? '' : ' (no --expose-gc)'}`,
		);
		console.log(
			transferLine('baseline: fs stream piped to http', FILE_MB, baseline, memory(baseline)),
		);
		console.log(transferLine('Crew node (n8n-core, filesystem)', FILE_MB, node, memory(node)));
		console.log(
			`throughput ratio node / baseline: ${ofMedians.toFixed(2)} (median of each round's ratio: ${pairedMedian.toFixed(2)}) (goal >= ${GOAL_RATIO}): ${ofMedians >= GOAL_RATIO ? 'met' : 'NOT met'}`,
		);
		console.log(
			`node's peak RSS growth: ${rssGrowth.toFixed(1)} MB (goal < ${GOAL_RSS_MB} MB): ${rssGrowth < GOAL_RSS_MB ? 'met' : 'NOT met'}; arrayBuffers: pieces sent and not yet collected, as in the baseline`,
		);
		if (runsAnswer !== undefined)
			console.log(`the service recorded the file's sha256: ${hashSeen ? 'yes' : 'NO'}`);
	} finally {
		child.kill();
		store.dispose();
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

const run = process.argv.includes('--queue')
	? async () => await (await import('./filesQueue.bench')).main()
	: main;
run().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
