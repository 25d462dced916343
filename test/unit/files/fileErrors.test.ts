import type { INode } from 'n8n-workflow';

import {
	filesCutOffError,
	filesRefusedError,
	filesTooLargeError,
	isFilesRefusal,
	uploadFailedError,
} from '../../../nodes/files/fileErrors';
import { mayRepeatUpload } from '../../../nodes/files/uploadFile';
import type { HttpAnswer } from '../../../nodes/transport/answers';

const node: INode = {
	id: 'n',
	name: 'Crew',
	type: 'n8n-nodes-crewai.crew',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const http = (statusCode: number, body?: unknown): HttpAnswer => ({
	kind: 'http',
	statusCode,
	body,
});

/** FastAPI's answer when a route that takes a JSON object gets form data. */
const FASTAPI_FORM_REFUSAL = {
	detail: [
		{
			type: 'model_attributes_type',
			loc: ['body'],
			msg: 'Input should be a valid dictionary or object to extract fields from',
			input: '--boundary',
		},
	],
};

describe('isFilesRefusal', () => {
	it("reads 400, 415 and FastAPI's whole-body 422 to a multipart kickoff as a deployment without files", () => {
		expect(isFilesRefusal(http(400, { detail: 'bad' }), 'multipart')).toBe(true);
		expect(isFilesRefusal(http(415), 'multipart')).toBe(true);
		expect(isFilesRefusal(http(422, FASTAPI_FORM_REFUSAL), 'multipart')).toBe(true);
	});

	it("leaves a 422 about the inputs to the kickoff's own error", () => {
		expect(isFilesRefusal(http(422, { detail: 'Missing inputs: topic' }), 'multipart')).toBe(false);
		expect(
			isFilesRefusal(
				http(422, {
					detail: [{ type: 'missing', loc: ['body', 'inputs', 'topic'], msg: 'Field required' }],
				}),
				'multipart',
			),
		).toBe(false);
		expect(isFilesRefusal(http(404), 'multipart')).toBe(false);
	});

	it('reads 404 and 405 to POST /files as no upload route', () => {
		expect(isFilesRefusal(http(404, { detail: 'Not Found' }), 'upload')).toBe(true);
		expect(isFilesRefusal(http(405), 'upload')).toBe(true);
		expect(isFilesRefusal(http(400), 'upload')).toBe(false);
	});
});

describe('file errors', () => {
	it('say the deployment does not take files, with its status and words', () => {
		const error = filesRefusedError(node, http(422, FASTAPI_FORM_REFUSAL), 'multipart', 2, 'tok');
		expect(error.message).toBe(
			'This deployment does not take files: it answered 422 to the kickoff with files (multipart/form-data): Input should be a valid dictionary or object to extract fields from',
		);
		expect(error.description).toContain('it needs a crewAI release with native file inputs');
		expect(error.httpCode).toBe('422');
		expect(error.context.itemIndex).toBe(2);
	});

	it('name the file and its size for a 413', () => {
		const html =
			'<html><head><title>413 Request Entity Too Large</title></head><body></body></html>';
		const error = filesTooLargeError(
			node,
			http(413, html),
			[{ field: 'document', fileName: 'report.pdf', size: 2_097_152 }],
			0,
			'tok',
		);
		expect(error.message).toBe(
			'The file report.pdf (for document, 2.0 MB, 2097152 bytes) is too large for the crew service (it answered 413): 413 Request Entity Too Large',
		);
		expect(error.description).toContain('nothing was started');
	});

	it('say a body cut off by the service started nothing, naming the files and sizes', () => {
		const error = filesCutOffError(
			node,
			'EPIPE',
			[{ field: 'document', fileName: 'big.pdf', size: 1024 }],
			1,
			'http://127.0.0.1:9',
		);
		expect(error.message).toBe(
			'The crew service at http://127.0.0.1:9 closed the connection while the file big.pdf (for document, 1.0 KB, 1024 bytes) was being sent (EPIPE)',
		);
		expect(error.description).toContain('no crew was started');
		expect(error.context.itemIndex).toBe(1);
	});

	it('keep the token out of an upload failure', () => {
		const error = uploadFailedError(
			node,
			http(500, { detail: 'broke with secret-token-123' }),
			{ field: 'doc', fileName: 'a.pdf', size: 3 },
			0,
			'secret-token-123',
			3,
		);
		expect(error.message).not.toContain('secret-token-123');
		expect(error.description).toContain('tried 3 times');
	});
});

describe('mayRepeatUpload', () => {
	it('repeats an upload after a network failure, a 429 or a 5xx, never after another 4xx', () => {
		expect(mayRepeatUpload({ kind: 'network', code: 'ECONNRESET', message: 'reset' })).toBe(true);
		expect(mayRepeatUpload(http(429))).toBe(true);
		expect(mayRepeatUpload(http(503))).toBe(true);
		expect(mayRepeatUpload(http(413))).toBe(false);
		expect(mayRepeatUpload(http(404))).toBe(false);
		expect(mayRepeatUpload(http(200))).toBe(false);
	});
});
