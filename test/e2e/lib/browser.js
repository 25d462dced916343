'use strict';
// Debian's Chromium (apt-get install -y chromium) driven by playwright-core. Never a
// downloaded browser: playwright-core only drives the executable given here.

const fs = require('node:fs');
const path = require('node:path');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Without the background-networking flags Chromium keeps trying to reach Google's hosts.
const FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

async function launch() {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium), or set CHROMIUM_PATH`,
		);
	}
	let playwright;
	try {
		playwright = require('playwright-core');
	} catch {
		throw new Error('playwright-core is not installed: run `npm ci --prefix test/e2e`');
	}
	return playwright.chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/** Signs the owner in on n8n's sign-in page (1.x and 2.x). */
async function signIn(page, url, owner) {
	// The editor's first load parses megabytes of scripts: at a load of 20 on 2 cores, while the
	// other lanes' n8n start, it outlasted a suite's 20 s UI timeout.
	await page.goto(`${url}/signin`, { timeout: 90000 });
	// 2.x labels its inputs; 1.x does not link the label, so fall back to the input itself.
	await page
		.getByLabel('Email')
		.or(page.locator('input[name="emailOrLdapLoginId"], input[name="email"], input[type="email"]'))
		.first()
		.fill(owner.email);
	await page
		.getByLabel('Password')
		.or(page.locator('input[type="password"]'))
		.first()
		.fill(owner.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((u) => !u.pathname.includes('/signin'));
}

/**
 * t.check for a browser suite: a check that fails leaves a screenshot of where the page was
 * (`<dir>/<prefix>-failed-<n>.png`), so a UI timeout can be read after the run.
 * @param {{ check(name: string, fn: () => Promise<void>): Promise<boolean> }} t
 * @param {() => import('playwright-core').Page | undefined} pageOf the page as it is when a check fails
 */
function checkWithScreenshot(t, pageOf, dir, prefix) {
	let failures = 0;
	return (name, fn) =>
		t.check(name, async () => {
			try {
				await fn();
			} catch (err) {
				failures += 1;
				const page = pageOf();
				if (page)
					await page
						.screenshot({ path: path.join(dir, `${prefix}-failed-${failures}.png`) })
						.catch(() => {});
				throw err;
			}
		});
}

module.exports = { launch, signIn, checkWithScreenshot, CHROMIUM, FLAGS };
