/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', '\\.stress\\.test\\.ts$'],
	transform: {
		'^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	testTimeout: 20000,
	// The node tests mostly wait for crews on the loopback service, while each file loads n8n-core
	// (about a thousand modules) for itself, so workers overlap one another's waits. ts-jest only
	// transpiles (tsconfig.test.json's isolatedModules); `npm run lint` type-checks the tests with
	// tsc instead. From a clean cache, as in CI: 2 workers type-checking in each, 189 s; 2 workers
	// transpiling, 160 s; 4 workers transpiling, 93 s (all 1190 passing, load about 1).
	maxWorkers: 4,
	// Without timings (a clean clone), the files whose tests wait a minute or more start first.
	testSequencer: '<rootDir>/jest.sequencer.js',
};
