'use strict';
// A workflow brought into n8n the way a user does it in the editor (n8n 1.123 and 2.41, Chromium):
// pasted onto an empty canvas or read by the workflow menu's "Import from File…", saved, its
// credentials chosen in the node's panel where the editor did not pick one, run with the
// "Execute workflow" button, and published (2.x) or activated (1.x).
//
// Selectors are n8n's own data-test-id attributes (those of its e2e tests), shared by both majors.

/* global document, DataTransfer, ClipboardEvent -- in page.evaluate: run in the browser */
const fs = require('node:fs');
const path = require('node:path');
const { until } = require('./until');

const sel = {
	emptyCanvas: '[data-test-id="canvas-add-button"]',
	canvasNode: '[data-test-id="canvas-node"]',
	workflowMenu: '[data-test-id="workflow-menu"]',
	saveButton: '[data-test-id="workflow-save-button"]',
	executeWorkflow: '[data-test-id="execute-workflow-button"]',
	ndv: '[data-test-id="ndv"]',
	credentialSelect: '[data-test-id="node-credentials-select"]',
	dropdown: '.el-select-dropdown:visible, [role="listbox"]:visible',
	activateSwitch: '[data-test-id="workflow-activate-switch"]',
	publishButton: '[data-test-id="workflow-open-publish-modal-button"]',
};

const nodeOnCanvas = (page, name) => page.locator(`${sel.canvasNode}[data-node-name="${name}"]`);

/** A new workflow's empty canvas (its "Add first step" button is the sign). */
async function openEmptyCanvas(page, url) {
	await page.goto(`${url}/workflow/new`);
	await page.locator(sel.emptyCanvas).first().waitFor({ state: 'visible' });
	const already = await page.locator(sel.canvasNode).count();
	if (already !== 0) throw new Error(`a new workflow's canvas shows ${already} nodes`);
}

/** Every node of `workflow` drawn on the canvas. */
async function nodesShown(page, workflow) {
	for (const node of workflow.nodes)
		await nodeOnCanvas(page, node.name).first().waitFor({ state: 'visible' });
}

/**
 * Pastes the workflow's JSON onto the canvas, as Ctrl+V does with JSON copied from a file or a
 * web page: a paste event carrying it as text/plain, which n8n's canvas listens for on the
 * document. (A synthetic event, because headless Chromium has no system clipboard to fill.)
 */
async function pasteWorkflow(page, workflow) {
	await page
		.locator('[data-test-id="canvas-wrapper"]')
		.first()
		.click({ position: { x: 40, y: 40 } });
	await page.evaluate(
		(text) => {
			const data = new DataTransfer();
			data.setData('text/plain', text);
			document.dispatchEvent(
				new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
			);
		},
		JSON.stringify(workflow, null, 2),
	);
	await nodesShown(page, workflow);
}

/**
 * The workflow menu's "Import from File…" (2.41: Import → From file): n8n opens a file chooser, given the workflow written
 * to `file` (a .json file, as a user downloads an example).
 */
async function importFromFile(page, workflow, file) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify(workflow, null, 2));
	await page.locator(sel.workflowMenu).first().click();
	// 1.123 lists "Import from File..." in the menu; 2.41 under its "Import" entry as "From file".
	const fromFile = page.locator('[data-test-id="workflow-menu-item-import-from-file"]').first();
	const submenu = page.locator('[data-test-id="workflow-menu-item-import"]').first();
	if (!(await fromFile.isVisible()) && (await submenu.isVisible())) await submenu.hover();
	const chooser = page.waitForEvent('filechooser');
	await fromFile.click();
	await (await chooser).setFiles(file);
	await nodesShown(page, workflow);
}

/**
 * Saves the workflow as a user does (Ctrl+S; n8n 2.x also saves by itself) and returns its id,
 * once the stored workflow (REST, the page's own session) has every node of the canvas.
 */
