'use strict';
// The Crew tools under an AI Agent with a scripted model: the checks of test/e2e/agent.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'agent',
	title: 'The Crew tools under an AI Agent with a scripted model',
	majors: ['1', '2'],
	load: () => require('../agent.js').agentSuite,
	extra: (t) => ({ editor: true, docs: t.opts.docs }),
});
