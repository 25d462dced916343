'use strict';
// A new user's first minutes with the package, in n8n's editor (Chromium), from an EMPTY canvas.
//
//   node test/e2e/run.js --only firstSteps [--n8n 2|1|all] [--docs]
//
// --docs  also writes the README's screenshots (docs/editor-*.png) from n8n 2.x's real states
//
// It runs on an n8n of its own (needs.ownStack: lib/stack.js `prepare`), not on the runner's shared
// n8n: a new user's n8n holds only the three Crew credentials, the one a new node gets is part of
// what it checks, and its credential test edits a credential's address.
//
// In a new workflow: the trigger panel and the nodes panel find the Crew node and the Crew Trigger
// by "crew" and "CrewAI", each with its own description; Kickoff and Wait chosen from the search
// result shows the crew's inputs as fields (at once, or on 2.41, when it asked before attaching the
// credential, after the panel's notice to open the node again and reopening it); they are filled
// and the step runs; Continue On Fail gives the fields error, description and kickoff_id; a wrong
// token and a crew without inputs show their text where the fields would be; the credential test
// tells a wrong token and a wrong address (the package's advice on 2.x, n8n's own words on 1.123)
// and, for an address where nothing listens, n8n's own words; a Crew Trigger added from the
// trigger panel says where to paste its URL in its trigger panel.
//
// Needs: apt-get install -y chromium; npm ci --prefix test/e2e (playwright-core).

const fs = require('node:fs');
const path = require('node:path');

const { prepare } = require('../lib/stack');
const { launch, signIn } = require('../lib/browser');
const { versionInfo } = require('../lib/install');
const { say } = require('../lib/report');

const SHOTS = path.join(__dirname, '..', 'screenshots');
const DOCS = path.join(__dirname, '..', '..', '..', 'docs');
const UI_TIMEOUT = 20000;

// What the package shows; the checks look for these texts, as a user would.
const CREW_ACTION = 'Kick off a crew and wait for the result';
const TRIGGER_EVENT = 'On run finished or failed';
const NO_INPUTS = 'The crew lists no inputs';
const REOPEN_NOTICE = /Open this node again to load the crew's inputs/;

/**
 * What n8n's panels show of the two nodes, read from the built nodes (the tarball under test
 * holds the same files): each node's own description, one trigger per Crew Trigger Events
 * option and one action per Crew operation, across resources. Read rather than written here,
 * so that a reworded description or an added operation does not break these checks, and a
 * panel that shows another node's description or drops an entry still does.
 */
function panelEntries() {
	const dist = path.join(__dirname, '..', '..', '..', 'dist', 'nodes');
	const { Crew } = require(path.join(dist, 'Crew', 'Crew.node.js'));
	const { CrewCallbackTrigger } = require(
		path.join(dist, 'CrewCallbackTrigger', 'CrewCallbackTrigger.node.js'),
	);
	const crew = new Crew().description;
	const trigger = new CrewCallbackTrigger().description;
	const options = (description, name) =>
		description.properties.filter((p) => p.name === name).flatMap((p) => p.options);
	return {
		actions: options(crew, 'operation')
			.map((o) => o.action)
			.filter(Boolean),
		events: options(trigger, 'events').length,
		descriptions: { node: crew.description, trigger: trigger.description },
		triggerPanelHeader: trigger.triggerPanel.header,
	};
}

/** Selectors n8n 1.123 and 2.41 share (data-test-id attributes of n8n's own e2e tests). */
const sel = {
	addFirstStep: '[data-test-id="canvas-add-button"]',
	addNext: '[data-test-id="canvas-handle-plus"], [data-test-id="canvas-plus-button"]',
	creator: '[data-test-id="node-creator"]',
	search: '[data-test-id="node-creator-search-bar"] input, [data-test-id="search-bar"] input',
	item: '[data-test-id="item-iterator-item"]',
	ndv: '[data-test-id="ndv"]',
	params: '[data-test-id="node-parameters"]',
	output: '[data-test-id="output-panel"]',
	dropdown: '.el-select-dropdown:visible, [role="listbox"]:visible',
	// The added node is named "Crew" on 1.123 and after the chosen action on 2.41.
	crewNode: `[data-test-id="canvas-node"][data-node-name="Crew"], [data-test-id="canvas-node"][data-node-name="${CREW_ACTION}"]`,
};

