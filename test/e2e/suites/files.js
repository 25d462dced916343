'use strict';
// Files into crews and flows in a real n8n: a 2 MB PDF read by n8n's own Read/Write
// Files from Disk node reaches the reference service byte for byte (sha256) with its name and
// type, With the Kickoff (multipart), Upload First and as a File URL; a batch of 3 files on 3
// items, each crew getting its own; an item without the binary property (its error, the others
// go on); a flow's file-typed state field; an older deployment refusing files.
//
// On the shared n8n, whose Read/Write Files from Disk may read only t.filesDir (n8n 2.x reads only
// under N8N_RESTRICT_FILE_ACCESS_TO; 1.x gets the same), where this suite writes the PDFs. Its
// workflows are saved over REST (they name that folder and the hosted file's address, known only
// once the suite runs). Both majors keep the binary data on disk, so the node streams it from
// n8n's store: on 2.x that is the default, and each run is the editor's "Execute workflow" over
// REST; 1.x's default is in memory, which the other suites keep on its shared n8n, so there each
// run is `n8n execute` on the shared user folder with filesystem mode (in memory it would also put
// the 2 MB as base64 into the run `n8n execute --rawOutput` prints, too big to read back). The
// in-memory path is proven by the jest tests (test/node/files.test.ts).

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const { extractRunJson } = require('../lib/n8n');
const { CREDENTIALS } = require('../lib/fixtures');
const { items, errorText } = require('../lib/runData');

const TWO_MB = 2 * 1024 * 1024;
const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/** A file like a PDF: the `%PDF-` header, then bytes that differ by position. */
function pdfLikeBytes(length, seed) {
	const bytes = Buffer.alloc(length);
	const header = Buffer.from('%PDF-1.7\n%âãÏÓ\n');
	header.copy(bytes);
	for (let i = header.length; i < length; i++) bytes[i] = (i * 131 + seed * 17 + (i >> 8)) & 0xff;
	return bytes;
}

const crewNode = (name, parameters, position) => ({
	parameters,
	name,
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1.2,
	position,
	credentials: { crewApi: CREDENTIALS.organization },
	onError: 'continueRegularOutput',
});

