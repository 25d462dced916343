'use strict';
// The setup every entry point shares: n8n from the cache, the packed package installed
// into a throwaway user folder, the reference crew service, credentials and workflows.

const crypto = require('node:crypto');
const path = require('node:path');
const { N8n } = require('./n8n');
const pkg = require('./pkg');
const { startCrewService } = require('./crew');
const { registerSecret } = require('./tokens');
const { credentialsFor, loadWorkflows, CREDENTIALS } = require('./fixtures');

/**
 * @param {object} o
 * @param {string} o.major            n8n major ('1' | '2')
 * @param {string} o.root             a fresh folder for this stack
 * @param {object} [o.packed]         result of pkg.pack(); packed here when absent
 * @param {boolean} [o.withPackage]   false: leave the package out (proves the tests need it)
 * @param {string[]} [o.crewArgs]     extra arguments for the crew service CLI
 * @param {(workflows:object)=>void} [o.editWorkflows]  changes the saved workflows before import
 * @param {(service:{crewUrl:string,tokens:object})=>object[]} [o.moreCredentials]  more credentials
 *   in n8n's import format, imported before the organization credential so it stays the newest
 * @param {(m:string)=>void} [o.log]
 */
async function prepare({
	major,
	root,
	packed,
	withPackage = true,
	crewArgs = [],
	editWorkflows,
	moreCredentials,
	log = () => {},
}) {
	const n8n = await N8n.create(major, path.join(root, `n8n-${major}`), { log });
	let installedAt = null;
	if (withPackage) {
		packed = packed || (await pkg.pack(path.join(root, 'pack')));
		installedAt = await pkg.installInto(n8n.userFolder, packed);
	}
	const crew = await startCrewService({
		args: crewArgs,
		logFile: path.join(n8n.logDir, 'crew-service.log'),
	});
	try {
		const tokens = {
			organization: crew.tokens.organization,
			user: crew.tokens.user,
			wrong: `wrong-tok-${crypto.randomBytes(12).toString('hex')}`,
		};
		// A new node gets the "most recent" credential of its type: n8n 2.41's editor compares
		// updatedAt; n8n 1.123's too, but its credential list (/rest/credentials/for-workflow)
		// carries no updatedAt, so every one ties and the last by name wins (its store sorts by
		// name). The organization credential is therefore imported on its own, after the others,
		// AND named to sort last (fixtures.js), so that both majors default to it while the
		// user and wrong tokens stay in the list for demonstrations.
		registerSecret('crew wrong', tokens.wrong);
		const credentials = credentialsFor(crew.url, tokens);
		const isOrganization = (c) => c.id === CREDENTIALS.organization.id;
		const more = moreCredentials ? moreCredentials({ crewUrl: crew.url, tokens }) : [];
		await n8n.importCredentials([...credentials.filter((c) => !isOrganization(c)), ...more]);
		await n8n.importCredentials(credentials.filter(isOrganization));
		const workflows = loadWorkflows();
		if (editWorkflows) editWorkflows(workflows);
		await n8n.importWorkflows(Object.values(workflows));
		return { n8n, crew, tokens, workflows, packed, installedAt };
	} catch (err) {
		await crew.stop();
		throw err;
	}
}

module.exports = { prepare };