async function firstStepsSuite({ major, report, root, packed, docs = false }) {
	fs.mkdirSync(SHOTS, { recursive: true });
	for (const f of fs.readdirSync(SHOTS))
		if (f.startsWith(`n8n${major}-first-failed-`)) fs.rmSync(path.join(SHOTS, f));
	const label = `first steps in the editor, n8n ${versionInfo(major).version}`;
	const entries = panelEntries();
	let browser;
	let stack;
	let page;
	let failures = 0;
	const shot = async (name, { toDocs } = {}) => {
		const file = path.join(SHOTS, `n8n${major}-first-${name}.png`);
		await page.screenshot({ path: file });
		say(`    screenshot ${path.relative(process.cwd(), file)}`);
		if (toDocs && docs) {
			const doc = path.join(DOCS, `${toDocs}.png`);
			fs.copyFileSync(file, doc);
			say(`    README screenshot ${path.relative(process.cwd(), doc)}`);
		}
	};
	const check = (name, fn) =>
		report.check(label, name, async () => {
			try {
				await fn();
			} catch (err) {
				failures += 1;
				if (page) await shot(`failed-${failures}`).catch(() => {});
				throw err;
			}
		});

	const creator = () => page.locator(sel.creator);
	const params = () => page.locator(sel.params);
	const inputsRequests = async () =>
		(await stack.crew.requests()).filter((r) => r.route === 'inputs');

	/**
	 * Opens the node creator from an empty canvas. On a loaded machine Playwright's click can
	 * outlast its timeout while the page has already opened the panel (seen on n8n 1.123):
	 * what counts is that the search box is there.
	 */
	async function openNodeCreator() {
		try {
			await page.locator(sel.addFirstStep).first().click();
		} catch (error) {
			if (!(await page.locator(sel.search).first().isVisible())) throw error;
		}
	}

	/** Types into the node creator's search and returns the listed entries as {name, description}. */
	async function search(text) {
		const box = page.locator(sel.search).first();
		await box.fill(text);
		await page.waitForTimeout(600); // the list filters as one types
		return await creator()
			.locator(sel.item)
			.evaluateAll((els) =>
				els.map((el) => ({
					name: el.querySelector('[data-test-id="node-creator-item-name"]')?.textContent.trim(),
					description: el
						.querySelector('[data-test-id="node-creator-item-description"]')
						?.textContent.trim(),
				})),
			);
	}

	/**
	 * Both queries list the package's two entries: the Crew node's and the Crew Trigger's (n8n
	 * names a trigger with several events after its app, "Crew", in both panels). n8n 2.41 shows
	 * each with its own description, which tells them apart; 1.123 shows no description in any
	 * search result, and lists the node before the trigger. Choosing the node's entry lists all
	 * its actions; the trigger's, one "On …" per event.
	 */
	async function findsEntry(node) {
		const own = Object.values(entries.descriptions).sort();
		for (const query of ['crew', 'CrewAI']) {
			const listed = await search(query);
			const ours = listed.filter((e) => e.name === 'Crew' || e.name === 'Crew Trigger');
			const described =
				major === '1' ? ours.map(() => 'none shown') : ours.map((e) => e.description).sort();
			const expected = major === '1' ? own.map(() => 'none shown') : own;
			if (
				JSON.stringify(described) !== JSON.stringify(expected) ||
				(major === '1' && ours.some((e) => e.description))
			) {
				throw new Error(
					`"${query}" does not list the Crew node and the Crew Trigger${major === '1' ? '' : ' with their own descriptions'} (got ${JSON.stringify(listed)})`,
				);
			}
		}
		if (node === 'node') await shot('search', { toDocs: 'editor-search' });
		const item =
			major === '1'
				? creator()
						.locator(sel.item)
						.filter({ has: page.getByText('Crew', { exact: true }) })
						.nth(node === 'node' ? 0 : 1)
				: creator()
						.locator(sel.item)
						.filter({ has: page.getByText(entries.descriptions[node], { exact: true }) })
						.first();
		await item.click();
		await creator()
			.getByText(node === 'node' ? CREW_ACTION : TRIGGER_EVENT)
			.first()
			.waitFor({ state: 'visible' });
		const shown = (await creator().locator(sel.item).allInnerTexts()).map((text) => text.trim());
		const missing =
			node === 'node' ? entries.actions.filter((action) => !shown.includes(action)) : [];
		const events = shown.filter((text) => /^On /.test(text)).length;
		if (missing.length > 0 || (node === 'trigger' && events !== entries.events)) {
			throw new Error(
				`the ${node}'s entry lists ${JSON.stringify(shown)}: expected ${node === 'node' ? JSON.stringify(entries.actions) : `${entries.events} events`}`,
			);
		}
	}

	/** The credential dialog's test result, which n8n folds under "More details". */
	async function showsDetails(dialog, text) {
		const deadline = Date.now() + UI_TIMEOUT;
		while (!(await dialog.getByText(text).first().isVisible())) {
			if (Date.now() > deadline) throw new Error(`the credential dialog does not show ${text}`);
			const more = dialog.getByText('More details', { exact: true }).first();
			if (await more.isVisible()) await more.click();
			await page.waitForTimeout(300);
		}
	}

	/** The Crew node's panel with its input fields, opened again if the check before left it closed. */
	async function withFields() {
		if (await params().getByText('topic', { exact: true }).first().isVisible()) return;
		if (await page.locator(sel.ndv).isVisible()) await page.keyboard.press('Escape');
		await page.locator(sel.crewNode).first().dblclick();
		await params().getByText('topic', { exact: true }).first().waitFor({ state: 'visible' });
	}

	/** Waits until the panel's credential select shows `name` (1.x: as its input's value, 2.x: as text). */
	async function showsCredential(name) {
		const select = params().locator('[data-test-id="node-credentials-select"]').first();
		const deadline = Date.now() + UI_TIMEOUT;
		let shown = '';
		while (Date.now() < deadline) {
			const input = select.locator('input').first();
			shown =
				((await input.count()) > 0 ? await input.inputValue() : '') ||
				(await select.innerText()).trim();
			if (shown === name) return;
			await page.waitForTimeout(300);
		}
		throw new Error(`the panel's credential is "${shown}", not "${name}"`);
	}

	async function chooseOption(paramTestId, option) {
		await page.locator(`[data-test-id="${paramTestId}"]`).first().click();
		await page.locator(sel.dropdown).last().getByText(option, { exact: true }).first().click();
	}

	/** n8n loads the fields when the mapper is shown again: as a user does by switching the mode. */
	async function showInputsAgain() {
		await chooseOption('parameter-input-inputsMode', 'JSON');
		await page.locator('[data-test-id="parameter-input-inputsJson"]').waitFor({ state: 'visible' });
		await chooseOption('parameter-input-inputsMode', 'Map Each Input');
	}

	try {
		let url;
		const ready = await check(
			'n8n start serves the editor; the owner signs in in Chromium',
			async () => {
				stack = await prepare({ major, root, packed, log: (m) => say(`  ${m}`) });
				({ url } = await stack.n8n.start());
				const owner = await stack.n8n.setupOwner();
				browser = await launch();
				page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
				page.setDefaultTimeout(UI_TIMEOUT);
				await signIn(page, url, owner);
			},
		);
		if (!ready) return;

		await check(
			'an empty workflow: the trigger panel finds the Crew Trigger and the Crew node by "crew" and "CrewAI", each with its own description; the trigger\'s entry lists its events',
			async () => {
				await page.goto(`${url}/workflow/new`);
				await page.locator(sel.addFirstStep).first().click();
				await findsEntry('trigger');
				await shot('trigger-panel');
				// Back to the list, and a manual trigger as the first step.
				await page.keyboard.press('Escape');
				if (!(await page.locator(sel.search).first().isVisible()))
					await page.locator(sel.addFirstStep).first().click();
				await search('manual');
				await page.keyboard.press('Enter');
				await page.locator('[data-test-id="canvas-node"]').first().waitFor({ state: 'visible' });
				if (await page.locator(sel.ndv).isVisible()) await page.keyboard.press('Escape');
			},
		);

		// n8n 2.41's resource mapper asks for the fields as soon as the added node's panel opens,
		// while the panel may still be fetching the credentials it picks the default from (a race:
		// seen both ways); it asks again only when the panel is opened again (it reloads on changes
		// of the parameters named in loadOptionsDependsOn, and a credential is none). When it asked
		// too early, the node answers with no fields and says to open it again; that is what a user
		// sees there. n8n 1.123 attaches the credential first and shows the fields at once.
		const mayAskBeforeCredential = major === '2';
		const choseKickoffAndWait = mayAskBeforeCredential
			? "the nodes panel finds both too; the Crew node's entry lists Kickoff and Wait, and choosing it shows the crew's inputs as fields, at once or, when n8n 2.41 asked before attaching the credential, after the panel's notice to open the node again and reopening it"
			: "the nodes panel finds both too; the Crew node's entry lists Kickoff and Wait, and choosing it shows the crew's inputs as fields at once";
		await check(choseKickoffAndWait, async () => {
			await page.locator(sel.addNext).first().click();
			await findsEntry('node');
			const before = (await inputsRequests()).length;
			await creator().getByText(CREW_ACTION).first().click();
			await page.locator(sel.ndv).waitFor({ state: 'visible' });
			const notice = params().getByText(REOPEN_NOTICE).first();
			const fields = params().getByText('topic', { exact: true }).first();
			await notice.or(fields).waitFor({ state: 'visible' });
			if (await notice.isVisible()) {
				if (!mayAskBeforeCredential)
					throw new Error('n8n asked for the inputs before it attached the credential');
				say('    n8n asked before attaching the credential: the panel says to open the node again');
				await showsCredential('Crew (your organization token)');
				const early = (await inputsRequests()).slice(before);
				if (early.length > 0)
					throw new Error(
						`without a credential the node should not call the service: ${JSON.stringify(early)}`,
					);
				await shot('reopen-notice');
				await page.keyboard.press('Escape');
				await page.locator(sel.crewNode).first().dblclick();
			}
			for (const name of ['topic', 'audience'])
				await params().getByText(name, { exact: true }).first().waitFor({ state: 'visible' });
			const asked = (await inputsRequests()).slice(before);
			if (!asked.some((r) => r.status === 200 && r.tokenType === 'organization')) {
				throw new Error(
					`the fields did not come from GET /inputs with the organization token: ${JSON.stringify(asked)}`,
				);
			}
			await showsCredential('Crew (your organization token)');
			await shot('fields');
		});

		await check('the fields are filled and "Execute step" shows the crew\'s result', async () => {
			await withFields();
			for (const [name, value] of [
				['topic', 'robots'],
				['audience', 'makers'],
			]) {
				await params()
					.locator(
						`[data-test-id="parameter-input-${name}"] [data-test-id="parameter-input-field"]`,
					)
					.first()
					.fill(value);
			}
			await page.locator('[data-test-id="node-execute-button"]').first().click();
			await page
				.locator(sel.output)
				.getByText('Crew finished: topic=robots; audience=makers')
				.first()
				.waitFor({ state: 'visible' });
			const [run] = (await stack.crew.runs()).slice(-1);
			if (!run || run.inputs.topic !== 'robots' || run.inputs.audience !== 'makers')
				throw new Error(`the service got ${JSON.stringify(run && run.inputs)}`);
			await shot('result', { toDocs: 'editor-result' });
		});

		await check(
			'Continue On Fail on a failing crew: the output item has the fields error, description and kickoff_id',
			async () => {
				const failing = JSON.stringify({
					reference: { outcome: 'failure', error: 'the writer agent gave up', durationMs: 300 },
				});
				// Options' "Add Option": a button with a test id on 2.41, a plain select on 1.123.
				const addOption =
					major === '1'
						? '.collection-parameter .el-select'
						: '[data-test-id="collection-parameter-add"]';
				await params().locator(addOption).first().click();
				await page.locator(sel.dropdown).last().getByText('Meta', { exact: true }).first().click();
				await params().locator('[data-test-id="parameter-input-meta"] .cm-content').first().click();
				await page.keyboard.press('ControlOrMeta+a');
				await page.keyboard.insertText(failing);
				await page.getByText('Settings', { exact: true }).first().click();
				await chooseOption('parameter-input-onError', 'Continue');
				await page.getByText('Parameters', { exact: true }).first().click();
				await page.locator('[data-test-id="node-execute-button"]').first().click();
				const output = page.locator(sel.output);
				await output.getByText('the writer agent gave up').first().waitFor({ state: 'visible' });
				const headers = (await output.locator('th').allInnerTexts()).map((t) => t.trim());
				for (const field of ['error', 'description', 'kickoff_id']) {
					if (!headers.includes(field))
						throw new Error(`no "${field}" column in the output (columns: ${headers.join(', ')})`);
				}
				const [run] = (await stack.crew.runs()).slice(-1);
				await output
					.getByText(run.kickoffId, { exact: true })
					.first()
					.waitFor({ state: 'visible' });
				await shot('continue-on-fail');
			},
		);

		await check(
			"a wrong token: where the fields would be, the service's 401 and where to copy the token",
			async () => {
				await chooseOption('node-credentials-select', 'Crew (wrong token)');
				await showInputsAgain();
				await params()
					.getByText(/answered 401 while reading the crew's inputs/)
					.first()
					.waitFor({ state: 'visible' });
				await params()
					.getByText(/Status tab/)
					.first()
					.waitFor({ state: 'visible' });
				await shot('wrong-token');
			},
		);

		await check("a crew without inputs: the node's own no-inputs text", async () => {
			await stack.crew.configure({ inputs: [] });
			try {
				await chooseOption('node-credentials-select', 'Crew (your organization token)');
				await showInputsAgain();
				await params().getByText(NO_INPUTS).first().waitFor({ state: 'visible' });
				await shot('no-inputs');
			} finally {
				await stack.crew.reset();
			}
		});

		const credentialTest =
			major === '1'
				? "the credential test tells a wrong token and a wrong address in n8n 1.123's own words, which replace the package's advice for a 401 and a 404"
				: "the credential test tells a wrong token and a wrong address with the package's advice";
		await check(credentialTest, async () => {
			await chooseOption('node-credentials-select', 'Crew (wrong token)');
			await page.locator('[data-test-id="credential-edit-button"]').first().click();
			// The dialog that holds the credential's Base URL (its wrapper differs between the majors,
			// and 1.123 shows no Save button before an edit); the texts are looked for in it, not in
			// the node's panel behind it.
			const dialog = page
				.locator('[role="dialog"], .el-dialog')
				.filter({ has: page.locator('[data-test-id="parameter-input-baseUrl"]') })
				.last();
			// n8n 1.123 puts its own words in place of a 401's and a 404's message in the credential
			// test; the package's advice shows on 2.41 (and, on both, in the node's panel: the check before).
			await showsDetails(
				dialog,
				major === '1'
					? /Authorization failed/
					: /Copy the current token from the crew's Status tab/,
			);
			await shot('credential-wrong-token', { toDocs: 'editor-credential-test' });
			const baseUrl = dialog.locator('[data-test-id="parameter-input-baseUrl"] input').first();
			await baseUrl.fill(`${stack.crew.url}/not-a-crew`);
			await dialog.locator('[data-test-id="credential-save-button"]').first().click();
			await showsDetails(
				dialog,
				major === '1' ? /could not be found/ : /No crew answered at this Base URL/,
			);
			await shot('credential-wrong-address');
			// Where nothing listens, n8n words it itself (a credential test's rules match HTTP answers
			// only): 2.41 with the network's code, 1.123 in a sentence.
			await baseUrl.fill('http://127.0.0.1:1');
			await dialog.locator('[data-test-id="credential-save-button"]').first().click();
			await showsDetails(
				dialog,
				major === '1' ? /The service refused the connection/ : /ECONNREFUSED/,
			);
			await shot('credential-refused');
			await page.keyboard.press('Escape');
		});

		await check(
			'a Crew Trigger added from the trigger panel says where to paste its URL in its trigger panel, not in a warning box',
			async () => {
				await page.goto(`${url}/workflow/new`);
				await openNodeCreator();
				await search('crew');
				await creator()
					.locator(sel.item)
					.filter({ has: page.getByText('Crew', { exact: true }) })
					.nth(1)
					.click();
				await creator().getByText(TRIGGER_EVENT).first().click();
				await page.locator(sel.ndv).waitFor({ state: 'visible' });
				await page
					.locator(sel.ndv)
					.getByText(entries.triggerPanelHeader)
					.first()
					.waitFor({ state: 'visible' });
				const warnings = await params().locator('.n8n-notice, [class*="notice"]').allInnerTexts();
				if (warnings.some((text) => /URL/.test(text)))
					throw new Error(
						`the parameters still hold a notice about the URL: ${JSON.stringify(warnings)}`,
					);
				await shot('trigger-instructions');
			},
		);
	} finally {
		if (browser) await browser.close().catch(() => {});
		if (stack) {
			await stack.n8n.stop();
			await stack.crew.stop();
		}
	}
}

module.exports = {
	name: 'firstSteps',
	title: "A new user's first minutes in the editor",
	majors: ['1', '2'],
	seconds: 65,
	needs: { ownStack: true },
	run: (t) =>
		// The README's screenshots are n8n 2.x's.
		firstStepsSuite({
			major: t.major,
			report: t.report,
			root: t.root,
			packed: t.packed,
			docs: Boolean(t.opts.docs) && t.major === '2',
		}),
};
