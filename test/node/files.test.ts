/**
 * Files into crews and flows, on n8n's real engine against the reference
 * service (test/crew-service/README.md, "Files"): the item's binary data from n8n's
 * binary data store, in filesystem mode (n8n 2.x's default) and in the in-memory mode,
 * reaches the service byte for byte with its name and type in each of the three ways.
 */
import { createHash } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useCrewService } from '../helpers/crewService';
import { runCrewNode, runCrewWorkflow } from '../helpers/crewWorkflow';
import { pdfLikeBytes, useBinaryDataMode } from '../helpers/binaryData';
import type { BinaryStore } from '../helpers/binaryData';
import { runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService();
// useCrewService resets the options it knows; these are the Files ones.
beforeEach(() =>
	crew.service.configure({ multipartKickoff: 'accepted', maxFileBytes: null, flowFileFields: [] }),
);

const TWO_MB = 2 * 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const filesOf = (runIndex: number) => crew.service.runs[runIndex].files;

const kickoff = (sendFiles: string, extra: IDataObject = {}) => ({
	resource: 'crew',
	operation: 'kickoff',
	inputsMode: 'json',
	inputsJson: '={{ JSON.stringify({ topic: "item " + $itemIndex }) }}',
	sendFiles,
	files: { file: [{ fieldName: 'document', binaryPropertyName: 'data' }] },
	...extra,
});

const kickoffAndWait = (sendFiles: string, extra: IDataObject = {}) => ({
	...kickoff(sendFiles, extra),
	operation: 'kickoffAndWait',
	options: { pollInterval: 0.1, timeout: 30 },
});

describe.each(['filesystem', 'memory'] as const)(
	'Files with the binary data store in %s mode',
	(mode) => {
		let store: BinaryStore;
		beforeAll(async () => {
			store = await useBinaryDataMode(mode);
		});
		afterAll(() => store.dispose());

		async function pdfItem(
			bytes: Buffer,
			fileName = 'report.pdf',
			property = 'data',
		): Promise<INodeExecutionData> {
			const binary: IBinaryData = await store.store(bytes, fileName, 'application/pdf');
			if (mode === 'filesystem') expect(binary.id).toBeDefined();
			else expect(binary.id).toBeUndefined();
			return { json: {}, binary: { [property]: binary } };
		}

		it('With the Kickoff: a 2 MB PDF reaches the service byte for byte, with its name and type, in one multipart kickoff', async () => {
			const bytes = pdfLikeBytes(TWO_MB);
			const { output, record } = await runCrewNode({
				parameters: kickoff('multipart'),
				credentials: crew.credentials,
				items: [await pdfItem(bytes, 'Q3 report (final).pdf')],
			});
			expect(output).toHaveLength(1);
			expect(output[0].json.kickoff_id).toBe(crew.service.runs[0].kickoffId);
			expect(crew.service.runs).toHaveLength(1);
			expect(crew.service.runs[0].inputs).toEqual({ topic: 'item 0' });
			expect(filesOf(0)).toEqual([
				expect.objectContaining({
					field: 'document',
					name: 'Q3 report (final).pdf',
					type: 'application/pdf',
					size: TWO_MB,
					sha256: sha256(bytes),
					via: 'multipart',
				}),
			]);
			expect(
				record.requests
					.filter((request) => request.method === 'POST')
					.map((request) => new URL(request.url).pathname),
			).toEqual(['/kickoff']);
		});

		it('Upload First: POST /files, then the JSON kickoff naming the upload', async () => {
			const bytes = pdfLikeBytes(TWO_MB, 1);
			const { record } = await runCrewNode({
				parameters: kickoff('upload'),
				credentials: crew.credentials,
				items: [await pdfItem(bytes)],
			});
			expect(
				record.requests
					.filter((request) => request.method === 'POST')
					.map((request) => new URL(request.url).pathname),
			).toEqual(['/files', '/kickoff']);
			expect(filesOf(0)).toEqual([
				expect.objectContaining({
					field: 'document',
					name: 'report.pdf',
					type: 'application/pdf',
					size: TWO_MB,
					sha256: sha256(bytes),
					via: 'upload',
				}),
			]);
		});

		it("Kickoff and Wait: the crew's result says which file it got", async () => {
			const bytes = pdfLikeBytes(TWO_MB, 2);
			const { output } = await runCrewNode({
				parameters: kickoffAndWait('multipart'),
				credentials: crew.credentials,
				items: [await pdfItem(bytes)],
			});
			expect(output[0].json.state).toBe('completed');
			expect(output[0].json.result as string).toContain(
				`file document: report.pdf (application/pdf, ${TWO_MB} bytes, sha256 ${sha256(bytes)})`,
			);
		});

		it("a batch of 3 items with 3 files: each crew gets its own item's file", async () => {
			const files = [0, 1, 2].map((seed) => pdfLikeBytes(100_000 + seed * 1000, 10 + seed));
			const items = await Promise.all(
				files.map(async (bytes, index) => await pdfItem(bytes, `doc-${index}.pdf`)),
			);
			const { output } = await runCrewNode({
				parameters: kickoffAndWait('multipart'),
				credentials: crew.credentials,
				items,
			});
			expect(output.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			expect(crew.service.runs).toHaveLength(3);
			for (const run of crew.service.runs) {
				const itemIndex = Number(/item (\d)/.exec(run.inputs.topic)?.[1]);
				const arrived = run.files;
				expect(arrived).toEqual([
					expect.objectContaining({
						name: `doc-${itemIndex}.pdf`,
						size: files[itemIndex].length,
						sha256: sha256(files[itemIndex]),
					}),
				]);
			}
		});
	},
);

describe('Files with Wait By: Callback', () => {
	let store: BinaryStore;
	beforeAll(async () => {
		store = await useBinaryDataMode('filesystem');
	});
	afterAll(() => store.dispose());

	it("each crew of a parked batch got its own item's file, with the callback channel beside it in the multipart kickoff", async () => {
		crew.service.configure({ durationMs: 60_000 });
		const files = [0, 1, 2].map((seed) => pdfLikeBytes(200_000 + seed, 20 + seed));
		const items = await Promise.all(
			files.map(async (bytes, index) => ({
				json: {},
				binary: { data: await store.store(bytes, `cb-${index}.pdf`, 'application/pdf') },
			})),
		);
		const execution = await runUntilParked({
			parameters: {
				...kickoffAndWait('multipart'),
				waitBy: 'callback',
				options: { pollInterval: 0.2, timeout: 120, firstPhase: 0.2 },
			},
			credentials: crew.credentials,
			items,
			webhookWaitingBaseUrl: 'http://127.0.0.1:9/webhook-waiting',
		});
		expect(execution.error).toBeUndefined();
		expect(execution.waitTill).toBeDefined();
		expect(crew.service.runs).toHaveLength(3);
		for (const run of crew.service.runs) {
			const itemIndex = Number(/item (\d)/.exec(run.inputs.topic)?.[1]);
			expect(run.files).toEqual([
				expect.objectContaining({
					name: `cb-${itemIndex}.pdf`,
					sha256: sha256(files[itemIndex]),
					via: 'multipart',
				}),
			]);
			expect(run.callbacks.stream?.url).toContain('http://127.0.0.1:9/webhook-waiting/');
		}
	});
});

describe('Files into a flow', () => {
	let store: BinaryStore;
	beforeAll(async () => {
		store = await useBinaryDataMode('filesystem');
	});
	afterAll(() => store.dispose());
	afterEach(() =>
		crew.service.configure({ deployment: 'crew', dialect: 'documented', flowFileFields: [] }),
	);

	it.each(['multipart', 'upload'])(
		"a file for the flow's file-typed state field (%s) lands in its state",
		async (sendFiles) => {
			crew.service.configure({
				deployment: 'flow',
				dialect: 'live',
				inputsShape: 'objects',
				flowFileFields: ['document'],
			});
			const bytes = pdfLikeBytes(TWO_MB, 7);
			const item = {
				json: {},
				binary: { data: await store.store(bytes, 'contract.pdf', 'application/pdf') },
			};
			const { output } = await runCrewNode({
				parameters: { ...kickoffAndWait(sendFiles), deploymentType: 'flow' },
				credentials: crew.credentials,
				items: [item],
				typeVersion: 1.2,
			});
			expect(output[0].json.state).toBe('completed');
			const document = {
				name: 'contract.pdf',
				type: 'application/pdf',
				size: TWO_MB,
				sha256: sha256(bytes),
			};
			expect(crew.service.runs[0].flow?.state.document).toEqual(document);
			expect(crew.service.runs[0].inputs).toEqual({ topic: 'item 0' });
		},
	);
});

describe('Files: bad input, before any request', () => {
	let store: BinaryStore;
	beforeAll(async () => {
		store = await useBinaryDataMode('filesystem');
	});
	afterAll(() => store.dispose());

	it('an item without the named binary property gets an error naming it and listing what it has; the other items go on', async () => {
		const bytes = pdfLikeBytes(50_000);
		const good = {
			json: {},
			binary: { data: await store.store(bytes, 'a.pdf', 'application/pdf') },
		};
		const wrong = {
			json: {},
			binary: {
				attachment_0: await store.store(bytes, 'b.pdf', 'application/pdf'),
				attachment_1: await store.store(bytes, 'c.pdf', 'application/pdf'),
			},
		};
		const none = { json: {} };
		const { output, record } = await runCrewWorkflow({
			parameters: kickoff('multipart'),
			credentials: crew.credentials,
			items: [good, wrong, none],
			continueOnFail: true,
		});
		expect(output).toHaveLength(3);
		expect(output[0].json.kickoff_id).toBeDefined();
		expect(output[1].json.error).toBe(
			'This item has no binary property "data" to send as the crew\'s file "document"',
		);
		expect(output[1].pairedItem).toEqual({ item: 1 });
		expect(JSON.stringify(output[1])).toContain('attachment_0, attachment_1');
		expect(output[2].json.error).toBe(
			'This item has no binary property "data" to send as the crew\'s file "document"',
		);
		expect(record.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
		expect(crew.service.runs).toHaveLength(1);
	});

	it.each([
		[
			'an empty file field name',
			{ files: { file: [{ fieldName: ' ', binaryPropertyName: 'data' }] } },
			'File 1 has an empty File Field Name',
		],
		[
			'two entries for one field',
			{
				files: {
					file: [
						{ fieldName: 'doc', binaryPropertyName: 'data' },
						{ fieldName: 'doc', binaryPropertyName: 'data' },
					],
				},
			},
			'Two files are given for the crew\'s file field "doc"',
		],
		[
			'a URL that is not http(s)',
			{
				sendFiles: 'urls',
				fileUrls: { file: [{ fieldName: 'doc', url: 'ftp://example.com/a.pdf' }] },
			},
			'The URL for the crew\'s file field "doc" is not an absolute http(s) URL: "ftp://example.com/a.pdf"',
		],
	])('%s is a clear error, and nothing is sent', async (_, parameters, message) => {
		const item = {
			json: {},
			binary: { data: await store.store(pdfLikeBytes(1000), 'a.pdf', 'application/pdf') },
		};
		const { output, record } = await runCrewWorkflow({
			parameters: { ...kickoff('multipart'), ...parameters },
			credentials: crew.credentials,
			items: [item],
			continueOnFail: true,
		});
		expect(output[0].json.error).toBe(message);
		expect(record.requests.filter((request) => request.method === 'POST')).toEqual([]);
	});
});

describe('Files: File URLs', () => {
	let server: http.Server;
	let fileUrl: string;
	const bytes = pdfLikeBytes(TWO_MB, 5);
	beforeAll(async () => {
		server = http.createServer((_request, response) => {
			response.writeHead(200, {
				'Content-Type': 'application/pdf',
				'Content-Length': bytes.length,
			});
			response.end(bytes);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		fileUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hosted/report.pdf`;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));

	it('sends field → URL as input_files, no binary needed, and the service fetches the file', async () => {
		const parameters = {
			...kickoff('urls'),
			fileUrls: { file: [{ fieldName: 'document', url: '={{ $json.link }}' }] },
		};
		await runCrewNode({
			parameters,
			credentials: crew.credentials,
			items: [{ json: { link: fileUrl } }],
		});
		const body = crew.service.requests.find((request) => request.route === 'kickoff')
			?.body as IDataObject;
		expect(body.input_files).toEqual({ document: fileUrl });
		expect(filesOf(0)).toEqual([
			expect.objectContaining({
				field: 'document',
				size: TWO_MB,
				sha256: sha256(bytes),
				via: 'url',
				url: fileUrl,
			}),
		]);
	});
});

describe('Files: deployments that refuse them', () => {
	let store: BinaryStore;
	beforeAll(async () => {
		store = await useBinaryDataMode('filesystem');
	});
	afterAll(() => store.dispose());

	const pdf = async (length = 50_000) => ({
		json: {},
		binary: { data: await store.store(pdfLikeBytes(length), 'report.pdf', 'application/pdf') },
	});

	it.each(['multipart', 'upload'])(
		'an older deployment (%s) says it does not take files, and starts nothing',
		async (sendFiles) => {
			crew.service.configure({ multipartKickoff: 'refused' });
			const { output } = await runCrewWorkflow({
				parameters: kickoff(sendFiles),
				credentials: crew.credentials,
				items: [await pdf()],
				continueOnFail: true,
			});
			expect(output[0].json.error as string).toMatch(
				/^This deployment does not take files: it answered (422|404)/,
			);
			expect(JSON.stringify(output[0].json)).toContain(
				'it needs a crewAI release with native file inputs',
			);
			expect(crew.service.runs).toHaveLength(0);
		},
	);

	it('a 413 names the file and its size', async () => {
		crew.service.configure({ maxFileBytes: 1024 * 1024 });
		const { output } = await runCrewWorkflow({
			parameters: kickoff('multipart'),
			credentials: crew.credentials,
			items: [await pdf(TWO_MB)],
			continueOnFail: true,
		});
		// A proxy answers 413 and closes at once: the close can reach n8n before the answer (EPIPE). Either way the file and its size are named.
		expect([
			'The file report.pdf (for document, 2.0 MB, 2097152 bytes) is too large for the crew service (it answered 413): 413 Request Entity Too Large',
			`The crew service at ${crew.service.url} closed the connection while the file report.pdf (for document, 2.0 MB, 2097152 bytes) was being sent (EPIPE)`,
		]).toContain(output[0].json.error);
		expect(crew.service.runs).toHaveLength(0);
	});

	it('a multipart kickoff answered 500 is not sent again', async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 500,
			afterProcessing: true,
		});
		const { output } = await runCrewWorkflow({
			parameters: kickoff('multipart'),
			credentials: crew.credentials,
			items: [await pdf()],
			continueOnFail: true,
		});
		expect(output[0].json.error as string).toContain('answered 500 while starting the crew');
		expect(crew.service.count('kickoff')).toBe(1);
	});

	it('an upload answered 503 is repeated (it starts no run), the kickoff is sent once', async () => {
		crew.service.injectFault({ route: 'files', kind: 'status', status: 503 });
		const { output } = await runCrewWorkflow({
			parameters: kickoff('upload'),
			credentials: crew.credentials,
			items: [await pdf()],
			continueOnFail: true,
		});
		expect(output[0].json.kickoff_id).toBeDefined();
		expect(crew.service.requests.map((request) => [request.route, request.status])).toEqual([
			['files', 503],
			['files', 200],
			['kickoff', 200],
		]);
	});
});

describe('Send Files from node version 1.5: a switch that starts off', () => {
	let store: BinaryStore;
	beforeAll(async () => {
		store = await useBinaryDataMode('memory');
	});
	afterAll(() => store.dispose());
	const pdf = async () => ({
		json: {},
		binary: { data: await store.store(pdfLikeBytes(1024), 'report.pdf', 'application/pdf') },
	});
	const plain = {
		resource: 'crew',
		operation: 'kickoff',
		inputsMode: 'json',
		inputsJson: '{"topic": "AI"}',
	};

	it('a node added now sends no file, even with a binary on the item; turned on, it sends the file its Files list names', async () => {
		await runCrewNode({
			parameters: plain,
			credentials: crew.credentials,
			items: [await pdf()],
			typeVersion: 1.5,
		});
		expect(filesOf(0)).toBeUndefined();
		expect(
			crew.service.requests.find((request) => request.route === 'kickoff')?.files,
		).toBeUndefined();
		const on = {
			...plain,
			withFiles: true,
			sendFiles: 'multipart',
			files: { file: [{ fieldName: 'document', binaryPropertyName: 'data' }] },
		};
		await runCrewNode({
			parameters: on,
			credentials: crew.credentials,
			items: [await pdf()],
			typeVersion: 1.5,
		});
		expect(filesOf(1)).toEqual([
			expect.objectContaining({ field: 'document', name: 'report.pdf', via: 'multipart' }),
		]);
	});

	it('a Files list left in a 1.5 node whose switch is off is not sent', async () => {
		const off = {
			...plain,
			withFiles: false,
			sendFiles: 'multipart',
			files: { file: [{ fieldName: 'document', binaryPropertyName: 'data' }] },
		};
		await runCrewNode({
			parameters: off,
			credentials: crew.credentials,
			items: [await pdf()],
			typeVersion: 1.5,
		});
		expect(filesOf(0)).toBeUndefined();
	});

	it('a node saved with version 1.4 keeps what it had: its Files list is sent With the Kickoff, as before', async () => {
		await runCrewNode({
			parameters: kickoff('multipart'),
			credentials: crew.credentials,
			items: [await pdf()],
			typeVersion: 1.4,
		});
		expect(filesOf(0)).toEqual([
			expect.objectContaining({ field: 'document', name: 'report.pdf', via: 'multipart' }),
		]);
	});
});
