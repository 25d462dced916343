/**
 * The status path's two spellings, against the reference service serving only
 * one: the node learns which one from any answer that shows the route, so at
 * most one request per base URL goes to the other spelling, also when reads
 * fail. The node remembers spellings per base URL for the whole process, so
 * every test here has a service of its own (its own port, its own base URL)
 * and none depends on what another test taught the node.
 */
import { startCrewService } from '../crew-service';
import type { CrewService, CrewServiceOptions, Fault } from '../crew-service';
import { ORGANIZATION_TOKEN, USER_TOKEN } from '../helpers/crewService';
import { items, runCrewNode, runCrewNodeExpectingError } from '../helpers/executeFunctions';
import type { Credentials } from '../helpers/executeFunctions';

/** 'wild' serves `/status/{id}` (today's API reference), 'contract' `/{id}/status`. */
type Spelling = 'wild' | 'contract';

// Kept open until the end, so that no later service can get a closed one's port and base URL.
const services: CrewService[] = [];
afterAll(async () => {
	await Promise.all(services.map(async (service) => await service.close()));
});

async function serviceServingOnly(statusPaths: Spelling, options: CrewServiceOptions = {}) {
	const service = await startCrewService({
		durationMs: 0,
		statusPaths,
		...options,
		tokens: { organization: ORGANIZATION_TOKEN, user: USER_TOKEN },
	});
	services.push(service);
	const credentials: Credentials = { baseUrl: service.url, token: ORGANIZATION_TOKEN };
	return { service, credentials };
}

function statusRequests(service: CrewService) {
	return service.requests.filter((request) => request.route === 'status');
}

const other = (spelling: Spelling): Spelling => (spelling === 'wild' ? 'contract' : 'wild');

const kickoffAndWait = (itemIndex: number) => ({
	operation: 'kickoffAndWait',
	inputsMode: 'json',
	inputsJson: `{"topic": "item ${itemIndex}"}`,
	options: { pollInterval: 0.1, timeout: 30 },
});

async function kickoffOne(credentials: Credentials): Promise<string> {
	const { output } = await runCrewNode({
		parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
		credentials,
	});
	return output[0].json.kickoff_id as string;
}

describe.each<[Spelling, string]>([
	['wild', '/status/{id}'],
	['contract', '/{id}/status'],
])('a service serving only the %s spelling, %s', (serves) => {
	it('10 status reads while waiting, 5 of them answered 500 by the service: 11 requests at most', async () => {
		const { service, credentials } = await serviceServingOnly(serves);
		service.injectFault({
			route: 'status',
			spelling: serves,
			kind: 'status',
			status: 500,
			times: 5,
		});
		const { output } = await runCrewNode({
			parameters: kickoffAndWait,
			credentials,
			items: items(5),
		});

		expect(output.map((item) => item.json.state)).toEqual(Array(5).fill('completed'));
		const served = statusRequests(service).filter((request) => request.spelling === serves);
		expect(served).toHaveLength(10);
		expect(served.filter((request) => request.status === 500)).toHaveLength(5);
		expect(service.count('status')).toBeLessThanOrEqual(11);
		// Today's spelling is asked first, so only a service on the contract's spelling costs the one extra request.
		expect(
			statusRequests(service).filter((request) => request.spelling === other(serves)),
		).toHaveLength(serves === 'wild' ? 0 : 1);
	});

	it('the first request dropped, then reads failing with 429 and dropped connections: one request to the wrong spelling', async () => {
		const { service, credentials } = await serviceServingOnly(serves);
		const faults: Fault[] = [
			// The first request goes to /status/{id}, served or not; a dropped connection there shows nothing.
			{ route: 'status', spelling: 'wild', kind: 'reset' },
			{
				route: 'status',
				spelling: serves,
				kind: 'status',
				status: 429,
				headers: { 'Retry-After': '0' },
				times: 2,
			},
			{ route: 'status', spelling: serves, kind: 'reset', times: 2 },
		];
		for (const fault of faults) service.injectFault(fault);
		const { output } = await runCrewNode({
			parameters: kickoffAndWait,
			credentials,
			items: items(3),
		});

		expect(output.map((item) => item.json.state)).toEqual(Array(3).fill('completed'));
		// The dropped first request sends the next read to the other spelling: the one request the wrong spelling
		// gets is that dropped one (a service on the contract's spelling) or the router's 404 (one on today's).
		expect(
			statusRequests(service).filter((request) => request.spelling === other(serves)),
		).toHaveLength(1);
		expect(
			statusRequests(service).filter(
				(request) => request.spelling === serves && request.status === 200,
			),
		).toHaveLength(3);
	});

	it('Get Status learns the spelling from a 500 and goes straight there from then on', async () => {
		const { service, credentials } = await serviceServingOnly(serves);
		const kickoffId = await kickoffOne(credentials);
		service.injectFault({ route: 'status', spelling: serves, kind: 'status', status: 500 });
		for (let run = 0; run < 3; run++) {
			const { output } = await runCrewNode({
				parameters: { operation: 'getStatus', kickoffId },
				credentials,
			});
			expect(output[0].json.state).toBe('completed');
		}
		const expected = [
			[serves, 500],
			[serves, 200],
			[serves, 200],
			[serves, 200],
		];
		if (serves === 'contract') expected.unshift(['wild', 404]);
		expect(statusRequests(service).map((request) => [request.spelling, request.status])).toEqual(
			expected,
		);
	});

	it.each(['documented', 'fastapi'] as const)(
		"an unknown kickoff ID: the service's own 404 message reaches the user (%s error shape)",
		async (errorShape) => {
			const { service, credentials } = await serviceServingOnly(serves, { errorShape });
			const kickoffId = '3f2b9c1e-7a4d-4e8b-9f00-1c2d3e4f5a6b';
			const error = await runCrewNodeExpectingError({
				parameters: { operation: 'getStatus', kickoffId },
				credentials,
			});

			expect(error.httpCode).toBe('404');
			expect(error.message).toContain(`(kickoff ID ${kickoffId})`);
			expect(error.message).toContain(`No execution found with ID: ${kickoffId}`);
			if (errorShape === 'documented') expect(error.message).toContain('Execution not found');
			expect(error.message).not.toMatch(/: Not Found$/);
			expect(error.description).toMatch(/Check the kickoff ID/);
			const spellings = statusRequests(service).map((request) => [
				request.spelling,
				request.status,
			]);
			expect(spellings).toEqual(
				serves === 'wild'
					? [['wild', 404]]
					: [
							['wild', 404],
							['contract', 404],
						],
			);
		},
	);
});

it('a Base URL with no status route at either spelling: both are asked, and the error says to check the kickoff ID and Base URL', async () => {
	const { service } = await serviceServingOnly('wild');
	const credentials: Credentials = {
		baseUrl: `${service.url}/not-the-crew`,
		token: ORGANIZATION_TOKEN,
	};
	const error = await runCrewNodeExpectingError({
		parameters: { operation: 'getStatus', kickoffId: 'k-1' },
		credentials,
	});
	expect(error.httpCode).toBe('404');
	expect(error.message).toBe(
		"The crew service answered 404 while reading the crew's status (kickoff ID k-1): Not Found",
	);
	expect(error.description).toMatch(/Base URL/);
	expect(service.requests.map((request) => request.path)).toEqual([
		'/not-the-crew/status/k-1',
		'/not-the-crew/k-1/status',
	]);
});
