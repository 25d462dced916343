'use strict';
/* global document, NodeFilter -- in page.evaluate: run in the browser */
// What a node's panel shows a person, read in the editor (n8n 1.123 and 2.41): the descriptions of
// the fields an AI model fills, whether a Crew Callback API credential selector is shown, and the
// credential rows a panel shows.

/** A JavaScript string literal's text ('…', "…" or `…` without ${}), its escapes undone. */
function unquote(body) {
	const named = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };
	return body.replace(/\\(.)/gs, (_, c) => (c in named ? named[c] : c));
}

/**
 * { field: description } of a tool node's `$fromAI(key, description, …)` input values: the
 * description as n8n hands it to the model (the literal's escapes undone).
 */
function fromAiDescriptions(node) {
	const values = (node.parameters.inputs && node.parameters.inputs.value) || {};
	const out = {};
	const call = /\$fromAI\(\s*(['"`])(?:\\.|(?!\1).)*\1\s*,\s*(['"`])((?:\\.|(?!\2).)*)\2/s;
	for (const [field, value] of Object.entries(values)) {
		const m = typeof value === 'string' && call.exec(value);
		if (m) out[field] = unquote(m[3]);
	}
	return out;
}

/**
 * { field: text } of the Description boxes the open panel shows under the fields the model fills
 * ("Defined automatically by the model"): each box's parameter path names its field,
 * `inputs.value["topic"].description`.
 */
async function modelFieldDescriptions(page, fields) {
	const ndv = page.locator('[data-test-id="ndv"]').first();
	// The boxes render once the mapper has its fields.
	await ndv.getByText(fields[0], { exact: true }).first().waitFor({ state: 'visible' });
	await ndv
		.locator('textarea[title*=".description"], input[title*=".description"]')
		.first()
		.waitFor({ state: 'attached' });
	const boxes = await ndv
		.locator('textarea[title*=".description"], input[title*=".description"]')
		.evaluateAll((els) => els.map((el) => ({ title: el.getAttribute('title'), value: el.value })));
	const out = {};
	for (const { title, value } of boxes) {
		const m = /inputs\.value\["([^"]+)"\]\.description/.exec(title || '');
		if (m) out[m[1]] = value;
	}
	return out;
}

// Words that say when the credential is needed ("Only for Event Stream or Webhook Options").
const WHEN_NEEDED = /\b(only|needed|required|when|if)\b/i;

/**
 * Whether the open panel shows the Crew Callback API credential (its selector's label, "Credential
 * for <the credential's name>", or any other text naming it), and a hint that says when it is
 * needed: in that label or in any other text of the panel naming it.
 */
async function callbackCredentialShown(page, drawnParameter = 'operation') {
	const params = page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').first();
	await params.waitFor({ state: 'visible' });
	// A parameter the node always shows, drawn: the panel's texts are there (the Crew Trigger has no Operation).
	await params
		.locator(`[data-test-id="parameter-input-${drawnParameter}"]`)
		.first()
		.waitFor({ state: 'visible' });
	// Each visible element whose own text names the Crew Callback API, with its parent's whole text
	// (the label "Credential for …" may be split over several text nodes).
	const texts = await params.evaluate((root) => {
		const out = [];
		const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
		for (let n = walker.nextNode(); n; n = walker.nextNode()) {
			const el = n.parentElement;
			if (!el || !el.offsetParent || !/Callback API/i.test(n.textContent)) continue;
			const whole = ((el.parentElement || el).innerText || n.textContent)
				.replace(/\s+/g, ' ')
				.trim();
			out.push(whole);
		}
		return out;
	});
	const label = texts[0] || null;
	const hint = texts.find((text) => WHEN_NEEDED.test(text)) || null;
	return { selector: texts.length > 0, label, hint, texts };
}

/**
 * The credential rows the open panel shows: n8n draws one selector per credential the node shows
 * (data-test-id node-credentials-select), each under its label. Returns the visible selectors'
 * count, each row's text (its label and the credential chosen) and the credential names chosen.
 */
async function credentialRows(page) {
	const ndv = page.locator('[data-test-id="ndv"]').first();
	await ndv.locator('[data-test-id="node-parameters"]').first().waitFor({ state: 'visible' });
	const selects = ndv.locator('[data-test-id="node-credentials-select"]');
	// The selectors come with the parameters, not always in the same frame (seen on 1.123).
	await selects
		.first()
		.waitFor({ state: 'visible', timeout: 10000 })
		.catch(() => {});
	return selects.evaluateAll((nodes) =>
		nodes
			.filter((el) => el.offsetParent)
			.map((el) => {
				const row =
					el.closest(
						'[data-test-id^="node-credentials"]:not([data-test-id="node-credentials-select"])',
					) ||
					el.parentElement.parentElement ||
					el;
				// The chosen credential's name: the select's own text (newer Element Plus) or its input's value.
				const input = el.querySelector('input');
				const chosen =
					(el.innerText || '').replace(/\s+/g, ' ').trim() ||
					(input ? input.value || input.placeholder : '');
				return { text: (row.innerText || '').replace(/\s+/g, ' ').trim(), chosen };
			}),
	);
}

module.exports = {
	fromAiDescriptions,
	modelFieldDescriptions,
	callbackCredentialShown,
	credentialRows,
	unquote,
};
