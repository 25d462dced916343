// @ts-check
'use strict';

// A reference Crew Execution Service for tests: see index.d.ts for the API and README.md for usage.
const { startCrewService } = require('./server');

module.exports = { startCrewService };
