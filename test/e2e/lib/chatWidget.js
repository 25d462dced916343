'use strict';
// n8n's chat widget, the registry package @n8n/chat, for a browser that cannot reach the CDN
// n8n's hosted chat page loads it from (cdn.jsdelivr.net/npm/@n8n/chat/dist/..., unversioned:
// the newest release). Pinned here to one release and its registry integrity, fetched once with
// `npm pack` into the e2e cache, and served to the page by Playwright's routing.
//
// Not a devDependency of test/e2e: installing it pulls its build's dependencies (Vue, n8n's
// design system, which pins a release the registry here lacks and, overridden, brings
// isolated-vm, a native build that fails on Node 20), while the page needs only the
// self-contained bundle in the tarball's dist/.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { cacheRoot } = require('./install');

// The newest release on the registry when this was written (npm view @n8n/chat version).
const CHAT = {
	name: '@n8n/chat',
	version: '1.37.0',
	integrity:
		'sha512-V1EQxDp/+rW6o/5OZgbwDfgPJXG8Jrn3TIdq7Z/26QTP90Uo3g2gv8CMnaQcphdTQVR+K06X34DOCRHXa8Tqnw==',
};
const CDN_PREFIX = 'https://cdn.jsdelivr.net/npm/@n8n/chat/dist/';

const TYPES = {
	'.js': 'text/javascript',
	'.mjs': 'text/javascript',
	'.css': 'text/css',
	'.ico': 'image/x-icon',
};

/** The folder holding the pinned release's dist/, fetched and checked on first use. */
function ensureChatWidget() {
	const dir = path.join(cacheRoot(), `n8n-chat-${CHAT.version}`);
	const dist = path.join(dir, 'package', 'dist');
	if (fs.existsSync(path.join(dist, 'chat.bundle.es.js'))) return dist;
	const staging = `${dir}.partial-${process.pid}`;
	fs.rmSync(staging, { recursive: true, force: true });
	fs.mkdirSync(staging, { recursive: true });
	const [packed] = JSON.parse(
		execFileSync(
			'npm',
			['pack', `${CHAT.name}@${CHAT.version}`, '--json', '--pack-destination', staging],
			{ cwd: staging, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
		),
	);
	if (packed.integrity !== CHAT.integrity)
		throw new Error(
			`${CHAT.name}@${CHAT.version}: integrity ${packed.integrity}, expected ${CHAT.integrity}`,
		);
	execFileSync('tar', ['xzf', path.join(staging, packed.filename), '-C', staging]);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.renameSync(staging, dir);
	return dist;
}

/**
 * Routes a Playwright page's requests to the CDN: @n8n/chat's files from the pinned release,
 * the page's normalize.css as an empty sheet (styling only), everything else off this machine
 * refused, so the page never waits on the internet.
 */
async function serveChatWidget(page) {
	const dist = ensureChatWidget();
	await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, async (route) => {
		const url = route.request().url().split('?')[0];
		if (url.startsWith(CDN_PREFIX)) {
			const file = path.join(dist, url.slice(CDN_PREFIX.length));
			if (file.startsWith(dist + path.sep) && fs.existsSync(file)) {
				return route.fulfill({
					status: 200,
					contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
					body: fs.readFileSync(file),
				});
			}
			return route.fulfill({ status: 404, body: '' });
		}
		if (url.endsWith('.css'))
			return route.fulfill({ status: 200, contentType: 'text/css', body: '' });
		return route.abort();
	});
}

module.exports = { ensureChatWidget, serveChatWidget, CHAT };
