// @ts-check
'use strict';

const { STATUS_CODES } = require('node:http');

/** @typedef {'documented' | 'fastapi'} ErrorShape */

// FastAPI's own router answers these, before any handler: bare, naming nothing,
// whatever shape the handlers' errors have.
const ROUTE_NOT_FOUND = Object.freeze({ detail: 'Not Found' });
const METHOD_NOT_ALLOWED = Object.freeze({ detail: 'Method Not Allowed' });

/** @param {number} status */
function reason(status) {
	return STATUS_CODES[status] || `HTTP ${status}`;
}

/**
 * @param {ErrorShape} shape
 * @param {number} status
 * @param {string} message
 */
function errorBody(shape, status, message) {
	return shape === 'fastapi' ? { detail: message } : { error: reason(status), message };
}

/**
 * The 422 has its own body in both shapes: the vendor's documented
 * "Validation Error" object, or FastAPI's list with one entry per field.
 * @param {ErrorShape} shape
 * @param {string[]} missing
 */
function missingInputsBody(shape, missing) {
	if (shape === 'fastapi') {
		return {
			detail: missing.map((name) => ({
				loc: ['body', 'inputs', name],
				msg: 'Field required',
				type: 'missing',
			})),
		};
	}
	return {
		error: 'Validation Error',
		message: 'Missing required inputs',
		details: { missing_inputs: missing },
	};
}

/**
 * The status route's own 404 for an id it does not know, as the vendor's API
 * reference documents it; in FastAPI's shape, the same words as the detail.
 * Unlike the router's bare 404 it names what was not found.
 * @param {ErrorShape} shape
 * @param {string} kickoffId
 */
function executionNotFoundBody(shape, kickoffId) {
	const message = `No execution found with ID: ${kickoffId}`;
	return shape === 'fastapi' ? { detail: message } : { error: 'Execution not found', message };
}

/**
 * A /resume without its required fields: the same two shapes, naming fields.
 * @param {ErrorShape} shape
 * @param {string[]} missing
 */
function missingFieldsBody(shape, missing) {
	if (shape === 'fastapi') {
		return {
			detail: missing.map((name) => ({
				loc: ['body', name],
				msg: 'Field required',
				type: 'missing',
			})),
		};
	}
	return {
		error: 'Validation Error',
		message: 'Missing required fields',
		details: { missing_fields: missing },
	};
}

/**
 * A 422 for one invalid field, e.g. the vendor's `'inputs.id' must be a valid UUID
 * when provided; got 'test 1'.`; in FastAPI's shape, the same words as the detail.
 * @param {ErrorShape} shape
 * @param {string} message
 */
function validationErrorBody(shape, message) {
	return shape === 'fastapi' ? { detail: message } : { error: 'Validation Error', message };
}

const NOT_WAITING_MESSAGE = 'Execution is not waiting for human input';
// The answers of an accepted /resume (docs/development/service-api.md#post-resume: status "resumed" or "retrying").
const RESUMED = Object.freeze({ status: 'resumed', message: 'Execution resumed successfully' });
const RETRYING = Object.freeze({
	status: 'retrying',
	message: 'Task will be retried with feedback',
});

/** @param {number} status */
function defaultFaultMessage(status) {
	if (status >= 500 && status !== 501)
		return `${reason(status)}: server-side failure, please contact support`;
	if (status === 429) return 'Too many requests, slow down';
	return reason(status);
}

module.exports = {
	ROUTE_NOT_FOUND,
	METHOD_NOT_ALLOWED,
	NOT_WAITING_MESSAGE,
	RESUMED,
	RETRYING,
	errorBody,
	missingInputsBody,
	missingFieldsBody,
	validationErrorBody,
	executionNotFoundBody,
	defaultFaultMessage,
	reason,
};
