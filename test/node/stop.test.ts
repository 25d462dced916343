/**
 * Crew → Stop, and a stopped run read back (REVOKED), on n8n-core's real engine
 * against the reference service's POST /stop/{kickoff_id}.
 */
import { REGISTRATION_WINDOW_MS } from '../../nodes/status/registrationWindow';
import { useCrewService } from '../helpers/crewService';
import { callCrewTool } from '../helpers/crewTool';
import {
	items,
	runCrewNode,
	runCrewNodeExpectingError,
	runCrewWorkflow,
} from '../helpers/crewWorkflow';
import type { Credentials } from '../helpers/crewWorkflow';

const crew = useCrewService();
beforeEach(() => crew.service.configure({ stopRoute: true, deployment: 'crew' }));

const stop = (kickoffId: string) => ({ operation: 'stop', kickoffId });

async function kickoffOne(credentials: Credentials): Promise<string> {
	const { output } = await runCrewNode({
		parameters: { operation: 'kickoff', inputsMode: 'json', inputsJson: '{"topic": "AI"}' },
		credentials,
	});
	return output[0].json.kickoff_id as string;
}

describe('Stop', () => {
	it('stops a running crew, sent once, and Get Status then reads it as stopped', async () => {
		crew.service.configure({ durationMs: 60_000 });
		const kickoffId = await kickoffOne(crew.credentials);
		const { output } = await runCrewNode({
			parameters: stop(kickoffId),
			credentials: crew.credentials,
			typeVersion: 1.3,
		});
		expect(output).toEqual([
			{
				json: { kickoff_id: kickoffId, state: 'stopped', already_ended: false },
				pairedItem: { item: 0 },
			},
		]);
		expect(crew.service.requests.filter((request) => request.route === 'stop')).toEqual([
			expect.objectContaining({ method: 'POST', kickoffId, status: 200 }),
		]);
		expect(crew.service.runs[0].state).toBe('revoked');

		for (const recordShape of ['contract', 'wild'] as const) {
			crew.service.configure({ recordShape });
			const read = await runCrewNode({
				parameters: { operation: 'getStatus', kickoffId },
				credentials: crew.credentials,
			});
			expect(read.output[0].json).toMatchObject({
				kickoff_id: kickoffId,
				state: 'stopped',
				result: null,
				error: null,
			});
		}
	});

	it('takes the kickoff_id of the incoming item by default, for crews and flows alike', async () => {
		crew.service.configure({ durationMs: 60_000, deployment: 'flow', dialect: 'live' });
		const kickoffId = await kickoffOne(crew.credentials);
		const { output } = await runCrewNode({
			parameters: { operation: 'stop', kickoffId: '={{ $json.kickoff_id }}' },
			credentials: crew.credentials,
			items: [{ json: { kickoff_id: kickoffId } }],
		});
		expect(output[0].json).toEqual({
			kickoff_id: kickoffId,
			state: 'stopped',
			already_ended: false,
		});
		const read = await runCrewNode({
			parameters: { operation: 'getStatus', kickoffId, deploymentType: 'flow' },
			credentials: crew.credentials,
			typeVersion: 1.3,
		});
		expect(read.output[0].json).toMatchObject({ state: 'stopped', response: { state: 'REVOKED' } });
	});

	it('reads the kickoff ID from a Wait By: Callback timeout item with the expression its advice gives', async () => {
		crew.service.configure({ durationMs: 60_000 });
		const kickoffId = await kickoffOne(crew.credentials);
		const timedOut = {
			error: `The crew did not call back within 60 seconds (kickoff ID ${kickoffId})`,
		};
		const kickoffIdExpression =
			'={{ $json.kickoff_id ?? $json.error.match(/kickoff ID ([^)]+)/)[1] }}';
		const { output } = await runCrewNode({
			parameters: { operation: 'stop', kickoffId: kickoffIdExpression },
			credentials: crew.credentials,
			items: [{ json: timedOut }],
		});
		expect(output[0].json).toEqual({
			kickoff_id: kickoffId,
			state: 'stopped',
			already_ended: false,
		});
	});

	it('a run that had ended is no error: the item says it had ended and in which state, in item order', async () => {
		crew.service.configure({
			durationMs: 0,
			plan: ({ index }) =>
				index === 1 ? { outcome: 'failure' } : index === 2 ? { durationMs: 60_000 } : undefined,
		});
		const completed = await kickoffOne(crew.credentials);
		const failed = await kickoffOne(crew.credentials);
		const stopped = await kickoffOne(crew.credentials);
		await runCrewNode({ parameters: stop(stopped), credentials: crew.credentials });
		const ids = [completed, failed, stopped];
		const { output } = await runCrewNode({
			parameters: (itemIndex) => stop(ids[itemIndex]),
			credentials: crew.credentials,
			items: items(3),
		});
		expect(
			output.map((item) => [
				item.json.state,
				item.json.already_ended,
				item.json.service_state,
				item.pairedItem,
			]),
		).toEqual([
			['completed', true, 'SUCCESS', { item: 0 }],
			['failed', true, 'FAILURE', { item: 1 }],
			['stopped', true, 'REVOKED', { item: 2 }],
		]);
		expect(output[0].json).toMatchObject({
			kickoff_id: completed,
			message: expect.stringMatching(/had already ended \(SUCCESS\)/),
		});
		expect(crew.service.count('stop')).toBe(4);
	});

	it('an unknown kickoff ID: a not-found error naming the ID and the Base URL', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: stop('no-such-kickoff'),
			credentials: crew.credentials,
		});
		expect(error.httpCode).toBe('404');
		expect(error.message).toBe(
			`Not found: the crew service at ${crew.service.url} knows no run with kickoff ID no-such-kickoff, so nothing was stopped (it answered 404: Execution not found: No execution found with ID: no-such-kickoff); asked again for ${REGISTRATION_WINDOW_MS / 1_000} seconds, longer than a new run takes to be known`,
		);
		expect(error.description).toMatch(/Check the kickoff ID/);
	});

	it.each([
		[false, '404'],
		['methodNotAllowed', '405'],
	] as const)(
		'a deployment without the stop route (stopRoute %s): its own error, not "unknown kickoff ID"',
		async (stopRoute, httpCode) => {
			crew.service.configure({ durationMs: 60_000 });
			const kickoffId = await kickoffOne(crew.credentials);
			crew.service.configure({ stopRoute });
			const error = await runCrewNodeExpectingError({
				parameters: stop(kickoffId),
				credentials: crew.credentials,
			});
			expect(error.httpCode).toBe(httpCode);
			expect(error.message).toBe(
				`This deployment cannot be stopped through its API: the crew service at ${crew.service.url} has no stop endpoint (it answered ${httpCode} to POST /stop) (kickoff ID ${kickoffId})`,
			);
			expect(error.description).toMatch(/Stop it in the crew's dashboard/);
			expect(error.message).not.toMatch(/Not found/);
			expect(crew.service.runs[0].state).not.toBe('revoked');
		},
	);

	it('with Continue On Fail, every item gives one output item: stopped, error, already ended', async () => {
		crew.service.configure({ durationMs: 60_000 });
		const running = await kickoffOne(crew.credentials);
		const ids = [running, 'no-such-kickoff', running];
		const { output } = await runCrewNode({
			parameters: (itemIndex) => stop(ids[itemIndex]),
			credentials: crew.credentials,
			items: items(3),
			continueOnFail: true,
		});
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toEqual({ kickoff_id: running, state: 'stopped', already_ended: false });
		expect(output[1].json.error).toMatch(/knows no run with kickoff ID no-such-kickoff/);
		expect(output[2].json).toMatchObject({ state: 'stopped', already_ended: true });
	});

	it('is never sent twice after a failure that may have reached the service; a 429 alone is sent again', async () => {
		crew.service.configure({ durationMs: 60_000 });
		const kickoffId = await kickoffOne(crew.credentials);
		crew.service.injectFault({ route: 'stop', kind: 'reset', afterProcessing: true });
		const error = await runCrewNodeExpectingError({
			parameters: stop(kickoffId),
			credentials: crew.credentials,
		});
		expect(error.message).toMatch(/failed while stopping the crew/);
		expect(error.description).toMatch(/may or may not have been stopped; it was not sent again/);
		expect(crew.service.count('stop')).toBe(1);

		crew.service.injectFault({ route: 'stop', kind: 'status', status: 503 });
		const unavailable = await runCrewNodeExpectingError({
			parameters: stop(kickoffId),
			credentials: crew.credentials,
		});
		expect(unavailable.message).toMatch(/answered 503 while stopping the crew/);
		expect(crew.service.count('stop')).toBe(2);

		crew.service.injectFault({
			route: 'stop',
			kind: 'status',
			status: 429,
			headers: { 'Retry-After': '0' },
		});
		const { output } = await runCrewNode({
			parameters: stop(kickoffId),
			credentials: crew.credentials,
		});
		// The reset was processed: the run was stopped then, and says so now.
		expect(output[0].json).toMatchObject({ state: 'stopped', already_ended: true });
		expect(crew.service.count('stop')).toBe(4);
	});

	it('refuses an empty kickoff ID without a request', async () => {
		const error = await runCrewNodeExpectingError({
			parameters: stop(' '),
			credentials: crew.credentials,
		});
		expect(error.message).toBe('Kickoff ID is empty');
		expect(crew.service.requests).toHaveLength(0);
	});

	it("as an agent's tool: the model gives the kickoff ID", async () => {
		crew.service.configure({ durationMs: 60_000 });
		const kickoffId = await kickoffOne(crew.credentials);
		const parameters = {
			operation: 'stop',
			kickoffId: "={{ $fromAI('kickoff_id', 'The kickoff_id of the run to stop', 'string') }}",
		};
		const { parameters: offered, answers } = await callCrewTool(parameters, crew.credentials, [
			{ kickoff_id: kickoffId },
			{ kickoff_id: 'no-such-kickoff' },
		]);
		expect(Object.keys(offered)).toEqual(['kickoff_id']);
		expect(JSON.parse(answers[0].answer as string)).toEqual([
			{ kickoff_id: kickoffId, state: 'stopped', already_ended: false },
		]);
		expect(answers[1].error).toMatch(
			/knows no run with kickoff ID no-such-kickoff, so nothing was stopped.*Check the kickoff ID/,
		);
	});
});

describe('a run stopped elsewhere, read by Kickoff and Wait', () => {
	it('ends the wait with its own error, never "running" or a failure without a reason; Continue On Fail makes it an item', async () => {
		crew.service.configure({
			durationMs: 400,
			dialect: 'live',
			plan: ({ index }) => (index === 0 ? { outcome: 'revoked' } : undefined),
		});
		const parameters = {
			operation: 'kickoffAndWait',
			inputsMode: 'json',
			inputsJson: '{"topic": "AI"}',
			options: { pollInterval: 0.1, timeout: 60 },
		};
		const { output } = await runCrewWorkflow({
			parameters,
			credentials: crew.credentials,
			items: items(2),
			continueOnFail: true,
			typeVersion: 1.3,
		});
		const kickoffId = crew.service.runs[0].kickoffId;
		expect(output[0].json.error).toBe(
			`The crew was stopped before it finished (kickoff ID ${kickoffId})`,
		);
		expect(output[0].json.description).toMatch(/reports the run as stopped \(REVOKED\)/);
		expect(output[1].json.state).toBe('completed');
		expect(crew.service.count('stop')).toBe(0);
	});
});
