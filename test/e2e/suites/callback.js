'use strict';
// Kickoff with a Crew Webhook URL and the Crew Trigger: the callback round trip: the checks of test/e2e/callback.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'callback',
	title: 'Kickoff with a Crew Webhook URL and the Crew Trigger: the callback round trip',
	majors: ['1', '2'],
	load: () => require('../callback.js').callbackSuite,
	extra: () => ({ editor: true }),
});
