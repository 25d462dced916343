import type { IDataObject } from 'n8n-workflow';

import type { CrewOperation } from './node.type';
import { isPlainObject } from '../../../records/plainObject';

/** The operations whose answer is a crew's status record, which a model gets in short. */
const STATUS_OPERATIONS: ReadonlySet<CrewOperation> = new Set([
	'kickoffAndWait',
	'getStatus',
	'resume',
]);

/**
 * What a model needs from a status record: the state, the result, the kickoff to
 * read again, why it failed or which task waits for a human, and the tokens it used. The record as
 * the service sent it (`response`) repeats the result, so it is left out; a model
 * pays for every character.
 */
export function toolAnswer(operation: CrewOperation, json: IDataObject): IDataObject {
	if (!STATUS_OPERATIONS.has(operation) || typeof json.state !== 'string') return json;
	const answer: IDataObject = {
		kickoff_id: json.kickoff_id,
		state: json.state,
		result: json.result ?? null,
	};
	if (json.result_json !== null && json.result_json !== undefined)
		answer.result_json = json.result_json;
	if (json.state === 'failed' && json.error) answer.error = json.error;
	if (json.state === 'paused' && json.task_id) answer.task_id = json.task_id;
	// A pause known only by the live service's NOT FOUND: the model must learn what to do.
	if (json.state === 'paused' && typeof json.next_step === 'string')
		answer.next_step = json.next_step;
	// Agents track what a run cost: a few numbers, so the answer stays short.
	if (isPlainObject(json.usage)) answer.usage = json.usage;
	// Resume with Wait for the Resumed Run: the paused run it continued, as its answer without the
	// wait names it.
	if (typeof json.resumed_kickoff_id === 'string')
		answer.resumed_kickoff_id = json.resumed_kickoff_id;
	return answer;
}

function asSentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The error's message with its advice in it. n8n hands a model only a tool
 * error's message (n8n-core workflow-execute.js, handleNodeExecutionError, in
 * 2.x), so what to do next must be part of it; n8n 1.x appends the description
 * itself unless the message already holds it, so it is not repeated there.
 */
export function messageForModel(error: Error): string {
	const { description } = error as { description?: unknown };
	if (
		typeof description !== 'string' ||
		description.trim() === '' ||
		error.message.includes(description)
	)
		return error.message;
	return `${asSentence(error.message)} ${description.trim()}`;
}

/** The same error, its advice moved into its message for a model. */
export function withAdviceInMessage<T extends Error>(error: T): T {
	error.message = messageForModel(error);
	return error;
}

/**
 * A failed item as a model gets it with Continue On Fail: the message with its advice, and the
 * kickoff to read later.
 */
export function toolErrorAnswer(outcome: { error: Error; kickoffId?: string }): IDataObject {
	const answer: IDataObject = { error: messageForModel(outcome.error) };
	if (outcome.kickoffId !== undefined) answer.kickoff_id = outcome.kickoffId;
	return answer;
}
