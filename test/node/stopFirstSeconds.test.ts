/**
 * Stops in a run's first seconds, against a reference service that registers runs
 * late (registrationDelayMs): status NOT FOUND and stop 404 "Execution not found"
 * for a while after each kickoff, as the hosted service answers right after one.
 */
import { REGISTRATION_WINDOW_MS } from '../../nodes/status/registrationWindow';
import { useCrewService } from '../helpers/crewService';
import {
	items,
	runCrewNode,
	runCrewNodeExpectingError,
	runCrewWorkflow,
} from '../helpers/crewWorkflow';

const crew = useCrewService();
const LATE_MS = 1_500;
beforeEach(() =>
	crew.service.configure({
		dialect: 'live',
		registrationDelayMs: LATE_MS,
		durationMs: 60_000,
		stopRoute: true,
	}),
);
afterEach(() => crew.service.configure({ dialect: 'documented', registrationDelayMs: 0 }));

const stop = (kickoffId: string) => ({ operation: 'stop', kickoffId });

describe("a stop in a run's first seconds", () => {
	it('Kickoff then Stop at once: the run ends stopped, and the item says so', async () => {
		const { output: started } = await runCrewNode({
			parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
			credentials: crew.credentials,
		});
		const kickoffId = started[0].json.kickoff_id as string;
		const { output } = await runCrewNode({
			parameters: stop(kickoffId),
			credentials: crew.credentials,
		});
		expect(output).toEqual([
			{
				json: { kickoff_id: kickoffId, state: 'stopped', already_ended: false },
				pairedItem: { item: 0 },
			},
		]);
		expect(crew.service.runs[0].state).toBe('revoked');
		const answers = crew.service.requests
			.filter((request) => request.route === 'stop')
			.map((request) => request.status);
		expect(answers.at(-1)).toBe(200);
		expect(answers.slice(0, -1).every((status) => status === 404)).toBe(true);
	});

	it('an execution waiting on 3 crews, cancelled before the service registered them: all 3 end stopped', async () => {
		const controller = new AbortController();
		const watcher = setInterval(() => {
			if (
				crew.service.requests.filter(
					(request) => request.route === 'kickoff' && request.status !== null,
				).length >= 3
			)
				controller.abort();
		}, 5);
		try {
			const parameters = {
				operation: 'kickoffAndWait',
				inputsMode: 'json',
				inputsJson: '{"topic": "AI"}',
				options: { pollInterval: 60, timeout: 600 },
			};
			const { output } = await runCrewWorkflow({
				parameters,
				credentials: crew.credentials,
				items: items(3),
				cancelSignal: controller.signal,
				typeVersion: 1.3,
				continueOnFail: true,
			});
			expect(crew.service.runs.map((run) => run.state)).toEqual(['revoked', 'revoked', 'revoked']);
			expect(output.map((item) => item.json.error)).toEqual(
				crew.service.runs.map(
					(run) =>
						`The execution was stopped while waiting for the crew (kickoff ID ${run.kickoffId}); the crew was stopped too`,
				),
			);
			// The first stops came before the registration: each crew was asked again until it stopped.
			expect(
				crew.service.requests.filter(
					(request) => request.route === 'stop' && request.status === 404,
				).length,
			).toBeGreaterThanOrEqual(3);
		} finally {
			clearInterval(watcher);
		}
	});

	it('a kickoff ID that never existed: the not-found error once the registration window has passed', async () => {
		const began = Date.now();
		const error = await runCrewNodeExpectingError({
			parameters: stop('no-such-kickoff'),
			credentials: crew.credentials,
		});
		const took = Date.now() - began;
		expect(error.httpCode).toBe('404');
		expect(error.message).toMatch(
			new RegExp(
				`^Not found: the crew service at .* knows no run with kickoff ID no-such-kickoff, so nothing was stopped \\(it answered 404: .*\\); asked again for ${REGISTRATION_WINDOW_MS / 1_000} seconds`,
			),
		);
		expect(took).toBeGreaterThanOrEqual(REGISTRATION_WINDOW_MS);
		expect(took).toBeLessThan(REGISTRATION_WINDOW_MS + 5_000);
	});

	it('a deployment without the stop route is told at once, with one request', async () => {
		crew.service.configure({ stopRoute: false });
		const began = Date.now();
		const error = await runCrewNodeExpectingError({
			parameters: stop('no-such-kickoff'),
			credentials: crew.credentials,
		});
		expect(error.message).toMatch(/^This deployment cannot be stopped through its API/);
		expect(crew.service.count('stop')).toBe(1);
		expect(Date.now() - began).toBeLessThan(REGISTRATION_WINDOW_MS);
	});
});
