import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { startCrewService } from '../index';
import type { CrewService, CrewServiceOptions } from '../index';

// Files into crews and flows (README, "Files"): a multipart kickoff, POST /files then input_files,
// and input_files URLs, through real HTTP on loopback, with a client of its own (no fetch: it must
// send chunked bodies cut where it chooses, and read a 413 while still sending).

type Field =
	| { name: string; value: string }
	| { name: string; filename: string; type?: string; data: Buffer };
interface Answer {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
}

const BOUNDARY = '----crewFilesBoundary9Xq2';

function multipart(fields: Field[]): Buffer {
	const pieces: Buffer[] = [];
	for (const field of fields) {
		let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field.name}"`;
		if ('filename' in field)
			head += `; filename="${field.filename}"${field.type ? `\r\nContent-Type: ${field.type}` : ''}`;
		pieces.push(
			Buffer.from(`${head}\r\n\r\n`),
			'data' in field ? field.data : Buffer.from(field.value),
			Buffer.from('\r\n'),
		);
	}
	pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
	return Buffer.concat(pieces);
}

/**
 * One request. `chunkSize` sends the body chunked (no Content-Length) in writes of that size, so
 * delimiters are cut on the wire; otherwise it goes whole with its length.
 */
function send(
	url: string,
	options: {
		method?: string;
		token?: string;
		contentType?: string;
		body?: Buffer;
		chunkSize?: number;
	},
): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string | number> = {};
		if (options.token) headers.authorization = `Bearer ${options.token}`;
		if (options.contentType) headers['content-type'] = options.contentType;
		const body = options.body;
		if (body && !options.chunkSize) headers['content-length'] = body.length;
		const req = http.request(
			url,
			{ method: options.method ?? (body ? 'POST' : 'GET'), headers },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						text: Buffer.concat(chunks).toString('utf8'),
					}),
				);
			},
		);
		req.on('error', reject);
		if (!body) return void req.end();
		if (!options.chunkSize) return void req.end(body);
		const size = options.chunkSize;
		let at = 0;
		const pump = (): void => {
			while (at < body.length) {
				const piece = body.subarray(at, at + size);
				at += size;
				if (!req.write(piece)) return void req.once('drain', pump);
			}
			req.end();
		};
		pump();
	});
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
const FORM = `multipart/form-data; boundary=${BOUNDARY}`;

