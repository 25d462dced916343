import { InvalidParameterError } from '../../../nodes/records/invalidParameter';
import {
	base64ByteLength,
	describeSize,
	kickoffFormFields,
	missingBinaryError,
	readBinaryFileEntries,
	readFileEntries,
	readSendFilesMode,
	readUrlFileEntries,
} from '../../../nodes/files/kickoffFiles';
import { errorOf } from '../../helpers/invalidParameter';

describe('readBinaryFileEntries', () => {
	it('reads the rows n8n gives, trimmed, with data as the default binary property', () => {
		expect(
			readBinaryFileEntries({
				file: [
					{ fieldName: ' document ', binaryPropertyName: 'attachment_0' },
					{ fieldName: 'image', binaryPropertyName: '' },
				],
			}),
		).toEqual([
			{ field: 'document', binaryProperty: 'attachment_0' },
			{ field: 'image', binaryProperty: 'data' },
		]);
	});

	it.each([undefined, null, {}, { file: [] }, { file: 'x' }])(
		'reads %p as no files',
		(collection) => {
			expect(readBinaryFileEntries(collection)).toEqual([]);
		},
	);

	it('refuses an empty field name, saying which entry', () => {
		const error = errorOf(() =>
			readBinaryFileEntries({
				file: [
					{ fieldName: 'a', binaryPropertyName: 'data' },
					{ fieldName: '  ', binaryPropertyName: 'data' },
				],
			}),
		);
		expect(error).toBeInstanceOf(InvalidParameterError);
		expect(error.message).toBe('File 2 has an empty File Field Name');
		expect(error.description).toContain('No request was sent');
	});

	it('refuses two entries for one field', () => {
		const error = errorOf(() =>
			readBinaryFileEntries({
				file: [
					{ fieldName: 'doc', binaryPropertyName: 'a' },
					{ fieldName: 'doc ', binaryPropertyName: 'b' },
				],
			}),
		);
		expect(error.message).toBe('Two files are given for the crew\'s file field "doc"');
	});
});

describe('readUrlFileEntries', () => {
	it('takes http and https URLs', () => {
		expect(
			readUrlFileEntries({
				file: [
					{ fieldName: 'doc', url: ' https://example.com/a.pdf ' },
					{ fieldName: 'img', url: 'http://127.0.0.1:9/b.png' },
				],
			}),
		).toEqual([
			{ field: 'doc', url: 'https://example.com/a.pdf' },
			{ field: 'img', url: 'http://127.0.0.1:9/b.png' },
		]);
	});

	it.each([
		'ftp://example.com/a.pdf',
		'file:///etc/passwd',
		'example.com/a.pdf',
		'',
		'javascript:alert(1)',
	])('refuses %p, naming the field', (url) => {
		const error = errorOf(() => readUrlFileEntries({ file: [{ fieldName: 'doc', url }] }));
		expect(error.message).toContain(
			'The URL for the crew\'s file field "doc" is not an absolute http(s) URL',
		);
	});

	it('refuses two URLs for one field', () => {
		expect(
			errorOf(() =>
				readUrlFileEntries({
					file: [
						{ fieldName: 'doc', url: 'https://a/1' },
						{ fieldName: 'doc', url: 'https://a/2' },
					],
				}),
			).message,
		).toContain('"doc"');
	});
});

describe('readSendFilesMode and readFileEntries', () => {
	it('defaults to multipart and refuses an unknown mode', () => {
		expect(readSendFilesMode(undefined)).toBe('multipart');
		expect(readSendFilesMode('upload')).toBe('upload');
		expect(errorOf(() => readSendFilesMode('ftp')).message).toContain('Send Files must be one of');
	});

	it('reads the list the mode uses, and only that one', () => {
		const files = { file: [{ fieldName: 'doc', binaryPropertyName: 'data' }] };
		const urls = { file: [{ fieldName: 'doc', url: 'not a url' }] };
		expect(readFileEntries('multipart', files, urls)).toEqual({
			mode: 'multipart',
			entries: [{ field: 'doc', binaryProperty: 'data' }],
		});
		expect(
			readFileEntries(
				'urls',
				{ file: [{ fieldName: '' }] },
				{ file: [{ fieldName: 'doc', url: 'https://x/y' }] },
			),
		).toEqual({ mode: 'urls', entries: [{ field: 'doc', url: 'https://x/y' }] });
	});
});

describe('missingBinaryError', () => {
	it('names the property and lists the ones the item has', () => {
		const error = missingBinaryError({ field: 'document', binaryProperty: 'data' }, [
			'attachment_0',
			'attachment_1',
		]);
		expect(error.message).toBe(
			'This item has no binary property "data" to send as the crew\'s file "document"',
		);
		expect(error.description).toContain(
			"The item's binary properties are: attachment_0, attachment_1.",
		);
	});

	it('says when the item has no binary data at all', () => {
		expect(
			missingBinaryError({ field: 'document', binaryProperty: 'data' }, []).description,
		).toContain('The item has no binary data at all');
	});
});

describe('kickoffFormFields', () => {
	it('gives text fields as they are and every other field as JSON text', () => {
		expect(
			kickoffFormFields({
				inputs: { topic: 'AI' },
				restoreFromStateId: 'abc',
				meta: { a: 1 },
				webhooks: { events: ['x'] },
				skipped: null,
			}),
		).toEqual([
			{ name: 'inputs', text: '{"topic":"AI"}' },
			{ name: 'restoreFromStateId', text: 'abc' },
			{ name: 'meta', text: '{"a":1}' },
			{ name: 'webhooks', text: '{"events":["x"]}' },
		]);
	});
});

describe('base64ByteLength', () => {
	it.each([0, 1, 2, 3, 4, 5, 1000, 65_537])(
		'gives the decoded length of %i bytes without decoding',
		(length) => {
			const bytes = Buffer.alloc(length, 7);
			expect(base64ByteLength(bytes.toString('base64'))).toBe(length);
			expect(base64ByteLength(bytes.toString('base64').replace(/=+$/, ''))).toBe(length);
		},
	);
});

describe('describeSize', () => {
	it('gives a readable size with the exact byte count', () => {
		expect(describeSize(512)).toBe('512 bytes');
		expect(describeSize(2_097_152)).toBe('2.0 MB, 2097152 bytes');
		expect(describeSize(undefined)).toBe('size unknown');
	});
});
