/**
 * Reliability matrix, network and server faults: whatever goes wrong between
 * the node and the service, a wait ends with the right result and no crew is
 * started twice.
 */
import { useCrewService } from '../helpers/crewService';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/crewWorkflow';
import type { Fault } from '../crew-service';

const crew = useCrewService();

const waitFor =
	(options: object = {}) =>
	(itemIndex: number) => ({
		operation: 'kickoffAndWait',
		inputsMode: 'json',
		inputsJson: `{"topic": "item ${itemIndex}"}`,
		options: { pollInterval: 0.1, timeout: 30, ...options },
	});

const inTwoSeconds = () => new Date(Date.now() + 2_000).toUTCString();

describe('faults while polling: the wait goes on, one kickoff per item', () => {
	it.each<[string, () => Omit<Fault, 'route'>]>([
		['500', () => ({ kind: 'status', status: 500 })],
		[
			'502 with an HTML body',
			() => ({
				kind: 'status',
				status: 502,
				contentType: 'text/html',
				body: '<html><title>502 Bad Gateway</title></html>',
			}),
		],
		[
			'503 with Retry-After in seconds',
			() => ({ kind: 'status', status: 503, headers: { 'Retry-After': '1' } }),
		],
		[
			'429 with Retry-After in seconds',
			() => ({ kind: 'status', status: 429, headers: { 'Retry-After': '1' } }),
		],
		[
			'429 with Retry-After as an HTTP date',
			() => ({ kind: 'status', status: 429, headers: { 'Retry-After': inTwoSeconds() } }),
		],
		['a connection reset', () => ({ kind: 'reset' })],
		['a body that is not JSON', () => ({ kind: 'notJson' })],
		['a 200 with an empty body', () => ({ kind: 'emptyBody' })],
	])('%s', async (_, fault) => {
		crew.service.injectFault({ route: 'status', times: 3, ...fault() });
		const { output } = await runCrewNode({
			parameters: waitFor(),
			credentials: crew.credentials,
			items: items(3),
		});
		expect(output.map((item) => [item.json.state, item.json.result])).toEqual(
			[0, 1, 2].map((index) => ['completed', `Crew finished: topic=item ${index}`]),
		);
		expect(crew.service.count('kickoff', 'POST')).toBe(3);
		expect(crew.service.runs).toHaveLength(3);
	});

	it('waits out Retry-After instead of polling sooner', async () => {
		crew.service.injectFault({
			route: 'status',
			kind: 'status',
			status: 429,
			headers: { 'Retry-After': '2' },
		});
		await runCrewNode({ parameters: waitFor(), credentials: crew.credentials });
		const statusTimes = crew.service.requests
			.filter((request) => request.route === 'status')
			.map((request) => request.at);
		expect(statusTimes[1] - statusTimes[0]).toBeGreaterThanOrEqual(1_950);
	});

	it('a response that never ends: the read times out and the wait goes on', async () => {
		crew.service.injectFault({ route: 'status', kind: 'hang' });
		const { output } = await runCrewNode({ parameters: waitFor(), credentials: crew.credentials });
		expect(output[0].json.state).toBe('completed');
		expect(crew.service.count('kickoff', 'POST')).toBe(1);
	}, 30_000);

	it('a service that keeps failing: the item times out naming the kickoff and the last failure', async () => {
		crew.service.injectFault({ route: 'status', kind: 'status', status: 503, times: 1_000 });
		const error = await runCrewNodeExpectingError({
			parameters: waitFor({ timeout: 1 }),
			credentials: crew.credentials,
		});
		expect(error.message).toContain(`kickoff ID ${crew.service.runs[0].kickoffId}`);
		expect(error.description).toMatch(/last status read failed: The crew service answered 503/);
	});
});

describe('faults on kickoff', () => {
	it.each<[string, Omit<Fault, 'route'>]>([
		['a 500 before processing', { kind: 'status', status: 500 }],
		['a 503 after the crew was started', { kind: 'status', status: 503, afterProcessing: true }],
		['a connection dropped after the crew was started', { kind: 'reset', afterProcessing: true }],
		['a connection dropped before', { kind: 'reset' }],
	])('%s: a clear error saying the crew may have started, and no second POST', async (_, fault) => {
		crew.service.injectFault({ route: 'kickoff', ...fault });
		const { output } = await runCrewNode({
			parameters: waitFor(),
			credentials: crew.credentials,
			items: items(2),
			continueOnFail: true,
		});
		expect(output[0].json.error).toMatch(/while starting the crew/);
		expect(output[0].json.description).toMatch(/may or may not have started/);
		expect(output[1].json.state).toBe('completed');
		expect(crew.service.count('kickoff', 'POST')).toBe(2);
	});

	it('a 429 with Retry-After before the request was processed: sent again safely', async () => {
		crew.service.injectFault({
			route: 'kickoff',
			kind: 'status',
			status: 429,
			headers: { 'Retry-After': '1' },
		});
		const { output } = await runCrewNode({ parameters: waitFor(), credentials: crew.credentials });
		expect(output[0].json.state).toBe('completed');
		expect(crew.service.count('kickoff', 'POST')).toBe(2);
		expect(crew.service.runs).toHaveLength(1);
	});
});
