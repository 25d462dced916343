import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { createCancellableSleep } from '../../transport/cancellableSleep';
import * as answerFeedback from './feedbackRequest/answer.operation';
import * as getInputs from './crew/getInputs.operation';
import * as getStatus from './crew/getStatus.operation';
import { toItemError } from './common/itemError';
import * as kickoff from './crew/kickoff.operation';
import * as kickoffAndWait from './crew/kickoffAndWait.operation';
import * as resume from './crew/resume.operation';
import * as sendMessage from './conversation/sendMessage.operation';
import * as stop from './crew/stop.operation';
import * as waitByCallback from '../../waiting/waitByCallback';
import type { ItemOutcome, OperationTools } from './common/operationTools';
import { errorOutputItem } from './common/outputItems';
import { isToolCall, toolAnswer, toolErrorAnswer, withAdviceInMessage } from './common/toolAnswer';
import type { CrewOperation } from './node.type';

type PerItemExecute = (this: IExecuteFunctions, itemIndex: number, tools: OperationTools) => Promise<IDataObject>;

const perItemOperations: Record<Exclude<CrewOperation, 'kickoffAndWait' | 'resume'>, PerItemExecute> = {
	getInputs: getInputs.execute,
	kickoff: kickoff.execute,
	getStatus: getStatus.execute,
	stop: stop.execute,
	answerFeedback: answerFeedback.execute,
	sendMessage: sendMessage.execute,
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
			const itemError = toItemError(context.getNode(), error, itemIndex);
			if (!context.continueOnFail()) throw itemError;
			outcomes.push({ error: itemError });
		}
	}
	return outcomes;
}

/**
 * Runs the chosen operation and gives exactly one output item per input item,
 * paired and in order. As an agent's tool, the same run answers in short and
 * puts the advice of an error into its message, the only part a model sees.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// n8n 1.x has no isToolExecution; n8n 2.x's AI Agent runs tools where it answers false (see isToolCall).
	const toolExecution = typeof this.isToolExecution === 'function' && this.isToolExecution();
	if (!isToolCall(this.getNode().type, toolExecution)) return await routeOperation.call(this, false);
	try {
		return await routeOperation.call(this, true);
	} catch (error) {
		throw withAdviceInMessage(toItemError(this.getNode(), error, 0));
	}
}

async function routeOperation(this: IExecuteFunctions, forTool: boolean): Promise<INodeExecutionData[][]> {
	const itemCount = this.getInputData().length;
	const operation = this.getNodeParameter('operation', 0) as CrewOperation;
	const tools = createTools(this);
	let outcomes: ItemOutcome[];
	if (operation === 'resume') {
		outcomes = await resume.executeBatch.call(this, itemCount, tools);
	} else if (operation !== 'kickoffAndWait') {
		outcomes = await runPerItem(this, itemCount, perItemOperations[operation], tools);
	} else if (this.getNodeParameter('waitBy', 0, 'polling') === 'callback') {
		outcomes = await waitByCallback.execute.call(this, itemCount, tools);
	} else {
		outcomes = await kickoffAndWait.executeBatch.call(this, itemCount, tools);
	}

	return [
		outcomes.map((outcome, itemIndex) => {
			if ('json' in outcome) return { json: forTool ? toolAnswer(operation, outcome.json) : outcome.json, pairedItem: { item: itemIndex } };
			const error = toItemError(this.getNode(), outcome.error, itemIndex);
			if (!this.continueOnFail()) throw error;
			if (forTool) return { json: toolErrorAnswer({ ...outcome, error }), pairedItem: { item: itemIndex } };
			return errorOutputItem(this.getNode(), { ...outcome, error }, itemIndex);
		}),
	];
}
