'use strict';
// The Crew node in n8n's editor, in a real browser (Debian's Chromium through playwright-core).
//
//   node test/e2e/run.js --only editor [--n8n 2|1|all]
//
// On the shared n8n (the packed package, the reference crew service, its credentials), in a
// context of the lane's Chromium: signs in, opens the Kickoff-and-Wait workflow, opens the Crew node's panel and
// its operation list, runs the step from the editor, opens the credential (n8n tests it), and
// switches to "Map Each Input" (the fields come from the service's GET /inputs).
// Screenshots go to test/e2e/screenshots/ (git-ignored).
//
// Needs: apt-get install -y chromium; npm ci --prefix test/e2e (playwright-core).

const fs = require('node:fs');
const path = require('node:path');

const { checkWithScreenshot, signIn } = require('../lib/browser');
const { OWNER } = require('../lib/n8n');
const { say } = require('../lib/report');

const SHOTS = path.join(__dirname, '..', 'screenshots');
const WORKFLOW = 'kickoff-and-wait';
const NODE = 'Kickoff and Wait';
const OPERATIONS = ['Get Inputs', 'Get Status', 'Kickoff', 'Kickoff and Wait'];
const UI_TIMEOUT = 45000;

/** The editor checks for one n8n major, in a context of the lane's Chromium on the shared n8n. */
async function run(t) {
	const { major } = t;
	const stack = { crew: t.crew, workflows: t.workflows };
	fs.mkdirSync(SHOTS, { recursive: true });
	for (const f of fs.readdirSync(SHOTS))
		if (f.startsWith(`n8n${major}-failed-`)) fs.rmSync(path.join(SHOTS, f));
	let context;
	const shot = async (page, name) => {
		const file = path.join(SHOTS, `n8n${major}-${name}.png`);
		await page.screenshot({ path: file });
		say(`    screenshot ${path.relative(process.cwd(), file)}`);
	};
	let page;
	const check = checkWithScreenshot(t, () => page, SHOTS, `n8n${major}`);
	try {
		const url = t.baseUrl;
		const ready = await check(
			'the shared n8n serves the editor; the owner signs in in Chromium',
			async () => {
				context = await t.browser.newContext({ viewport: { width: 1440, height: 900 } });
				page = await context.newPage();
				page.setDefaultTimeout(UI_TIMEOUT);
				await signIn(page, url, OWNER);
			},
		);
		if (!ready) return;

		const node = () => page.locator(`[data-test-id="canvas-node"][data-node-name="${NODE}"]`);
		await check('the workflow opens with the Crew node and its icon on the canvas', async () => {
			await page.goto(`${url}/workflow/${stack.workflows[WORKFLOW].id}`);
			await node().waitFor({ state: 'visible' });
			const type = await node().getAttribute('data-node-type');
			if (type !== 'n8n-nodes-crewai.crew') throw new Error(`node type ${type}`);
			const icon = node().locator('img').first();
			await icon.waitFor({ state: 'visible' });
			const width = await icon.evaluate((img) => img.complete && img.naturalWidth);
			if (!width) throw new Error('the node icon did not load');
			await shot(page, 'canvas');
		});

		await check(
			'the node panel renders its parameters and its Operation list has Get Inputs, Get Status, Kickoff and Kickoff and Wait',
			async () => {
				await node().dblclick();
				await page.locator('[data-test-id="ndv"]').waitFor({ state: 'visible' });
				for (const p of ['operation', 'inputsMode']) {
					await page.locator(`[data-test-id="parameter-input-${p}"]`).waitFor({ state: 'visible' });
				}
				// The example maps each input: the crew's field is in the panel.
				await page
					.locator('[data-test-id="node-parameters"]')
					.getByText('topic', { exact: true })
					.first()
					.waitFor({ state: 'visible' });
				await page.locator('[data-test-id="parameter-input-operation"]').click();
				const dropdown = page
					.locator('.el-select-dropdown:visible, [role="listbox"]:visible')
					.last();
				await dropdown.waitFor({ state: 'visible' });
				const listed = (await dropdown.locator('li, [role="option"]').allInnerTexts()).map((t) =>
					t.split('\n')[0].trim(),
				);
				for (const op of OPERATIONS) {
					if (!listed.includes(op))
						throw new Error(`operation "${op}" not listed (got ${listed.join(', ')})`);
				}
				await shot(page, 'operations');
				await page.keyboard.press('Escape');
				await dropdown.waitFor({ state: 'hidden' });
			},
		);

		await check('"Execute step" in the editor runs the crew and shows its result', async () => {
			const before = (await stack.crew.runs()).length;
			await page.locator('[data-test-id="node-execute-button"]').first().click();
			await page
				.locator('[data-test-id="output-panel"]')
				.getByText('Crew finished: topic=AI agents')
				.first()
				.waitFor({ state: 'visible' });
			const runs = await stack.crew.runs();
			if (runs.length !== before + 1)
				throw new Error(`expected one new kickoff, the service saw ${runs.length - before}`);
			if (runs[runs.length - 1].tokenType !== 'organization')
				throw new Error('the kickoff did not use the credential');
			await shot(page, 'result');
			// The same item as JSON: the clearest picture of what the node returns.
			await page
				.locator('[data-test-id="output-panel"]')
				.getByText('JSON', { exact: true })
				.first()
				.click();
			await page
				.locator('[data-test-id="output-panel"]')
				.getByText('"completed"')
				.first()
				.waitFor({ state: 'visible' });
			await shot(page, 'result-json');
		});

		await check('the credential test passes against the reference service', async () => {
			const asked = async () =>
				(await stack.crew.requests()).filter(
					(r) => r.route === 'inputs' && r.tokenType === 'organization' && r.status === 200,
				).length;
			const before = await asked();
			await page.locator('[data-test-id="credential-edit-button"]').first().click();
			await page
				.getByText(/Connection tested successfully/i)
				.first()
				.waitFor({ state: 'visible' });
			if ((await asked()) <= before)
				throw new Error("the service did not see the credential's test request");
			await shot(page, 'credential');
		});

		await check(
			'"Map Each Input" loads the crew\'s inputs from the service into the panel',
			async () => {
				const modal = page.getByText(/Connection tested successfully/i).first();
				if (await modal.isVisible()) {
					await page.keyboard.press('Escape');
					await modal.waitFor({ state: 'hidden' });
				}
				// Escape may close the node panel as well: open it again.
				if (!(await page.locator('[data-test-id="ndv"]').isVisible())) await node().dblclick();
				// The example saves Map Each Input; a user who typed JSON first switches back to it.
				const chooseMode = async (mode) => {
					await page.locator('[data-test-id="parameter-input-inputsMode"]').click();
					await page
						.locator('.el-select-dropdown:visible, [role="listbox"]:visible')
						.last()
						.getByText(mode, { exact: true })
						.first()
						.click();
				};
				await chooseMode('JSON');
				await page
					.locator('[data-test-id="parameter-input-inputsJson"]')
					.waitFor({ state: 'visible' });
				const before = (await stack.crew.requests()).filter((r) => r.route === 'inputs').length;
				await chooseMode('Map Each Input');
				const params = page.locator('[data-test-id="node-parameters"]');
				await params.getByText('topic', { exact: true }).first().waitFor({ state: 'visible' });
				const after = (await stack.crew.requests()).filter((r) => r.route === 'inputs').length;
				if (after <= before) throw new Error('the fields did not come from GET /inputs');
				await shot(page, 'map-inputs');
			},
		);
	} finally {
		if (context) await context.close().catch(() => {});
	}
}

/** The Kickoff-and-Wait example as the workflow suite runs it, under its own id. */
function loadWorkflow(fixtures) {
	const wf = JSON.parse(JSON.stringify(fixtures.loadWorkflows()[WORKFLOW]));
	wf.id = 'e2eEditorKaw0001';
	wf.name = `${wf.name} (editor)`;
	return { [WORKFLOW]: wf };
}

module.exports = {
	name: 'editor',
	title: 'The editor in Chromium: the node, its panel, Execute step, the credential test',
	majors: ['1', '2'],
	seconds: 25,
	needs: { server: true, browser: true },
	workflows: loadWorkflow,
	run,
};
