/** The load rows of the reliability matrix: slower, so outside `npm test`. */
const base = require('./jest.config');

module.exports = {
	...base,
	testMatch: ['**/*.stress.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
};
