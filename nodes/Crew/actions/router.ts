import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { createCancellableSleep } from '../cancellableSleep';
import * as getInputs from './getInputs.operation';
import * as getStatus from './getStatus.operation';
import * as kickoff from './kickoff.operation';
import * as kickoffAndWait from './kickoffAndWait.operation';
import * as resume from './resume.operation';
import type { ItemOutcome, OperationTools } from './operationTools';

export type CrewOperation = 'getInputs' | 'kickoff' | 'getStatus' | 'kickoffAndWait' | 'resume';

type PerItemExecute = (this: IExecuteFunctions, itemIndex: number, tools: OperationTools) => Promise<IDataObject>;

const perItemOperations: Record<Exclude<CrewOperation, 'kickoffAndWait'>, PerItemExecute> = {
	getInputs: getInputs.execute,
	kickoff: kickoff.execute,
	getStatus: getStatus.execute,
	resume: resume.execute,
};

function createTools(context: IExecuteFunctions): OperationTools {
	// Older n8n versions have no cancel signal; those runs can only end by the timeout.
	const signal = typeof context.getExecutionCancelSignal === 'function' ? context.getExecutionCancelSignal() : undefined;
	return {
		now: () => Date.now(),
		sleep: createCancellableSleep(signal),
		isCancelled: () => signal?.aborted === true,
	};
}

/**
 * Items one after another, in order. Without Continue On Fail the first error
 * stops the node, so no further crew is started after one that failed.
 */
async function runPerItem(context: IExecuteFunctions, itemCount: number, execute: PerItemExecute, tools: OperationTools) {
	const outcomes: ItemOutcome[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			outcomes.push({ json: await execute.call(context, itemIndex, tools) });
		} catch (error) {
			if (!context.continueOnFail()) throw error;
			outcomes.push({ error: error as Error });
		}
	}
	return outcomes;
}

function asNodeError(context: IExecuteFunctions, error: Error, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error, { itemIndex });
}

/** What a failed item tells, for Continue On Fail: what happened, what to do, and the kickoff to look up. */
function errorDetails(outcome: { error: Error; kickoffId?: string }): IDataObject {
	const json: IDataObject = { error: outcome.error.message };
	const { description } = outcome.error as { description?: unknown };
	if (typeof description === 'string' && description !== '') json.description = description;
	if (outcome.kickoffId !== undefined) json.kickoff_id = outcome.kickoffId;
	return json;
}

/**
 * A failed item as n8n-core's WorkflowExecute keeps it. An item that carries
 * `error` has its json replaced by `{error: message}` (normalizeNodeErrors), so
 * the details survive only without it: as fields on the regular output, and on
 * the error output inside `error`, since n8n routes there an item whose json
 * holds only `error` (handleNodeErrorOutput, 1.x and 2.x).
 */
function errorItem(context: IExecuteFunctions, outcome: { error: Error; kickoffId?: string }, itemIndex: number): INodeExecutionData {
	const pairedItem = { item: itemIndex };
	const details = errorDetails(outcome);
	const { onError } = context.getNode();
	if (onError === 'continueRegularOutput') return { json: details, pairedItem };
	if (onError === 'continueErrorOutput') {
		const { error, ...rest } = details;
		return { json: { error: { message: error, ...rest } }, pairedItem };
	}
	// The older "Continue On Fail" switch (no onError): as before, the error itself.
	return { json: details, error: asNodeError(context, outcome.error, itemIndex), pairedItem };
}

/** Runs the chosen operation and gives exactly one output item per input item, paired and in order. */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const itemCount = this.getInputData().length;
	const operation = this.getNodeParameter('operation', 0) as CrewOperation;
	const tools = createTools(this);
	const outcomes =
		operation === 'kickoffAndWait'
			? await kickoffAndWait.executeBatch.call(this, itemCount, tools)
			: await runPerItem(this, itemCount, perItemOperations[operation], tools);

	return [
		outcomes.map((outcome, itemIndex) => {
			if ('json' in outcome) return { json: outcome.json, pairedItem: { item: itemIndex } };
			if (!this.continueOnFail()) throw outcome.error;
			return errorItem(this, outcome, itemIndex);
		}),
	];
}
