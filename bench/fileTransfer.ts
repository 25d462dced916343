/**
 * What the two file benchmarks share (files.bench.ts on n8n-core's engine,
 * filesQueue.bench.ts through a queue worker): the big file written to disk piece by
 * piece, the baseline upload, and the measurements of a transfer.
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import { once } from 'events';

import { pdfLikeBytes } from '../test/helpers/binaryData';

export const MB = 1024 * 1024;

export const argument = (name: string, fallback: number): number => {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};

export const median = (values: number[]): number =>
	[...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

export const loadAverage = (): string =>
	os
		.loadavg()
		.map((load) => load.toFixed(2))
		.join(' ');

export interface Sample {
	seconds: number;
	/** This process's CPU time (user and system) during the transfer. */
	cpuSeconds: number;
	rssGrowthMb: number;
	arrayBuffersGrowthMb: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
export const gcExposed = gc !== undefined;

/**
 * Runs `work`, sampling this process's memory every 20 ms; growth is over the level just
 * before it started, after a garbage collection (--expose-gc). No collection during the
 * run: forced full collections slowed both transfers many times over.
 */
export async function measure(work: () => Promise<void>): Promise<Sample> {
	gc?.();
	const before = process.memoryUsage();
	let peakRss = before.rss;
	let peakArrayBuffers = before.arrayBuffers;
	const sampler = setInterval(() => {
		const now = process.memoryUsage();
		peakRss = Math.max(peakRss, now.rss);
		peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
	}, 20);
	const cpu = process.cpuUsage();
	const started = process.hrtime.bigint();
	try {
		await work();
	} finally {
		clearInterval(sampler);
	}
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const used = process.cpuUsage(cpu);
	const after = process.memoryUsage();
	peakRss = Math.max(peakRss, after.rss);
	peakArrayBuffers = Math.max(peakArrayBuffers, after.arrayBuffers);
	return {
		seconds,
		cpuSeconds: (used.user + used.system) / 1e6,
		rssGrowthMb: (peakRss - before.rss) / MB,
		arrayBuffersGrowthMb: (peakArrayBuffers - before.arrayBuffers) / MB,
	};
}

/** Writes a PDF-like file of `bytes` bytes in 1 MB pieces, never holding it whole, and gives its sha256. */
export async function writeBigFile(filePath: string, bytes: number): Promise<string> {
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

/**
 * The baseline: the same multipart kickoff as the node's, written by hand and piped from
 * the file (`fs.createReadStream(...).pipe(http.request(...))`).
 */
export async function plainStreamingPost(
	url: string,
	token: string,
	filePath: string,
	size: number,
): Promise<unknown> {
	const boundary = `----bench${randomBytes(8).toString('hex')}`;
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n{"topic":"baseline"}\r\n--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	return await new Promise((resolve, reject) => {
		const request = http.request(`${url}/kickoff`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${token}`,
				'Content-Type': `multipart/form-data; boundary=${boundary}`,
				'Content-Length': head.length + size + tail.length,
			},
		});
		request.on('response', (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () =>
				response.statusCode === 200
					? resolve(JSON.parse(Buffer.concat(chunks).toString()))
					: reject(
							new Error(`baseline: ${response.statusCode} ${Buffer.concat(chunks).toString()}`),
						),
			);
		});
		request.on('error', reject);
		request.write(head);
		const file = fs.createReadStream(filePath);
		file.pipe(request, { end: false });
		file.on('end', () => request.end(tail));
		file.on('error', reject);
	});
}

/** The figures of one side, as both benchmarks print them. */
export function transferLine(
	name: string,
	fileMb: number,
	samples: Sample[],
	memory: string,
): string {
	const seconds = median(samples.map((sample) => sample.seconds));
	const cpuPerMb = (median(samples.map((sample) => sample.cpuSeconds)) * 1000) / fileMb;
	return `${name.padEnd(40)} ${(fileMb / seconds).toFixed(1).padStart(7)} MB/s, CPU ${cpuPerMb.toFixed(2)} ms/MB   ${memory}`;
}

/** Throughput ratio node / baseline, of the medians and of each round's pair (taken one after the other). */
export function throughputRatios(
	node: Sample[],
	baseline: Sample[],
): { ofMedians: number; pairedMedian: number } {
	return {
		ofMedians:
			median(baseline.map((sample) => sample.seconds)) /
			median(node.map((sample) => sample.seconds)),
		pairedMedian: median(node.map((sample, round) => baseline[round].seconds / sample.seconds)),
	};
}
