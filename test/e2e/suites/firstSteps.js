'use strict';
// A new user's first minutes in the editor: the checks of test/e2e/firstSteps.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'firstSteps',
	title: "A new user's first minutes in the editor",
	majors: ['1', '2'],
	load: () => require('../firstSteps.js').firstStepsSuite,
	extra: (t) => ({ docs: t.opts.docs }),
});
