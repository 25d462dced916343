import type { IDataObject } from 'n8n-workflow';

import { InvalidParameterError, shownValue } from '../records/invalidParameter';
import { isAbsoluteHttpUrl } from '../records/urlOptions';

/**
 * The Files parameters of Kickoff and Kickoff and Wait, read and checked before
 * any request: which crew file field gets which of the item's binary properties,
 * or which URL. The service's kickoff takes files three ways
 * (docs/development/service-api.md#files); all three name a file by the crew's field.
 */

/**
 * How the files travel: in the kickoff's own multipart body, uploaded with `POST /files` first, or
 * as URLs.
 */
export type SendFilesMode = 'multipart' | 'upload' | 'urls';

export const SEND_FILES_MODES: readonly SendFilesMode[] = ['multipart', 'upload', 'urls'];

/** One file from the item's binary data: the crew's file field and the item's binary property. */
export interface BinaryFileEntry {
	field: string;
	binaryProperty: string;
}

/** One file already hosted somewhere: the crew's file field and the file's URL. */
export interface UrlFileEntry {
	field: string;
	url: string;
}

export type FileEntries =
	| { mode: 'multipart' | 'upload'; entries: BinaryFileEntry[] }
	| { mode: 'urls'; entries: UrlFileEntry[] };

const FIELD_LABEL = 'File Field Name';
const BINARY_LABEL = 'Input Data Field Name';
const NOTHING_SENT = 'No request was sent for this item.';

export function readSendFilesMode(value: unknown): SendFilesMode {
	if (value === undefined || value === null || value === '') return 'multipart';
	if (SEND_FILES_MODES.includes(value as SendFilesMode)) return value as SendFilesMode;
	throw new InvalidParameterError(
		`Send Files must be one of ${SEND_FILES_MODES.join(', ')}, not "${shownValue(value)}"`,
		`Choose With the Kickoff, Upload First or File URLs. ${NOTHING_SENT}`,
	);
}

/**
 * The rows of a fixedCollection as n8n hands them over: absent, an empty object, or `{ [group]:
 * row[] }`.
 */
function rowsOf(collection: unknown, group: string): IDataObject[] {
	if (typeof collection !== 'object' || collection === null) return [];
	const rows = (collection as IDataObject)[group];
	return Array.isArray(rows)
		? (rows.filter((row) => typeof row === 'object' && row !== null) as IDataObject[])
		: [];
}

function readField(row: IDataObject, position: number): string {
	const field = typeof row.fieldName === 'string' ? row.fieldName.trim() : '';
	if (field === '') {
		throw new InvalidParameterError(
			`File ${position} has an empty ${FIELD_LABEL}`,
			`Give each file the name of the crew's file input it is for (e.g. document), as the crew or flow declares it, or remove the empty entry. ${NOTHING_SENT}`,
		);
	}
	return field;
}

/**
 * One entry per crew field: the service takes one file per field, and the second would silently
 * replace the first.
 */
function checkDistinctFields(fields: string[]): void {
	const seen = new Set<string>();
	for (const field of fields) {
		if (seen.has(field)) {
			throw new InvalidParameterError(
				`Two files are given for the crew's file field "${field}"`,
				`Each crew file field takes one file. Remove one of the entries for "${field}", or give it another field name. ${NOTHING_SENT}`,
			);
		}
		seen.add(field);
	}
}

/**
 * The binary-data entries (With the Kickoff, Upload First): fields filled in and distinct; an empty
 * property means `data`.
 */
export function readBinaryFileEntries(collection: unknown): BinaryFileEntry[] {
	const entries = rowsOf(collection, 'file').map((row, index): BinaryFileEntry => {
		const field = readField(row, index + 1);
		const property =
			typeof row.binaryPropertyName === 'string' ? row.binaryPropertyName.trim() : '';
		return { field, binaryProperty: property === '' ? 'data' : property };
	});
	checkDistinctFields(entries.map((entry) => entry.field));
	return entries;
}

/**
 * The URL entries (File URLs): fields filled in and distinct, every URL an absolute http(s) URL.
 */
export function readUrlFileEntries(collection: unknown): UrlFileEntry[] {
	const entries = rowsOf(collection, 'file').map((row, index): UrlFileEntry => {
		const field = readField(row, index + 1);
		const url = typeof row.url === 'string' ? row.url.trim() : '';
		if (!isAbsoluteHttpUrl(url)) {
			throw new InvalidParameterError(
				`The URL for the crew's file field "${field}" is not an absolute http(s) URL: "${shownValue(row.url ?? '')}"`,
				`Give the full address the service can download the file from, starting with https:// (or http://). To send a file the workflow holds, set Send Files to With the Kickoff or Upload First instead. ${NOTHING_SENT}`,
			);
		}
		return { field, url };
	});
	checkDistinctFields(entries.map((entry) => entry.field));
	return entries;
}

/** The item's files by the chosen mode; none when the mode's list is empty. */
export function readFileEntries(
	mode: SendFilesMode,
	files: unknown,
	fileUrls: unknown,
): FileEntries {
	return mode === 'urls'
		? { mode, entries: readUrlFileEntries(fileUrls) }
		: { mode, entries: readBinaryFileEntries(files) };
}

/**
 * The error for an item that lacks the binary property an entry names, listing the
 * properties it has, as the user needs them to fix Input Data Field Name.
 */
export function missingBinaryError(
	entry: BinaryFileEntry,
	available: readonly string[],
): InvalidParameterError {
	const has =
		available.length > 0
			? `The item's binary properties are: ${available.join(', ')}. Set ${BINARY_LABEL} to one of them.`
			: "The item has no binary data at all: the node before this one must output a file (e.g. Read/Write Files from Disk, a Form Trigger's upload, an email attachment).";
	return new InvalidParameterError(
		`This item has no binary property "${entry.binaryProperty}" to send as the crew's file "${entry.field}"`,
		`${has} ${NOTHING_SENT}`,
	);
}

/**
 * The kickoff's fields other than the files, as the parts of a multipart body: text
 * as it is, everything else (the inputs, meta, the webhooks objects) as JSON text,
 * which is how the service reads a multipart kickoff.
 */
export function kickoffFormFields(body: IDataObject): Array<{ name: string; text: string }> {
	const fields: Array<{ name: string; text: string }> = [];
	for (const [name, value] of Object.entries(body)) {
		if (value === undefined || value === null) continue;
		fields.push({ name, text: typeof value === 'string' ? value : JSON.stringify(value) });
	}
	return fields;
}

/** A byte count as people read it, with the exact count beside it. */
export function describeSize(bytes: number | undefined): string {
	if (bytes === undefined) return 'size unknown';
	const units = ['bytes', 'KB', 'MB', 'GB'];
	let value = bytes;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}, ${bytes} bytes`;
}

/**
 * The bytes a base64 text decodes to, without decoding it (n8n's in-memory binary data is base64).
 */
export function base64ByteLength(text: string): number {
	// n8n writes it without line breaks; a text with any is measured without them (no copy
	// otherwise).
	const clean = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
	const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
	return Math.floor((clean.length * 3) / 4) - padding;
}
