'use strict';
// Debian's Chromium (apt-get install -y chromium) driven by playwright-core. Never a
// downloaded browser: playwright-core only drives the executable given here.

const fs = require('node:fs');

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
		throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium), or set CHROMIUM_PATH`);
	}
	let playwright;
	try {
		playwright = require('playwright-core');
	} catch {
		throw new Error('playwright-core is not installed: run `npm ci --prefix test/e2e`');
	}
	return playwright.chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

module.exports = { launch, CHROMIUM, FLAGS };