/** Manual Trigger → Read/Write Files from Disk (the given path or glob) → the Crew node. */
function fileWorkflow(id, name, fileSelector, crewParameters) {
	return {
		id,
		name,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: { fileSelector, options: {} },
				name: 'Read Files',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1,
				position: [220, 0],
			},
			crewNode('Crew', crewParameters, [440, 0]),
		],
		connections: {
			Start: { main: [[{ node: 'Read Files', type: 'main', index: 0 }]] },
			'Read Files': { main: [[{ node: 'Crew', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

const crewParameters = (operation, sendFiles, extra = {}) => ({
	operation,
	deploymentType: 'crew',
	inputsMode: 'json',
	inputsJson: '={{ JSON.stringify({ topic: $binary.data ? $binary.data.fileName : "no file" }) }}',
	sendFiles,
	files: { file: [{ fieldName: 'document', binaryPropertyName: 'data' }] },
	...(operation === 'kickoffAndWait' ? { options: { pollInterval: 0.5, timeout: 60 } } : {}),
	...extra,
});

function workflows(filesDir, fileUrl) {
	const report = path.join(filesDir, 'report.pdf');
	return {
		multipart: fileWorkflow(
			'e2eFilesMultip01',
			'E2E files: with the kickoff',
			report,
			crewParameters('kickoff', 'multipart'),
		),
		upload: fileWorkflow(
			'e2eFilesUpload01',
			'E2E files: upload first',
			report,
			crewParameters('kickoff', 'upload'),
		),
		urls: {
			id: 'e2eFilesUrls0001',
			name: 'E2E files: file URLs',
			nodes: [
				{
					parameters: {},
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
				},
				crewNode(
					'Crew',
					{
						...crewParameters('kickoff', 'urls'),
						inputsJson: '{"topic": "hosted"}',
						fileUrls: { file: [{ fieldName: 'document', url: fileUrl }] },
					},
					[220, 0],
				),
			],
			connections: { Start: { main: [[{ node: 'Crew', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
			active: false,
		},
		batch: fileWorkflow(
			'e2eFilesBatch001',
			'E2E files: a batch of 3',
			path.join(filesDir, 'batch', '*.pdf'),
			crewParameters('kickoffAndWait', 'multipart'),
		),
		missing: fileWorkflow(
			'e2eFilesMissing1',
			'E2E files: no such binary property',
			report,
			crewParameters('kickoff', 'multipart', {
				files: { file: [{ fieldName: 'document', binaryPropertyName: 'attachment' }] },
			}),
		),
		flow: fileWorkflow('e2eFilesFlow0001', "E2E files: a flow's file field", report, {
			...crewParameters('kickoffAndWait', 'multipart'),
			deploymentType: 'flow',
		}),
	};
}

async function suite(t) {
	const filesDir = t.filesDir;
	fs.mkdirSync(path.join(filesDir, 'batch'), { recursive: true });
	const report = pdfLikeBytes(TWO_MB, 1);
	fs.writeFileSync(path.join(filesDir, 'report.pdf'), report);
	const batch = [0, 1, 2].map((i) => pdfLikeBytes(300_000 + i, 10 + i));
	batch.forEach((bytes, i) =>
		fs.writeFileSync(path.join(filesDir, 'batch', `doc-${i}.pdf`), bytes),
	);
	const hosted = pdfLikeBytes(TWO_MB, 5);
	const server = http.createServer((_req, res) =>
		res
			.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': hosted.length })
			.end(hosted),
	);
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const fileUrl = `http://127.0.0.1:${server.address().port}/hosted/report.pdf`;
	try {
		const { n8n, crew } = t;
		// Saved as the editor saves a new workflow: n8n gives each its id.
		const ids = {};
		for (const [key, wf] of Object.entries(workflows(filesDir, fileUrl)))
			ids[key] = (await t.rest.post('workflows', { ...wf, id: undefined })).id;
		const env = {
			N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		};
		const runOf = async (key) => {
			if (t.major === '2') {
				const exec = await t.run(ids[key], { timeoutMs: 240000 });
				assert.equal(
					exec.code,
					0,
					`the workflow ${key} ended ${exec.status}: ${errorText(exec.run)}`,
				);
				return exec.run;
			}
			const r = await n8n.cli(['execute', `--id=${ids[key]}`, '--rawOutput'], {
				env,
				timeoutMs: 240000,
				name: `execute-files-${key}`,
			});
			const run = extractRunJson(r.stdout);
			assert.ok(run, `n8n printed no run for ${key}:\n${r.output.slice(-2000)}`);
			return run;
		};
		const execute = async (key) => {
			const run = await runOf(key);
			assert.equal(errorText(run), '', `the workflow ${key} failed`);
			t.assertNoToken(JSON.stringify(run), `run of ${key}`);
			return run;
		};
		const fresh = (options = {}) =>
			t.resetService({
				multipartKickoff: 'accepted',
				maxFileBytes: null,
				flowFileFields: [],
				durationMs: 500,
				...options,
			});
		const arrived = (run) => run.files || [];
		const expectFile = (file, via, bytes = report, name = 'report.pdf') => {
			assert.equal(file.field, 'document');
			assert.equal(file.name, name);
			assert.equal(file.type, 'application/pdf');
			assert.equal(file.size, bytes.length);
			assert.equal(file.sha256, sha256(bytes));
			assert.equal(file.via, via);
		};

		for (const [key, via] of [
			['multipart', 'multipart'],
			['upload', 'upload'],
		]) {
			await t.check(
				`a 2 MB PDF from Read/Write Files from Disk reaches the service byte for byte with its name and type (${key === 'multipart' ? 'With the Kickoff' : 'Upload First'})`,
				async () => {
					await fresh();
					const run = await execute(key);
					const out = items(run, 'Crew');
					assert.equal(out.length, 1);
					assert.ok(out[0].json.kickoff_id, JSON.stringify(out[0].json));
					const runs = await crew.runs();
					assert.equal(runs.length, 1);
					assert.equal(arrived(runs[0]).length, 1);
					expectFile(arrived(runs[0])[0], via);
					const posts = (await crew.requests())
						.filter((r) => r.method === 'POST')
						.map((r) => r.route);
					assert.deepEqual(posts, key === 'upload' ? ['files', 'kickoff'] : ['kickoff']);
				},
			);
		}

		await t.check(
			'File URLs: the URL goes as input_files and the service fetches the 2 MB PDF',
			async () => {
				await fresh();
				await execute('urls');
				const runs = await crew.runs();
				assert.equal(runs.length, 1);
				const [file] = arrived(runs[0]);
				assert.equal(file.via, 'url');
				assert.equal(file.url, fileUrl);
				assert.equal(file.size, hosted.length);
				assert.equal(file.sha256, sha256(hosted));
			},
		);

		await t.check(
			"a batch of 3 files on 3 items: each crew gets its own item's file, in item order",
			async () => {
				await fresh();
				const run = await execute('batch');
				const out = items(run, 'Crew');
				assert.equal(out.length, 3);
				for (const item of out)
					assert.equal(item.json.state, 'completed', JSON.stringify(item.json));
				const runs = await crew.runs();
				assert.equal(runs.length, 3);
				for (const r of runs) {
					const i = Number(/doc-(\d)\.pdf/.exec(r.inputs.topic)[1]);
					expectFile(arrived(r)[0], 'multipart', batch[i], `doc-${i}.pdf`);
				}
				for (const [i, item] of out.entries())
					assert.match(
						String(item.json.result),
						new RegExp(
							`file document: doc-${i}\\.pdf \\(application/pdf, ${batch[i].length} bytes, sha256 ${sha256(batch[i])}\\)`,
						),
					);
			},
		);

		await t.check(
			"an item without the named binary property: its error names it and lists the item's, nothing sent",
			async () => {
				await fresh();
				const run = await execute('missing');
				const [item] = items(run, 'Crew');
				assert.equal(
					item.json.error,
					'This item has no binary property "attachment" to send as the crew\'s file "document"',
				);
				assert.match(JSON.stringify(item.json), /binary properties are: data/);
				assert.equal((await crew.requests()).filter((r) => r.method === 'POST').length, 0);
			},
		);

		await t.check(
			"a flow's file-typed state field gets the PDF (name, type, size, sha256 in its state)",
			async () => {
				await fresh({
					deployment: 'flow',
					dialect: 'live',
					inputsShape: 'objects',
					flowFileFields: ['document'],
				});
				const run = await execute('flow');
				const [item] = items(run, 'Crew');
				assert.equal(item.json.state, 'completed', JSON.stringify(item.json));
				const text = JSON.stringify(item.json);
				assert.ok(
					text.includes(sha256(report)),
					`the flow's result shows no file: ${text.slice(0, 600)}`,
				);
				expectFile(arrived((await crew.runs())[0])[0], 'multipart');
			},
		);

		await t.check(
			'an older deployment refusing multipart: the item says the deployment does not take files, no run',
			async () => {
				await fresh({ multipartKickoff: 'refused' });
				const run = await execute('multipart');
				const [item] = items(run, 'Crew');
				assert.match(
					String(item.json.error),
					/^This deployment does not take files: it answered 422/,
				);
				assert.match(JSON.stringify(item.json), /needs a crewAI release with native file inputs/);
				assert.equal((await crew.runs()).length, 0);
			},
		);
	} finally {
		server.close();
	}
}

module.exports = {
	name: 'files',
	title: 'Files into crews and flows: Read/Write Files from Disk to the service, three ways',
	majors: ['1', '2'],
	seconds: 35,
	needs: { server: true },
	run: suite,
};
