'use strict';
// Credentials (made at run time: the service's tokens are random), the saved workflows, and the
// examples a user imports (examples/), run here as they are, credentials filled in.

const fs = require('node:fs');
const path = require('node:path');

const WORKFLOWS_DIR = path.join(__dirname, '..', 'workflows');
const EXAMPLES_DIR = path.join(__dirname, '..', '..', '..', 'examples');

// Ids match the credentials referenced in test/e2e/workflows/*.json. The organization
// credential's name sorts last on purpose: n8n 1.123's editor gives a new node the last by
// name (see stack.js), and it is the one a new node should get.
const CREDENTIALS = {
	organization: { id: 'crewCredOrg00001', name: 'Crew (your organization token)' },
	user: { id: 'crewCredUser0001', name: 'Crew (user token)' },
	wrong: { id: 'crewCredWrong001', name: 'Crew (wrong token)' },
};

// The scripted model's credential (lib/scriptedModel.js), for OpenAI Chat Model nodes.
const OPENAI_CREDENTIAL = { id: 'openAiScripted01', name: 'Scripted model (OpenAI-compatible)' };

/** In n8n's import format; `data` in clear, n8n encrypts it on import. */
function credentialsFor(baseUrl, tokens) {
	return Object.entries(CREDENTIALS).map(([kind, { id, name }]) => ({
		id,
		name,
		type: 'crewApi',
		data: { baseUrl, token: tokens[kind] },
	}));
}

/** Every example's credentials are placeholders of this form, for the user to replace. */
const PLACEHOLDER_ID = /^REPLACE_WITH_YOUR_/;

/**
 * An example (examples/<file>) as an e2e script runs it. Nothing in it changes but:
 * - each credential placeholder, by credential type: `credentials[type]` (crewApi: the
 *   organization credential unless given; null: the placeholder stays, for the user to pick a
 *   credential); a placeholder left without one is an error;
 * - `text`: {placeholder: value} replaced in the file's text (e.g. a URL the user pastes);
 * - `set`: {nodeName: {'options.meta': value, ...}}: parameters by dotted path, for what steers
 *   the reference crew (options.meta.reference) and shortens the test's waits;
 * - `toolInputs`: {nodeName: ['audience', ...]}: a Crew tool's fields for inputs the test's crew
 *   has beyond the example's (a user's crew has its own), as the editor fills them (the package's
 *   toolFieldDefault, from the build);
 * - `id` and `name`, when given.
 */
function loadExample(
	file,
	{ credentials = {}, text = {}, set = {}, toolInputs = {}, id, name } = {},
) {
	let raw = fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');
	for (const [placeholder, value] of Object.entries(text)) raw = raw.split(placeholder).join(value);
	const wf = JSON.parse(raw);
	const byType = { crewApi: CREDENTIALS.organization, ...credentials };
	for (const node of wf.nodes) {
		for (const type of Object.keys(node.credentials || {})) {
			if (!PLACEHOLDER_ID.test(node.credentials[type].id))
				throw new Error(
					`examples/${file}: node "${node.name}" names a real ${type} credential, not a placeholder`,
				);
			if (byType[type] === null) continue;
			if (!byType[type])
				throw new Error(`examples/${file}: no ${type} credential to put in node "${node.name}"`);
			node.credentials[type] = { ...byType[type] };
		}
	}
	for (const [nodeName, values] of Object.entries(set)) {
		const node = wf.nodes.find((n) => n.name === nodeName);
		if (!node) throw new Error(`examples/${file}: no node "${nodeName}"`);
		for (const [dotted, value] of Object.entries(values)) {
			const keys = dotted.split('.');
			let at = node.parameters;
			for (const k of keys.slice(0, -1)) at = at[k] = at[k] || {};
			at[keys[keys.length - 1]] = value;
		}
	}
	for (const [nodeName, inputNames] of Object.entries(toolInputs)) {
		const node = wf.nodes.find((n) => n.name === nodeName);
		if (!node) throw new Error(`examples/${file}: no node "${nodeName}"`);
		const { fromAiDefault } = require(
			path.join(
				__dirname,
				'..',
				'..',
				'..',
				'dist',
				'nodes',
				'Crew',
				'methods',
				'toolParameters.js',
			),
		);
		const { value, schema } = node.parameters.inputs;
		for (const input of inputNames) {
			value[input] = fromAiDefault(input, 'string');
			schema.push({ ...schema[0], id: input, displayName: input, defaultValue: value[input] });
		}
	}
	if (id) wf.id = id;
	if (name) wf.name = name;
	return wf;
}

/** Every example, by file name without .json. */
function exampleFiles() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort();
}

// The examples the workflow suite (suites/workflows.js) and the demo run, under the names the tests use,
// with the options that steer the reference crew and shorten the waits.
const SUITE_EXAMPLES = {
	'kickoff-and-wait': {
		file: 'crew-in-a-workflow.json',
		id: 'e2eKickoffWait01',
		set: {
			'Kickoff and Wait': {
				'options.meta': '{"reference": {"durationMs": 1500}}',
				'options.pollInterval': 1,
				'options.timeout': 60,
			},
		},
	},
	'many-items': {
		file: 'batch-from-a-list.json',
		id: 'e2eManyItems0001',
		// Durations fall, so later items finish first: the output must keep the input order.
		set: {
			'Kickoff and Wait': {
				'options.meta':
					'={{ JSON.stringify({ item: $itemIndex, reference: { durationMs: [4000, 3000, 2000, 1000, 0][$itemIndex] } }) }}',
				'options.pollInterval': 1,
				'options.timeout': 60,
			},
		},
	},
	'restore-from-state': {
		file: 'flow-restore.json',
		id: 'e2eRestoreState01',
		set: Object.fromEntries(
			['First Run', 'Next Run'].map((n) => [
				n,
				{
					'options.meta': '{"reference": {"durationMs": 800, "flow": true}}',
					'options.pollInterval': 0.5,
					'options.timeout': 60,
				},
			]),
		),
	},
};

/** { 'kickoff-and-wait': {id, name, nodes, ...}, ... }: the saved workflows and the suite's examples. */
function loadWorkflows() {
	const out = {};
	for (const f of fs.readdirSync(WORKFLOWS_DIR).sort()) {
		if (f.endsWith('.json'))
			out[f.slice(0, -5)] = JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, f), 'utf8'));
	}
	for (const [key, { file, ...how }] of Object.entries(SUITE_EXAMPLES))
		out[key] = loadExample(file, how);
	return out;
}

module.exports = {
	credentialsFor,
	loadWorkflows,
	loadExample,
	exampleFiles,
	CREDENTIALS,
	OPENAI_CREDENTIAL,
	WORKFLOWS_DIR,
	EXAMPLES_DIR,
};
