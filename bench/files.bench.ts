/**
 * One 200 MB file kicked off with multipart (Send Files: With the Kickoff) through the
 * Crew node on n8n-core's engine, the binary data in filesystem mode (n8n 2.x's
 * default), against the reference service in a child process (its memory is not this
 * process's). The baseline, measured in the same run against the same service: the
 * same file posted by a plain Node.js streaming request
 * (`fs.createReadStream(...).pipe(http.request(...))`) as the same multipart body.
 *
 *   npm run bench:files                 200 MB, 3 rounds of each
 *   npm run bench:files -- --mb 50 --rounds 1
 *
 * Prints, for each: throughput, and this process's peak growth of RSS and of
 * `arrayBuffers` (Buffers live there) over its level just before, sampled every 10 ms.
 */
import { spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { once } from 'events';

import { pdfLikeBytes, useBinaryDataMode } from '../test/helpers/binaryData';
import { runCrewNode } from '../test/helpers/crewWorkflow';
import type { Credentials } from '../test/helpers/crewWorkflow';

const argument = (name: string, fallback: number) => {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const FILE_MB = argument('mb', 200);
const ROUNDS = argument('rounds', 3);
const MB = 1024 * 1024;
const TOKEN = `bench-${randomBytes(8).toString('hex')}`;

interface Sample {
	seconds: number;
	rssGrowthMb: number;
	arrayBuffersGrowthMb: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Runs `work`, sampling memory every 10 ms; growth is over the level just before it started,
 * after a garbage collection (--expose-gc). No collection during the run: forced full
 * collections slowed both transfers many times over.
 */
async function measure(work: () => Promise<void>): Promise<Sample> {
	gc?.();
	const before = process.memoryUsage();
	let peakRss = before.rss;
	let peakArrayBuffers = before.arrayBuffers;
	const sampler = setInterval(() => {
		const now = process.memoryUsage();
		peakRss = Math.max(peakRss, now.rss);
		peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
	}, 10);

	const started = process.hrtime.bigint();
	try {
		await work();
	} finally {
		clearInterval(sampler);
	}
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const after = process.memoryUsage();
	peakRss = Math.max(peakRss, after.rss);
	peakArrayBuffers = Math.max(peakArrayBuffers, after.arrayBuffers);
	return {
		seconds,
		rssGrowthMb: (peakRss - before.rss) / MB,
		arrayBuffersGrowthMb: (peakArrayBuffers - before.arrayBuffers) / MB,
	};
}

async function startServiceProcess(): Promise<{ child: ChildProcess; url: string }> {
	const child = spawn(process.execPath, [path.join(__dirname, '../test/crew-service/cli.js'), '--port', '0', '--json', '--duration', '200'], {
		env: { ...process.env, CREW_ORG_TOKEN: TOKEN },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [line] = (await once(child.stdout, 'data')) as [Buffer];
	const { url } = JSON.parse(line.toString().split('\n')[0]) as { url: string };
	// Keep reading what it prints: a full pipe would block the service on its next write.
	child.stdout?.resume();
	return { child, url };
}

/** Writes the file in 1 MB pieces, never holding it whole, and gives its hash. */
async function writeFile(filePath: string, bytes: number): Promise<string> {
	const hash = createHash('sha256');
	const out = fs.createWriteStream(filePath);
	for (let offset = 0, piece = 0; offset < bytes; offset += MB, piece++) {
		const chunk = pdfLikeBytes(Math.min(MB, bytes - offset), piece);
		if (offset > 0) chunk.write('PIECE', 0); // only the first piece starts with %PDF-
		hash.update(chunk);
		if (!out.write(chunk)) await once(out, 'drain');
	}
	out.end();
	await once(out, 'finish');
	return hash.digest('hex');
}

/** The baseline: the same multipart kickoff, written by hand and piped from the file. */
async function plainStreamingPost(url: string, filePath: string, size: number): Promise<unknown> {
	const boundary = `----bench${randomBytes(8).toString('hex')}`;
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n{"topic":"baseline"}\r\n--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	return await new Promise((resolve, reject) => {
		const request = http.request(`${url}/kickoff`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': head.length + size + tail.length },
		});
		request.on('response', (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => (response.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString())) : reject(new Error(`baseline: ${response.statusCode} ${Buffer.concat(chunks).toString()}`))));
		});
		request.on('error', reject);
		request.write(head);
		const file = fs.createReadStream(filePath);
		file.pipe(request, { end: false });
		file.on('end', () => request.end(tail));
		file.on('error', reject);
	});
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

async function main() {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'crew-files-bench-'));
	const filePath = path.join(folder, 'big.pdf');
	const size = FILE_MB * MB;
	const { child, url } = await startServiceProcess();
	const store = await useBinaryDataMode('filesystem');
	try {
		const sha256 = await writeFile(filePath, size);
		const credentials: Credentials = { baseUrl: url, token: TOKEN };
		// As n8n's Read/Write Files from Disk stores it: streamed into the binary data store.
		const binary = await store.store(fs.createReadStream(filePath) as unknown as Buffer, 'big.pdf', 'application/pdf');
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
		await plainStreamingPost(url, smallPath, 64 * 1024);

		const node: Sample[] = [];
		const baseline: Sample[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			baseline.push(await measure(async () => void (await plainStreamingPost(url, filePath, size))));
			node.push(
				await measure(async () => {
					const { output } = await runCrewNode({ parameters, credentials, items: [{ json: {}, binary: { data: binary } }] });
					if (typeof output[0]?.json.kickoff_id !== 'string') throw new Error(`the node's kickoff failed: ${JSON.stringify(output[0]?.json)}`);
				}),
			);
		}
		const runsAnswer = await fetch(`${url}/_reference/runs`, { headers: { Authorization: `Bearer ${TOKEN}` } }).then(async (response) => (response.ok ? ((await response.json())) : undefined)).catch(() => undefined);
		const arrived = JSON.stringify(runsAnswer ?? '');
		const hashSeen = arrived.includes(sha256);

		const throughput = (samples: Sample[]) => FILE_MB / median(samples.map((sample) => sample.seconds));
		const max = (samples: Sample[], key: keyof Sample) => Math.max(...samples.map((sample) => sample[key])).toFixed(1);
		const line = (name: string, samples: Sample[]) =>
			`${name.padEnd(34)} ${throughput(samples).toFixed(1).padStart(7)} MB/s   peak growth: RSS +${max(samples, 'rssGrowthMb')} MB, arrayBuffers +${max(samples, 'arrayBuffersGrowthMb')} MB`;
		const ratio = throughput(node) / throughput(baseline);
		const maxGrowth = Math.max(...node.map((sample) => Math.max(sample.rssGrowthMb, sample.arrayBuffersGrowthMb)));
		const baselineGrowth = Math.max(...baseline.map((sample) => Math.max(sample.rssGrowthMb, sample.arrayBuffersGrowthMb)));
		console.log(`One ${FILE_MB} MB file, multipart kickoff, ${ROUNDS} rounds (medians); load average ${os.loadavg().map((load) => load.toFixed(2)).join(' ')}, ${os.cpus().length} CPUs, Node ${process.version}${gc ? '' : ' (no --expose-gc)'}`);
		console.log(line('baseline: fs stream piped to http', baseline));
		console.log(line('Crew node (n8n-core, filesystem)', node));
		console.log(`throughput ratio node / baseline: ${ratio.toFixed(2)} (goal >= 0.80): ${ratio >= 0.8 ? 'met' : 'NOT met'}`);
		console.log(`node's peak memory growth: ${maxGrowth.toFixed(1)} MB, the baseline's ${baselineGrowth.toFixed(1)} MB (goal < 32 MB): ${maxGrowth < 32 ? 'met' : 'NOT met'}`);
		if (runsAnswer !== undefined) console.log(`the service recorded the file's sha256: ${hashSeen ? 'yes' : 'NO'}`);
	} finally {
		child.kill();
		store.dispose();
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
