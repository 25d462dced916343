import { COLD_START_TIMEOUT_MS, REQUEST_TIMEOUT_MS, requestTimeout } from '../../nodes/transport';
import { useCrewService } from '../helpers/crewService';
import { runCrewNode } from '../helpers/crewWorkflow';

// A deployment idle for a while answers its first call slowly ("first call times out,
// the next one works", docs/development/service-api.md#base-url-and-authentication). The reference service's coldStartMs takes the
// first request at once (a kickoff starts its run) and answers it that much later.
const crew = useCrewService({ dialect: 'live' });

const kickoffAndWait = (options: object = {}) => ({
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson: '{"topic": "AI"}',
	options: { pollInterval: 0.1, timeout: 600, ...options },
});

describe('a cold deployment', () => {
	// The one test that waits 45 s of wall time: the vendor's slow first answer, past the 30 s reads keep.
	it('a kickoff answered after 45 s starts exactly one run and is no error', async () => {
		crew.service.configure({ coldStartMs: 45_000 });
		const { output } = await runCrewNode({
			parameters: kickoffAndWait(),
			credentials: crew.credentials,
		});
		expect(output[0].json).toMatchObject({
			kickoff_id: crew.service.runs[0].kickoffId,
			state: 'completed',
		});
		expect(crew.service.count('kickoff', 'POST')).toBe(1);
		expect(crew.service.runs).toHaveLength(1);
	}, 120_000);

	it('a kickoff that times out says the crew may have started, and is not sent again', async () => {
		crew.service.configure({ coldStartMs: 3_000 });
		const { output } = await runCrewNode({
			parameters: kickoffAndWait({ kickoffTimeout: 1 }),
			credentials: crew.credentials,
			continueOnFail: true,
		});
		expect(output[0].json.error).toMatch(
			/did not answer the kickoff in time; the crew may have started/,
		);
		expect(output[0].json.description).toMatch(
			/not sent again.*Before running again, check whether it started/,
		);
		expect(crew.service.count('kickoff', 'POST')).toBe(1);
		// It had started: the run the user would duplicate by running again.
		expect(crew.service.runs).toHaveLength(1);
	}, 30_000);
});

describe('request timeouts', () => {
	it('gives a base URL that never answered minutes, and the short timeout once it has', () => {
		expect(requestTimeout(REQUEST_TIMEOUT_MS, false)).toBe(COLD_START_TIMEOUT_MS);
		expect(COLD_START_TIMEOUT_MS).toBeGreaterThanOrEqual(120_000);
		expect(requestTimeout(REQUEST_TIMEOUT_MS, true)).toBe(REQUEST_TIMEOUT_MS);
		expect(requestTimeout(5_000, true)).toBe(5_000);
	});
});
