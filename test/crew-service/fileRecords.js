// @ts-check
'use strict';

/** @typedef {import('./index').ReceivedFile} ReceivedFile */

/**
 * What a completed run's result says it got, one line a file, so a workflow's output shows what the
 * crew received. A URL the service did not fetch (not on this machine) has no type, size or hash.
 * @param {ReceivedFile} file
 */
function fileResultLine(file) {
	const type = file.type ?? 'unknown type';
	const size = file.size === null ? 'unknown size' : `${file.size} bytes`;
	const hash = file.sha256 === null ? 'not downloaded' : `sha256 ${file.sha256}`;
	return `file ${file.field}: ${file.name} (${type}, ${size}, ${hash})`;
}

/** A file as a deployed flow's file-typed state field holds it. @param {ReceivedFile} file */
function fileStateValue(file) {
	return { name: file.name, type: file.type, size: file.size, sha256: file.sha256 };
}

module.exports = { fileResultLine, fileStateValue };
