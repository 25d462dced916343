'use strict';
// Chat with a conversational flow: the checks of test/e2e/chat.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'chat',
	title: 'Chat with a conversational flow',
	majors: ['1', '2'],
	load: () => require('../chat.js').chatSuite,
});
