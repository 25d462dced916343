'use strict';
// The MCP Server Trigger with a Crew tool and the MCP SDK client: the checks of test/e2e/mcp.js, on its own stack (lib/ownStack.js).

const { ownStackSuite } = require('../lib/ownStack');

module.exports = ownStackSuite({
	name: 'mcp',
	title: 'The MCP Server Trigger with a Crew tool and the MCP SDK client',
	majors: ['2'],
	load: () => require('../mcp.js').mcpSuite,
});
