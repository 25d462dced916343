'use strict';
// Human input as the hosted service does it today: the checks of test/e2e/liveHumanInput.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'liveHumanInput',
	title: 'Human input as the hosted service does it today',
	majors: ['1', '2'],
	load: () => require('../liveHumanInput.js').liveHumanInputSuite,
});
