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
	// transpiling, 160 s; 4 workers transpiling, 93 s (all 1190 passing, load about 1). The workers
	// still wait more than they compute (85 s of CPU in a 218 s run of 4 workers at a load of 16):
	// 8 workers took 143 s at a load of 18 (1216 passing).
	maxWorkers: 8,
	// Without timings (a clean clone), the files whose tests wait a minute or more start first.
	testSequencer: '<rootDir>/jest.sequencer.js',
};
