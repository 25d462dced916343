import { readCrewStatus } from '../../../nodes/status/crewStatus';
import { createEndedCrews } from '../../../nodes/waiting/endedCrews';
import { pausedFromNotFound, pauseOfHumanInputCall } from '../../../nodes/status/notFound';

const TASK = '0b9e3c44-6a4e-4d43-9a8e-1f2b3c4d5e6f';

describe('createEndedCrews.remember', () => {
	it('replaces an ended crew\'s outcome, and ignores an outcome that is no end', async () => {
		const crews = createEndedCrews(() => 0);
		const status = pausedFromNotFound(readCrewStatus('k0', { state: 'NOT FOUND' }));
		await crews.outcomeOf('k0', 0, async () => ({ kind: 'paused', status }));
		const named = { kind: 'paused' as const, status: pauseOfHumanInputCall(status, TASK) };
		crews.remember('k0', named);
		crews.remember('k0', { kind: 'error', error: new Error('passing') });
		expect(crews.ended('k0')).toEqual(named);
	});
});
