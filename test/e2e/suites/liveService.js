'use strict';
// The reference service in its live dialect: the checks of test/e2e/liveService.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'liveService',
	title: 'The reference service in its live dialect',
	majors: ['1', '2'],
	load: () => require('../liveService.js').liveServiceSuite,
});
