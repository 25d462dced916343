'use strict';
// Live progress in a streaming Webhook response: the checks of test/e2e/streaming.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'streaming',
	title: 'Live progress in a streaming Webhook response',
	majors: ['1', '2'],
	load: () => require('../streaming.js').streamingSuite,
});
