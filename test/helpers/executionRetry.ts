/**
 * n8n's Retry of a failed execution from the Executions list (`POST /rest/executions/:id/retry`,
 * ExecutionService.retry, the same in 1.123 and 2.41): the stored execution data, its error
 * removed and the failed node's last run dropped, handed to the engine again as a new
 * execution (a new ID, mode 'retry'). The stored data carries the node context
 * (`executionData.contextData`) and the input items of the failed node's stack entry.
 */
import { WorkflowExecute } from 'n8n-core';
import type { IRun, IRunExecutionData } from 'n8n-workflow';

import { crewOutputsOf, crewWorkflow, storedError } from './crewWorkflow';
import type { CrewRunOptions, CrewWorkflowRun } from './crewWorkflow';
import { additionalDataFor, recordRun, workflowOf } from './n8nEngine';
import { assertSecretsHidden, serializeForLeakCheck } from './tokenHygiene';

export interface RetryOptions extends CrewRunOptions {
	/** The base of `$execution.resumeUrl` (n8n's /webhook-waiting/ route), for Wait By: Callback. */
	webhookWaitingBaseUrl?: string | null;
}

/** What n8n hands the engine for the retry: a stored copy of the failed execution's data, as ExecutionService.retry prepares it. */
function preparedForRetry(failed: IRun): IRunExecutionData {
	const data = JSON.parse(JSON.stringify(failed.data)) as IRunExecutionData;
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const runs = data.resultData.runData[lastNodeExecuted];
		if (runs && runs.length > 0 && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	return data;
}

/**
 * Retries the failed execution `failed` of the workflow `options` describes (the workflow as it
 * was saved; `options.credentials` may differ, as after a rotated token). Every part is checked
 * for the credential's secrets.
 */
export async function retryFromExecutionsList(
	options: RetryOptions,
	failed: IRun,
): Promise<CrewWorkflowRun & { executionId: string }> {
	const items = options.items ?? [{ json: {} }];
	const spec = {
		...crewWorkflow(options, items.length),
		...(options.webhookWaitingBaseUrl !== undefined
			? { webhookWaitingBaseUrl: options.webhookWaitingBaseUrl }
			: {}),
	};
	const { workflow, workflowData } = workflowOf(spec);
	const additionalData = additionalDataFor(spec, workflowData, 'retry');
	const executionId = additionalData.executionId as string;
	const { result: run, record } = await recordRun(
		async () =>
			await new WorkflowExecute(
				additionalData,
				'retry',
				preparedForRetry(failed),
			).processRunExecutionData(workflow),
	);
	assertSecretsHidden(
		options.credentials,
		'retried execution (output, run data)',
		serializeForLeakCheck(run),
	);
	assertSecretsHidden(options.credentials, 'logs', record.logs.join('\n'));
	const outputs = crewOutputsOf(run, -1);
	return { output: outputs[0] ?? [], outputs, record, run, error: storedError(run), executionId };
}
