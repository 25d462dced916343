'use strict';
// Kickoff and Wait, Wait By: Callback: the checks of test/e2e/waitByCallback.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'waitByCallback',
	title: 'Kickoff and Wait, Wait By: Callback',
	majors: ['1', '2'],
	load: () => require('../waitByCallback.js').waitByCallbackSuite,
});
