'use strict';
// A deployed flow: the checks of test/e2e/flows.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'flows',
	title: 'A deployed flow',
	majors: ['1', '2'],
	load: () => require('../flows.js').flowsSuite,
});
