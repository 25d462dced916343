import type { IExecuteFunctions } from 'n8n-workflow';

import { startedCrews } from '../../../nodes/waiting/startedCrews';
import type { KickoffResult } from '../../../nodes/waiting/startedCrews';

const STOPPING = { stopAtTimeout: false, stopOnCancel: true };

/** The little of n8n's context the step reads: Continue On Fail and the credential. */
function context(continueOnFail: boolean) {
	const credentialReads: number[] = [];
	const fake = {
		continueOnFail: () => continueOnFail,
		getNode: () => ({ name: 'Crew' }),
		getCredentials: async (_type: string, itemIndex: number) => {
			credentialReads.push(itemIndex);
			return { baseUrl: 'https://crew.example.com/', token: ' secret ' };
		},
	};
	return { context: fake as unknown as IExecuteFunctions, credentialReads };
}

const started = (itemIndex: number): KickoffResult => ({
	kind: 'started',
	kickoff: { itemIndex, kickoffId: `k${itemIndex}`, startedAt: 0 },
});
const failed = (itemIndex: number, message: string): KickoffResult => ({
	kind: 'error',
	itemIndex,
	error: new Error(message),
});

describe('startedCrews', () => {
	it('gives the started crews in item order and one connection, past a failed kickoff with Continue On Fail', async () => {
		const { context: fake, credentialReads } = context(true);
		const { running, connection } = await startedCrews(
			fake,
			[started(0), failed(1, 'refused'), started(2)],
			STOPPING,
			() => false,
		);
		expect(running.map((kickoff) => kickoff.kickoffId)).toEqual(['k0', 'k2']);
		expect(connection).toEqual({
			baseUrl: 'https://crew.example.com',
			secret: 'secret',
			secrets: ['secret'],
		});
		expect(credentialReads).toEqual([0]);
	});

	it('reads no credential when no crew started', async () => {
		const { context: fake, credentialReads } = context(true);
		expect(await startedCrews(fake, [failed(0, 'refused')], STOPPING, () => false)).toEqual({
			running: [],
			connection: undefined,
		});
		expect(credentialReads).toEqual([]);
	});

	it('fails the node with the first failed kickoff without Continue On Fail, naming the crews that keep running', async () => {
		const { context: fake } = context(false);
		const error = await startedCrews(
			fake,
			[started(0), failed(1, 'first'), failed(2, 'second'), started(3)],
			STOPPING,
			() => false,
		).catch((thrown: Error) => thrown);
		expect((error as Error).message).toBe('first');
		expect((error as Error & { description?: string }).description).toBe(
			'The crews started for the other items keep running: kickoff IDs k0, k3.',
		);
	});
});