describe('reference service: files', () => {
	let open: CrewService[] = [];
	afterEach(async () => {
		await Promise.all(open.map((s) => s.close()));
		open = [];
	});
	async function start(options: CrewServiceOptions = {}): Promise<CrewService> {
		const service = await startCrewService({ durationMs: 0, ...options });
		open.push(service);
		return service;
	}
	const kickoffUrl = (s: CrewService) => `${s.url}/kickoff`;
	const postForm = (
		s: CrewService,
		fields: Field[],
		extra: { chunkSize?: number; path?: string } = {},
	) =>
		send(`${s.url}${extra.path ?? '/kickoff'}`, {
			token: s.tokens.organization,
			contentType: FORM,
			body: multipart(fields),
			chunkSize: extra.chunkSize,
		});
	const postJson = (s: CrewService, body: unknown) =>
		send(kickoffUrl(s), {
			token: s.tokens.organization,
			contentType: 'application/json',
			body: Buffer.from(JSON.stringify(body)),
		});
	const readStatus = async (s: CrewService, kickoffId: string) =>
		JSON.parse((await send(`${s.url}/${kickoffId}/status`, { token: s.tokens.organization })).text);

	// A 2 MB "PDF": random bytes, so a part cut or joined anywhere changes the hash.
	const pdf = Buffer.concat([Buffer.from('%PDF-1.7\r\n'), randomBytes(2 * 1024 * 1024)]);

	describe('multipart kickoff', () => {
		it('starts the run with the inputs part and records the file byte for byte, in the run and its result', async () => {
			const service = await start({ recordShape: 'wild' });
			const answer = await postForm(service, [
				{ name: 'inputs', value: '{"topic": "AI", "audience": "board"}' },
				{ name: 'document', filename: 'report.pdf', type: 'application/pdf', data: pdf },
			]);
			expect(answer.status).toBe(200);
			const { kickoff_id: kickoffId } = JSON.parse(answer.text);
			const [run] = service.runs;
			expect(run.kickoffId).toBe(kickoffId);
			expect(run.inputs).toEqual({ topic: 'AI', audience: 'board' });
			const file = {
				field: 'document',
				name: 'report.pdf',
				type: 'application/pdf',
				size: pdf.length,
				sha256: sha256(pdf),
				via: 'multipart',
			};
			expect(run.files).toEqual([file]);
			expect(service.requests[0].files).toEqual([file]);
			const record = await readStatus(service, kickoffId);
			expect(record.state).toBe('SUCCESS');
			expect(record.result).toBe(
				`Crew finished: topic=AI; audience=board\nfile document: report.pdf (application/pdf, ${pdf.length} bytes, sha256 ${sha256(pdf)})`,
			);
			expect(record.result_json.files).toEqual([file]);
		});

		it('reads a chunked body cut into small writes, with the other kickoff fields as parts and a file without a type', async () => {
			const service = await start();
			const small = randomBytes(50_000);
			const answer = await postForm(
				service,
				[
					{ name: 'inputs', value: '{"topic": "chunks"}' },
					{ name: 'meta', value: '{"reference": {"outcome": "failure", "error": "steered"}}' },
					{ name: 'taskWebhookUrl', value: 'http://127.0.0.1:9/task' },
					{ name: 'document', filename: 'report.pdf', type: 'application/pdf', data: pdf },
					{ name: 'notes', filename: 'notes.bin', data: small },
				],
				{ chunkSize: 997 },
			);
			expect(answer.status).toBe(200);
			const [run] = service.runs;
			expect(run.plan.outcome).toBe('failure');
			expect(run.plan.error).toBe('steered');
			expect(run.webhooks).toEqual({ taskWebhookUrl: 'http://127.0.0.1:9/task' });
			expect(run.files?.map((f) => [f.field, f.name, f.type, f.size, f.sha256])).toEqual([
				['document', 'report.pdf', 'application/pdf', pdf.length, sha256(pdf)],
				['notes', 'notes.bin', 'application/octet-stream', small.length, sha256(small)],
			]);
		});

		it('validates as a JSON kickoff does: missing inputs 422, a part that is not JSON or a cut body 400, no token 401; no run', async () => {
			const service = await start();
			const file: Field = {
				name: 'document',
				filename: 'a.pdf',
				type: 'application/pdf',
				data: Buffer.from('%PDF'),
			};
			const missing = await postForm(service, [
				{ name: 'inputs', value: '{"audience": "x"}' },
				file,
			]);
			expect(missing.status).toBe(422);
			expect(JSON.parse(missing.text)).toEqual({
				error: 'Validation Error',
				message: 'Missing required inputs',
				details: { missing_inputs: ['topic'] },
			});
			const notJson = await postForm(service, [{ name: 'inputs', value: 'topic=AI' }, file]);
			expect(notJson.status).toBe(400);
			expect(JSON.parse(notJson.text).message).toBe(
				'Invalid input format: the "inputs" part is not valid JSON',
			);
			const whole = multipart([{ name: 'inputs', value: '{"topic": "AI"}' }, file]);
			const cut = await send(kickoffUrl(service), {
				token: service.tokens.organization,
				contentType: FORM,
				body: whole.subarray(0, whole.length - 12),
			});
			expect(cut.status).toBe(400);
			expect(JSON.parse(cut.text).message).toBe(
				'Invalid input format: multipart body: the body ended before its closing boundary',
			);
			const anonymous = await send(kickoffUrl(service), { contentType: FORM, body: whole });
			expect(anonymous.status).toBe(401);
			expect(service.runs).toHaveLength(0);
			expect(service.requests.map((r) => r.status)).toEqual([422, 400, 400, 401]);
		});
	});

	describe('upload first, and input_files URLs', () => {
		it('POST /files gives a URL that serves the bytes back; a kickoff with it records the upload', async () => {
			const service = await start();
			const answer = await postForm(
				service,
				[
					{ name: 'field_name', value: 'document' },
					{ name: 'file', filename: 'report.pdf', type: 'application/pdf', data: pdf },
				],
				{ path: '/files' },
			);
			expect(answer.status).toBe(200);
			const { url, field_name: fieldName } = JSON.parse(answer.text);
			expect(fieldName).toBe('document');
			expect(url).toMatch(new RegExp(`^${service.url}/files/[0-9a-f-]{36}/report\\.pdf$`));
			expect(service.uploads).toEqual([
				{
					uploadId: expect.any(String),
					field: 'document',
					name: 'report.pdf',
					type: 'application/pdf',
					size: pdf.length,
					sha256: sha256(pdf),
				},
			]);
			const served = await new Promise<{ type?: string; hash: string }>((resolve, reject) => {
				http
					.get(url, (res) => {
						const hash = createHash('sha256');
						res.on('data', (c: Buffer) => hash.update(c));
						res.on('end', () =>
							resolve({ type: res.headers['content-type'], hash: hash.digest('hex') }),
						);
					})
					.on('error', reject);
			});
			expect(served).toEqual({ type: 'application/pdf', hash: sha256(pdf) });

			expect(
				(await postJson(service, { inputs: { topic: 'AI' }, input_files: { document: url } }))
					.status,
			).toBe(200);
			expect(service.runs[0].files).toEqual([
				{
					field: 'document',
					name: 'report.pdf',
					type: 'application/pdf',
					size: pdf.length,
					sha256: sha256(pdf),
					via: 'upload',
					url,
				},
			]);
			const record = await readStatus(service, service.runs[0].kickoffId);
			expect(record.result.output).toContain(
				`\nfile document: report.pdf (application/pdf, ${pdf.length} bytes, sha256 ${sha256(pdf)})`,
			);
		});

		it("answers an upload without field_name or file with FastAPI's 422, and needs the token", async () => {
			const service = await start();
			const noName = await postForm(
				service,
				[{ name: 'file', filename: 'a.txt', data: Buffer.from('x') }],
				{ path: '/files' },
			);
			expect(noName.status).toBe(422);
			expect(JSON.parse(noName.text)).toEqual({
				detail: [
					{ type: 'missing', loc: ['body', 'field_name'], msg: 'Field required', input: null },
				],
			});
			const noFile = await postForm(
				service,
				[
					{ name: 'field_name', value: 'document' },
					{ name: 'file', value: 'not a file' },
				],
				{ path: '/files' },
			);
			expect(JSON.parse(noFile.text).detail.map((d: { loc: string[] }) => d.loc)).toEqual([
				['body', 'file'],
			]);
			const anonymous = await send(`${service.url}/files`, {
				contentType: FORM,
				body: multipart([{ name: 'field_name', value: 'd' }]),
			});
			expect(anonymous.status).toBe(401);
			expect(service.uploads).toEqual([]);
		});

		it('fetches a loopback URL and hashes it, fails the run for one that answers 404, only records any other host', async () => {
			let served = 0;
			const host = http.createServer((req, res) => {
				served += 1;
				if (!req.url?.startsWith('/docs/')) return void res.writeHead(404).end();
				res.writeHead(200, { 'content-type': 'application/pdf; charset=binary' }).end(pdf);
			});
			await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
			const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
			try {
				const service = await start();
				const ok = await postJson(service, {
					inputs: { topic: 'AI' },
					input_files: {
						document: `${hostUrl}/docs/q3%20report.pdf?X-Amz-Signature=secret`,
						logo: 'https://files.example.com/brand/logo.png?sig=secret',
					},
				});
				expect(ok.status).toBe(200);
				expect(service.runs[0].files).toEqual([
					{
						field: 'document',
						name: 'q3 report.pdf',
						type: 'application/pdf',
						size: pdf.length,
						sha256: sha256(pdf),
						via: 'url',
						url: `${hostUrl}/docs/q3%20report.pdf`,
					},
					{
						field: 'logo',
						name: 'logo.png',
						type: null,
						size: null,
						sha256: null,
						via: 'url',
						url: 'https://files.example.com/brand/logo.png',
					},
				]);
				expect(service.runs[0].plan.outcome).toBe('success');
				const lines = (await readStatus(service, service.runs[0].kickoffId)).result.output
					.split('\n')
					.slice(1);
				expect(lines).toEqual([
					`file document: q3 report.pdf (application/pdf, ${pdf.length} bytes, sha256 ${sha256(pdf)})`,
					'file logo: logo.png (unknown type, unknown size, not downloaded)',
				]);

				expect(
					(
						await postJson(service, {
							inputs: { topic: 'AI' },
							input_files: { document: `${hostUrl}/missing.pdf` },
						})
					).status,
				).toBe(200);
				expect(service.runs[1].plan.outcome).toBe('failure');
				expect(service.runs[1].plan.error).toBe(
					`Could not download the file for 'document' from ${hostUrl}/missing.pdf: HTTP 404`,
				);
				expect(served).toBe(2);
			} finally {
				await new Promise((resolve) => host.close(resolve));
			}
		});

		it('answers 422 for a file URL that is not http(s), and starts nothing', async () => {
			const service = await start();
			for (const bad of ['ftp://files.example.com/a.pdf', 'file:///etc/passwd', 'report.pdf']) {
				const answer = await postJson(service, {
					inputs: { topic: 'AI' },
					input_files: { document: bad },
				});
				expect(answer.status).toBe(422);
				expect(JSON.parse(answer.text)).toEqual({
					detail: [
						{
							type: 'url_scheme',
							loc: ['body', 'input_files', 'document'],
							msg: "URL scheme should be 'http' or 'https'",
							input: bad,
						},
					],
				});
			}
			expect(service.runs).toHaveLength(0);
		});
	});

	describe("a proxy's 413 (maxFileBytes)", () => {
		it("answers nginx's page for a body over the limit, by Content-Length or counted while chunked; nothing is processed", async () => {
			const service = await start({ maxFileBytes: 1024 * 1024 });
			const fields: Field[] = [
				{ name: 'inputs', value: '{"topic": "AI"}' },
				{ name: 'document', filename: 'report.pdf', type: 'application/pdf', data: pdf },
			];
			for (const chunkSize of [undefined, 16 * 1024]) {
				const answer = await postForm(service, fields, { chunkSize });
				expect(answer.status).toBe(413);
				expect(answer.headers['content-type']).toBe('text/html');
				expect(answer.text).toContain('<head><title>413 Request Entity Too Large</title></head>');
			}
			expect(
				(
					await postForm(service, [{ name: 'field_name', value: 'document' }, fields[1]], {
						path: '/files',
						chunkSize: 4096,
					})
				).status,
			).toBe(413);
			const json = await postJson(service, { inputs: { topic: 'x'.repeat(1024 * 1024) } });
			expect(json.status).toBe(413);
			expect(service.runs).toHaveLength(0);
			expect(service.uploads).toHaveLength(0);
			// Under the limit, the same service takes a file.
			const small = await postForm(service, [
				fields[0],
				{ name: 'document', filename: 'a.pdf', data: pdf.subarray(0, 1000) },
			]);
			expect(small.status).toBe(200);
			expect(service.requests.map((r) => [r.route, r.status])).toEqual([
				['kickoff', 413],
				['kickoff', 413],
				['files', 413],
				['kickoff', 413],
				['kickoff', 200],
			]);
		});
	});

	describe('a deployment on an older crewAI (multipartKickoff: refused)', () => {
		it("answers a multipart kickoff with FastAPI's 422, has no /files route, and ignores input_files", async () => {
			const service = await start({ multipartKickoff: 'refused' });
			const answer = await postForm(service, [
				{ name: 'inputs', value: '{"topic": "AI"}' },
				{ name: 'document', filename: 'report.pdf', type: 'application/pdf', data: pdf },
			]);
			expect(answer.status).toBe(422);
			expect(JSON.parse(answer.text)).toEqual({
				detail: [
					{
						type: 'model_attributes_type',
						loc: ['body'],
						msg: 'Input should be a valid dictionary or object to extract fields from',
					},
				],
			});
			const upload = await postForm(
				service,
				[
					{ name: 'field_name', value: 'document' },
					{ name: 'file', filename: 'a.pdf', data: pdf },
				],
				{ path: '/files' },
			);
			expect([upload.status, JSON.parse(upload.text)]).toEqual([404, { detail: 'Not Found' }]);
			expect(
				(
					await postJson(service, {
						inputs: { topic: 'AI' },
						input_files: { document: 'ftp://ignored' },
					})
				).status,
			).toBe(200);
			expect(service.runs).toHaveLength(1);
			expect(service.runs[0].files).toBeUndefined();
		});
	});

	describe('a deployed flow with a file field (flowFileFields)', () => {
		it("lists the field as a file, and a file sent for it lands in the flow's state and result", async () => {
			const service = await start({
				deployment: 'flow',
				inputsShape: 'objects',
				flowFileFields: ['document'],
				recordShape: 'wild',
			});
			const listing = JSON.parse(
				(await send(`${service.url}/inputs`, { token: service.tokens.organization })).text,
			);
			expect(listing.inputs.at(-1)).toEqual({
				name: 'document',
				type: 'file',
				required: false,
				default: null,
			});
			const answer = await postForm(service, [
				{ name: 'inputs', value: '{"topic": "files", "count": 2}' },
				{ name: 'document', filename: 'report.pdf', type: 'application/pdf', data: pdf },
				{
					name: 'extra',
					filename: 'extra.txt',
					type: 'text/plain',
					data: Buffer.from('not a state field'),
				},
			]);
			expect(answer.status).toBe(200);
			const record = await readStatus(service, JSON.parse(answer.text).kickoff_id);
			expect(record.result).toMatchObject({
				topic: 'files',
				count: 2,
				document: {
					name: 'report.pdf',
					type: 'application/pdf',
					size: pdf.length,
					sha256: sha256(pdf),
				},
			});
			expect(record.result).not.toHaveProperty('extra');
			expect(service.runs[0].files?.map((f) => f.field)).toEqual(['document', 'extra']);

			// Upload first, then the JSON kickoff naming it: the same state value.
			const upload = JSON.parse(
				(
					await postForm(
						service,
						[
							{ name: 'field_name', value: 'document' },
							{ name: 'file', filename: 'c.pdf', type: 'application/pdf', data: pdf },
						],
						{ path: '/files' },
					)
				).text,
			);
			const viaUpload = await postJson(service, {
				inputs: {},
				input_files: { document: upload.url },
			});
			const uploadRecord = await readStatus(service, JSON.parse(viaUpload.text).kickoff_id);
			expect(uploadRecord.result.document).toEqual({
				name: 'c.pdf',
				type: 'application/pdf',
				size: pdf.length,
				sha256: sha256(pdf),
			});

			// Live, the record's result is the final method's text: the state, then one line a file.
			service.configure({ dialect: 'live' });
			const live = await postForm(service, [
				{ name: 'inputs', value: '{}' },
				{
					name: 'document',
					filename: 'b.pdf',
					type: 'application/pdf',
					data: Buffer.from('%PDF-b'),
				},
			]);
			const liveRecord = await readStatus(service, JSON.parse(live.text).kickoff_id);
			expect(liveRecord.state).toBe('SUCCESS');
			expect(liveRecord.result.split('\n')).toEqual([
				expect.stringContaining(
					`"document":{"name":"b.pdf","type":"application/pdf","size":6,"sha256":"${sha256(Buffer.from('%PDF-b'))}"}`,
				),
				`file document: b.pdf (application/pdf, 6 bytes, sha256 ${sha256(Buffer.from('%PDF-b'))})`,
			]);
		});
	});

	describe('streaming', () => {
		// The service in a process of its own, so its peak resident memory (the kernel's VmHWM, which no
		// sampling can miss) is its alone. A service that kept the body would grow by at least its size.
		it("takes a 50 MB file without its peak memory growing by the body's size", async () => {
			const cli = path.join(__dirname, '..', 'cli.js');
			const child = spawn(process.execPath, [cli, '--port', '0', '--json'], {
				stdio: ['ignore', 'pipe', 'inherit'],
			});
			try {
				const line = await new Promise<string>((resolve, reject) => {
					readline.createInterface({ input: child.stdout }).once('line', resolve);
					child.once('exit', (code) => reject(new Error(`crew-server exited with ${code}`)));
				});
				const { url, tokens } = JSON.parse(line) as {
					url: string;
					tokens: { organization: string };
				};
				const memory = (field: 'VmHWM' | 'VmRSS') =>
					Number(
						new RegExp(`${field}:\\s+(\\d+) kB`).exec(
							readFileSync(`/proc/${child.pid}/status`, 'utf8'),
						)?.[1],
					) * 1024;
				const sendFile = (size: number) =>
					new Promise<{ status: number; hash: string }>((resolve, reject) => {
						const req = http.request(
							`${url}/kickoff`,
							{
								method: 'POST',
								headers: { authorization: `Bearer ${tokens.organization}`, 'content-type': FORM },
							},
							(res) => {
								res.resume();
								res.on('end', () =>
									resolve({ status: res.statusCode ?? 0, hash: hash.digest('hex') }),
								);
							},
						);
						req.on('error', reject);
						const hash = createHash('sha256');
						const chunk = randomBytes(64 * 1024);
						req.write(
							`--${BOUNDARY}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n{"topic": "big"}\r\n`,
						);
						req.write(
							`--${BOUNDARY}\r\nContent-Disposition: form-data; name="document"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
						);
						let left = size;
						const pump = (): void => {
							while (left > 0) {
								const piece = chunk.subarray(0, Math.min(left, chunk.length));
								left -= piece.length;
								hash.update(piece);
								if (!req.write(piece)) return void req.once('drain', pump);
							}
							req.end(`\r\n--${BOUNDARY}--\r\n`);
						};
						pump();
					});
				// Warm up first (code loaded and compiled, buffers pooled), so what follows is the body's.
				expect((await sendFile(1024 * 1024)).status).toBe(200);
				const before = memory('VmRSS');
				const size = 50 * 1024 * 1024;
				const sent = await sendFile(size);
				expect(sent.status).toBe(200);
				const runs = JSON.parse((await send(`${url}/_reference/runs`, {})).text);
				expect(runs[1].files).toEqual([
					{
						field: 'document',
						name: 'big.bin',
						type: 'application/octet-stream',
						size,
						sha256: sent.hash,
						via: 'multipart',
					},
				]);
				// Peak since start minus the resident memory before the body: at least the growth while it streamed in.
				expect(memory('VmHWM') - before).toBeLessThan(size);
			} finally {
				child.kill();
			}
		});
	});
});
