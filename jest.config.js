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
	// service (a run used about a third of two cores with two workers), while each file loads
	// n8n-core (about a thousand modules) for itself; four workers overlap the waits with the loads.
	// On the 2-core machine, one run after the other: 2 workers 240 s (load 1 to 7), 4 workers
	// 145 s (load 7 to 9, other jobs running), 1146 tests passed each time.
	maxWorkers: 4,
	// Without timings (a clean clone), the files whose tests wait a minute or more start first.
	testSequencer: '<rootDir>/jest.sequencer.js',
};
