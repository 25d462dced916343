#!/usr/bin/env node
'use strict';
// Demo: the packed n8n-nodes-crewai runs a crew in a real n8n 2.x, headless.
//
//   node test/e2e/demo.js [--n8n 2|1] [--topic "AI agents"]
//
// Installs n8n on first use (cache, minutes), packs and installs this package, starts the
// reference crew service, runs the sample "Kickoff and Wait" workflow
// (examples/crew-in-a-workflow.json) with `n8n execute`, prints the crew's result,
// and tears everything down. Expects dist/ to be built (`npm run build`).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const procs = require('./lib/procs');
const { runMain } = require('./lib/scriptCommand');
const { prepare } = require('./lib/stack');
const { items, errorText } = require('./lib/runData');

const WORKFLOW = 'kickoff-and-wait';
const crewNodeOf = (workflow) => workflow.nodes.find((n) => n.type === 'n8n-nodes-crewai.crew');
const say = (line = '') => process.stdout.write(`${line}\n`);

async function main() {
	const { values } = parseArgs({ options: { n8n: { type: 'string' }, topic: { type: 'string' } } });
	const major = values.n8n || '2';
	procs.installExitHandlers();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-crewai-demo-'));
	let stack;
	try {
		say(`Setting up n8n ${major}.x with n8n-nodes-crewai and a reference crew service...`);
		stack = await prepare({
			major,
			root,
			log: (m) => say(`  ${m}`),
			editWorkflows: (wfs) => {
				if (values.topic)
					crewNodeOf(wfs[WORKFLOW]).parameters.inputsJson = JSON.stringify({ topic: values.topic });
			},
		});
		const { n8n, crew, workflows } = stack;
		const workflow = workflows[WORKFLOW];
		const crewNode = crewNodeOf(workflow);
		say(`  n8n ${n8n.version}, package installed in ${stack.installedAt}`);
		say(`  crew service at ${crew.url}`);
		say();
		say(`Running workflow "${workflow.name}" (n8n execute --id=${workflow.id})`);
		say(
			`  node "${crewNode.name}": operation ${crewNode.parameters.operation}, inputs ${crewNode.parameters.inputsJson}`,
		);
		const exec = await n8n.execute(workflow.id);
		if (exec.code !== 0 || !exec.run) {
			say(
				`n8n execute failed (exit ${exec.code}): ${errorText(exec.run) || procs.tail(exec.output)}`,
			);
			process.exitCode = 1;
			return;
		}
		const [item] = items(exec.run, crewNode.name);
		const j = item.json;
		say();
		say('='.repeat(72));
		say(
			`Crew ${j.state}  (kickoff ${j.kickoff_id}, n8n run took ${(exec.ms / 1000).toFixed(1)} s)`,
		);
		say('-'.repeat(72));
		say(`result:      ${j.result}`);
		if (j.result_json !== null && j.result_json !== undefined)
			say(`result_json: ${JSON.stringify(j.result_json)}`);
		say('='.repeat(72));
		say();
		say('The whole output item:');
		say(JSON.stringify(j, null, 2));
	} finally {
		if (stack) await stack.crew.stop();
		await procs.stopAll();
		fs.rmSync(root, { recursive: true, force: true });
	}
}

runMain(main, (err) => err.message || err);
