'use strict';
// The editor in Chromium: the node, its panel, Execute step, the credential test: the checks of test/e2e/editor.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'editor',
	title: 'The editor in Chromium: the node, its panel, Execute step, the credential test',
	majors: ['1', '2'],
	load: () => require('../editor.js').editorSuite,
});
