// n8n finds the node and the credential through the "n8n" section of
// package.json; this file only keeps `require('n8n-nodes-crewai')` harmless.
module.exports = {};
