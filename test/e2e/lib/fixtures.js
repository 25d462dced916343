'use strict';
// Credentials (made at run time: the service's tokens are random) and the saved workflows.

const fs = require('node:fs');
const path = require('node:path');

const WORKFLOWS_DIR = path.join(__dirname, '..', 'workflows');

// Ids match the credentials referenced in test/e2e/workflows/*.json. The organization
// credential's name sorts last on purpose: n8n 1.123's editor gives a new node the last by
// name (see stack.js), and it is the one a new node should get.
const CREDENTIALS = {
	organization: { id: 'crewCredOrg00001', name: 'Crew (your organization token)' },
	user: { id: 'crewCredUser0001', name: 'Crew (user token)' },
	wrong: { id: 'crewCredWrong001', name: 'Crew (wrong token)' },
};

/** In n8n's import format; `data` in clear, n8n encrypts it on import. */
function credentialsFor(baseUrl, tokens) {
	return Object.entries(CREDENTIALS).map(([kind, { id, name }]) => ({
		id,
		name,
		type: 'crewApi',
		data: { baseUrl, token: tokens[kind] },
	}));
}

/** { 'kickoff-and-wait': {id, name, nodes, ...}, ... } */
function loadWorkflows() {
	const out = {};
	for (const f of fs.readdirSync(WORKFLOWS_DIR).sort()) {
		if (f.endsWith('.json')) out[f.slice(0, -5)] = JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, f), 'utf8'));
	}
	return out;
}

module.exports = { credentialsFor, loadWorkflows, CREDENTIALS, WORKFLOWS_DIR };
