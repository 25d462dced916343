'use strict';
// A new user's first minutes in the editor: the checks of test/e2e/firstSteps.js, on an n8n of
// their own (lib/ownStack.js): what a new node gets depends on the credentials n8n holds.

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'firstSteps',
	title: "A new user's first minutes in the editor",
	majors: ['1', '2'],
	load: () => require('../firstSteps.js').firstStepsSuite,
	// The README's screenshots are n8n 2.x's.
	extra: (t) => ({ docs: t.opts.docs && t.major === '2' }),
});