async function saveWorkflow(page, url, workflow) {
	await page.keyboard.press('ControlOrMeta+s');
	const id = await until(
		'the workflow saved (its id in the address bar)',
		async () => {
			const m = /\/workflow\/([^/?#]+)/.exec(page.url());
			return m && m[1] !== 'new' ? m[1] : null;
		},
		30000,
	);
	await until(
		'the saved workflow holding every node',
		async () => {
			const saved = await restGet(page, url, `workflows/${id}`).catch(() => null);
			return saved && workflow.nodes.every((n) => saved.nodes.some((s) => s.name === n.name));
		},
		30000,
	);
	return id;
}

/**
 * GET /rest/<route> as the editor itself asks (the page's session cookie and the browser-id header
 * n8n binds that session to); the answer's `data`.
 */
async function restGet(page, url, route) {
	const answer = await page.evaluate(async (address) => {
		const res = await fetch(address, {
			headers: { 'browser-id': localStorage.getItem('n8n-browserId') || '' },
		});
		return { status: res.status, text: await res.text() };
	}, `${url}/rest/${route}`);
	if (answer.status !== 200)
		throw new Error(`GET /rest/${route}: ${answer.status} ${answer.text.slice(0, 300)}`);
	return JSON.parse(answer.text).data;
}

/**
 * The nodes of the saved workflow whose credential of a type the imported `workflow` names on them
 * is not the one the user means (`wanted`: {type: credential name}). An example carries
 * placeholders: n8n 2.x puts in the user's most recent credential of the type, 1.x drops them;
 * either way the user then chooses in the node's panel. [{name, types}]
 */
async function nodesWithoutCredential(page, url, workflowId, workflow, wanted) {
	const saved = await restGet(page, url, `workflows/${workflowId}`);
	const byId = new Map((await restGet(page, url, 'credentials')).map((c) => [c.id, c.name]));
	const out = [];
	for (const node of workflow.nodes) {
		const stored = (saved.nodes.find((n) => n.name === node.name) || {}).credentials || {};
		const types = Object.keys(node.credentials || {}).filter(
			(type) => !(stored[type] && byId.get(stored[type].id) === wanted[type]),
		);
		if (types.length) out.push({ name: node.name, types });
	}
	return out;
}

/**
 * In the node's panel, picks `names[type]` in each credential selector that lists it, then closes
 * the panel. Returns the names chosen.
 */
async function chooseCredentials(page, nodeName, names) {
	await nodeOnCanvas(page, nodeName).first().dblclick();
	await page.locator(sel.ndv).first().waitFor({ state: 'visible' });
	const selects = page.locator(`${sel.ndv} ${sel.credentialSelect}`);
	await selects.first().waitFor({ state: 'visible' });
	const wanted = Object.values(names).filter(Boolean);
	// The panel draws one selector per credential type, not always all at once (seen on 1.123).
	await until(
		`${wanted.length} credential selectors in the panel of "${nodeName}"`,
		async () => (await selects.count()) >= wanted.length,
		10000,
		200,
	).catch(() => {});
	const chosen = [];
	const count = await selects.count();
	for (let i = 0; i < count && chosen.length < wanted.length; i++) {
		await selects.nth(i).click();
		await page.locator(sel.dropdown).last().waitFor({ state: 'visible' });
		// The selector lists the credentials of its own type: the one wanted of those, once listed.
		const option = async () => {
			for (const name of wanted.filter((n) => !chosen.includes(n))) {
				const candidate = page.locator(sel.dropdown).getByText(name, { exact: true }).first();
				if (await candidate.isVisible()) return { name, candidate };
			}
			return null;
		};
		const found = await until('a wanted credential listed', option, 3000, 200).catch(() => null);
		if (found) {
			await found.candidate.click();
			chosen.push(found.name);
		} else await page.keyboard.press('Escape');
	}
	await closePanel(page);
	return chosen;
}

/** Closes the node panel (its "Back to canvas" or ×, else Escape) and waits until it is gone. */
async function closePanel(page) {
	const ndv = page.locator(sel.ndv).first();
	if (!(await ndv.isVisible())) return;
	// 1.123: "Back to canvas"; 2.41: the panel's close button (×).
	const close = page
		.locator('[data-test-id="back-to-canvas"], [data-test-id="ndv-close-button"]')
		.first();
	if (await close.isVisible()) await close.click();
	else await page.keyboard.press('Escape');
	await ndv.waitFor({ state: 'hidden' });
}

/** The canvas's "Execute workflow" (2.41) / "Test workflow" button. */
async function executeWorkflow(page) {
	await page.locator(sel.executeWorkflow).first().click();
}

/**
 * Makes the workflow's triggers listen in production: n8n 2.x's "Publish" (and the dialog's own
 * Publish), n8n 1.x's Active switch (confirming its dialog when it shows one).
 */
/** How long the dialogs around Publish may take to close, on a loaded machine. */
const DIALOG_TIMEOUT_MS = 45000;

async function publish(page, major) {
	if (String(major) === '1') {
		await page.locator(sel.activateSwitch).first().click();
		const confirm = page.getByRole('button', { name: /^(Got it|Activate|Yes, activate)$/ }).first();
		await confirm.click({ timeout: 3000 }).catch(() => {});
		return;
	}
	await page.locator(sel.publishButton).first().click();
	const publishDialog = page
		.getByRole('dialog')
		.filter({ has: page.getByRole('button', { name: /^Publish$/ }) })
		.last();
	await publishDialog.waitFor({ state: 'visible' });
	await publishDialog
		.getByRole('button', { name: /^Publish$/ })
		.first()
		.click();
	await publishDialog.waitFor({ state: 'hidden', timeout: DIALOG_TIMEOUT_MS });
	// n8n 2.41 may then show "Workflow published … Got it" (a webhook workflow, until "Don't show
	// again"): a user reads it and clicks Got it. Its Production Checklist beside the canvas stays.
	const gotIt = page.getByRole('button', { name: /^Got it$/ }).first();
	if (
		await gotIt.waitFor({ state: 'visible', timeout: 3000 }).then(
			() => true,
			() => false,
		)
	) {
		await gotIt.click();
		await gotIt.waitFor({ state: 'hidden', timeout: DIALOG_TIMEOUT_MS });
	}
}

module.exports = {
	sel,
	nodeOnCanvas,
	openEmptyCanvas,
	pasteWorkflow,
	importFromFile,
	saveWorkflow,
	restGet,
	nodesWithoutCredential,
	chooseCredentials,
	closePanel,
	executeWorkflow,
	publish,
};
