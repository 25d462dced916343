/**
 * The size of what a model gets from the Crew tool, against what a workflow gets
 * from the same crew (the whole status record, as before this package answered
 * tools in short). Both run on n8n-core's engine against the reference crew
 * service on loopback; the tool is called as n8n-core hands it to an agent or an
 * MCP client (test/helpers/crewTool.ts), so the figure is the text the model reads.
 *
 *   npm run bench:tool
 */
import type { INodeParameters } from 'n8n-workflow';

import { startCrewService } from '../test/crew-service';
import { callCrewTool } from '../test/helpers/crewTool';
import { runCrewNode } from '../test/helpers/crewWorkflow';

const inputs = { topic: 'tides', audience: 'sailors', current_year: '2026' };
const options = { pollInterval: 0.1, timeout: 60 };

async function measure(recordShape: 'contract' | 'wild', result: string | undefined) {
	const service = await startCrewService({
		durationMs: 300,
		recordShape,
		tokens: { organization: 'org-bench-token', user: 'usr-bench-token' },
	});
	try {
		if (result !== undefined) service.configure({ plan: () => ({ result }) });
		const credentials = { baseUrl: service.url, token: 'org-bench-token' };
		const workflow = await runCrewNode({
			parameters: {
				operation: 'kickoffAndWait',
				inputsMode: 'json',
				inputsJson: JSON.stringify(inputs),
				options,
			},
			credentials,
		});
		const workflowSize = JSON.stringify(workflow.output.map((item) => item.json)).length;
		const parameters = {
			operation: 'kickoffAndWait',
			inputsMode: 'json',
			inputsJson: "={{ $fromAI('inputs', 'The crew inputs', 'json') }}",
			options,
		} as INodeParameters;
		const tool = await callCrewTool(parameters, credentials, [{ inputs }]);
		const answer = tool.answers[0].answer;
		if (answer === undefined) throw new Error(`The tool call failed: ${tool.answers[0].error}`);
		const resultSize = (workflow.output[0].json.result as string).length;
		const label = `${recordShape} record, ${String(resultSize).padStart(5)}-character result`;
		console.log(
			`${label}: workflow output ${String(workflowSize).padStart(6)} chars, tool answer ${String(answer.length).padStart(6)} chars (limit 1.5 × result + 200 = ${1.5 * resultSize + 200})`,
		);
	} finally {
		await service.close();
	}
}

async function main() {
	for (const recordShape of ['contract', 'wild'] as const) {
		await measure(recordShape, undefined);
		await measure(recordShape, 'A long report. '.repeat(200).trim());
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
