'use strict';
// Live progress in n8n's hosted chat page: the checks of test/e2e/chatProgress.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'chatProgress',
	title: "Live progress in n8n's hosted chat page",
	majors: ['1', '2'],
	load: () => require('../chatProgress.js').chatProgressSuite,
	extra: (t) => ({ docs: t.opts.docs, docsWritten: { done: false }, dialect: 'documented' }),
});
