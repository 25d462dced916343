/**
 * n8n's Retry On Fail (the node's Settings: Retry On Fail, Max Tries) on n8n-core's
 * real engine: the engine runs the node again with every item after a try throws.
 * A crew an earlier try started is never started again: completed ones give their
 * result from a status read, only the items that failed are started again.
 */
import { useCrewService } from '../helpers/crewService';
import { items, runCrewWorkflow } from '../helpers/crewWorkflow';
import { useResumeReceiver } from '../helpers/resumeReceiver';
import { runUntilParked } from '../helpers/waitingExecution';

const crew = useCrewService();
const receiver = useResumeReceiver();

const TWO_TRIES = { maxTries: 2, waitBetweenTries: 0 };

/** Kickoffs the service received for each topic, answered or refused. */
function kickoffsByTopic(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const run of crew.service.runs) counts[run.inputs.topic] = (counts[run.inputs.topic] ?? 0) + 1;
	return counts;
}

const topicOf = (itemIndex: number) => ['a', 'fail', 'c'][itemIndex];

describe('Retry On Fail', () => {
	beforeEach(() =>
		crew.service.configure({ plan: ({ inputs }) => (inputs.topic === 'fail' ? { outcome: 'failure', error: 'LLM key invalid', durationMs: 100 } : { durationMs: 300 }) }),
	);

	it('Kickoff and Wait on 3 items, one fails: the two completed crews are started once each, the failed one again', async () => {
		const parameters = (itemIndex: number) => ({ operation: 'kickoffAndWait', inputsMode: 'json', inputsJson: JSON.stringify({ topic: topicOf(itemIndex) }), options: { pollInterval: 0.1, timeout: 20 } });
		const { error, run } = await runCrewWorkflow({ parameters, credentials: crew.credentials, items: items(3), retryOnFail: TWO_TRIES });
		expect(kickoffsByTopic()).toEqual({ a: 1, fail: 2, c: 1 });
		expect(crew.service.count('kickoff', 'POST')).toBe(4);
		// The second try failed the same way: n8n reports the failed crew of that try.
		const secondFail = crew.service.runs.filter((r) => r.inputs.topic === 'fail')[1];
		expect(error?.message).toBe(`The crew failed (kickoff ID ${secondFail.kickoffId}): LLM key invalid`);
		expect(run.data.resultData.runData.Crew).toHaveLength(1);
	});

	it('Kickoff and Wait: with the crew fixed on the second try, the items give the first try\'s crews and the new one', async () => {
		let failing = true;
		crew.service.configure({
			plan: ({ inputs }) => (inputs.topic === 'fail' && failing ? { outcome: 'failure', error: 'LLM key invalid', durationMs: 100 } : { durationMs: 300 }),
		});
		const parameters = (itemIndex: number) => ({ operation: 'kickoffAndWait', inputsMode: 'json', inputsJson: JSON.stringify({ topic: topicOf(itemIndex) }), options: { pollInterval: 0.1, timeout: 20 } });
		const watcher = setInterval(() => {
			if (crew.service.runs.some((r) => r.inputs.topic === 'fail' && r.state === 'failed')) failing = false;
		}, 5);
		try {
			const { output, error } = await runCrewWorkflow({ parameters, credentials: crew.credentials, items: items(3), retryOnFail: TWO_TRIES });
			expect(error).toBeUndefined();
			const [first, firstFail, third, secondFail] = [...crew.service.runs].sort((x, y) => x.index - y.index);
			expect([first.inputs.topic, firstFail.inputs.topic, third.inputs.topic, secondFail.inputs.topic].sort()).toEqual(['a', 'c', 'fail', 'fail']);
			expect(output.map((item) => [item.json.state, item.json.result, item.pairedItem])).toEqual([
				['completed', 'Crew finished: topic=a', { item: 0 }],
				['completed', 'Crew finished: topic=fail', { item: 1 }],
				['completed', 'Crew finished: topic=c', { item: 2 }],
			]);
			expect(kickoffsByTopic()).toEqual({ a: 1, fail: 2, c: 1 });
		} finally {
			clearInterval(watcher);
		}
	});

	it('Kickoff on 3 items, the second refused with 422: the first crew is started once, and its ID is given again', async () => {
		const inputsByItem = ['{"topic": "a"}', '{}', '{"topic": "c"}'];
		const parameters = (itemIndex: number) => ({ operation: 'kickoff', inputsMode: 'json', inputsJson: inputsByItem[itemIndex] });
		const { error } = await runCrewWorkflow({ parameters, credentials: crew.credentials, items: items(3), retryOnFail: TWO_TRIES });
		expect(error?.httpCode).toBe('422');
		// Item 0 kicked off once; item 1 refused on each try; item 2 never reached.
		expect(crew.service.runs.map((r) => r.inputs.topic)).toEqual(['a']);
		expect(crew.service.requests.filter((request) => request.route === 'kickoff').map((request) => request.status)).toEqual([200, 422, 422]);
	});

	it('Kickoff with Continue On Fail: n8n retries while the first item is an error; the crews started keep their IDs', async () => {
		const inputsByItem = ['{}', '{"topic": "b"}'];
		const parameters = (itemIndex: number) => ({ operation: 'kickoff', inputsMode: 'json', inputsJson: inputsByItem[itemIndex] });
		const { output } = await runCrewWorkflow({ parameters, credentials: crew.credentials, items: items(2), retryOnFail: TWO_TRIES, continueOnFail: true });
		const [run] = crew.service.runs;
		expect(crew.service.runs).toHaveLength(1);
		expect(output[1].json).toEqual({ kickoff_id: run.kickoffId });
	});

	it('Wait By: Callback, a batch that ends in its first phase with one crew failed: the completed crews are started once each', async () => {
		const parameters = (itemIndex: number) => ({
			operation: 'kickoffAndWait',
			waitBy: 'callback',
			inputsMode: 'json',
			inputsJson: JSON.stringify({ topic: topicOf(itemIndex) }),
			options: { pollInterval: 0.1, timeout: 60, firstPhase: 10 },
		});
		const { error, waitTill } = await runUntilParked({ parameters, credentials: crew.credentials, items: items(3), retryOnFail: TWO_TRIES, webhookWaitingBaseUrl: receiver.webhookWaitingBaseUrl });
		expect(waitTill).toBeUndefined();
		expect(kickoffsByTopic()).toEqual({ a: 1, fail: 2, c: 1 });
		expect(error?.message).toMatch(/^The crew failed \(kickoff ID [^)]+\): LLM key invalid$/);
	});
});
