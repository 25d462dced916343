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
	// Jest would use one worker on two cores. The node tests mostly wait for crews on the loopback
	// service, while each file loads n8n-core (about a thousand modules) for itself; two workers
	// overlap the one with the other. Four were tried: with a warm cache 145 s against 240 s, but
	// from a clean cache (as in CI, where ts-jest compiles every file in each worker) 387 s against
	// 228 s, so two it stays.
	maxWorkers: 2,
	// Without timings (a clean clone), the files whose tests wait a minute or more start first.
	testSequencer: '<rootDir>/jest.sequencer.js',
};
