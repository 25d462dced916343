'use strict';
// Wait By: Callback with the live dialect: human input while parked: the checks of test/e2e/liveWaitByCallback.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'liveWaitByCallback',
	title: 'Wait By: Callback with the live dialect: human input while parked',
	majors: ['1', '2'],
	load: () => require('../liveWaitByCallback.js').liveWaitByCallbackSuite,
});
