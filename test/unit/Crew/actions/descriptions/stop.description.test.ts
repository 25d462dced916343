import { readStopSettings } from '../../../../../nodes/Crew/actions/descriptions/stop.description';

describe('which crews a wait stops, by the options', () => {
	it('stops at a cancel by default from node version 1.3; the option decides when set', () => {
		expect(readStopSettings({}, 1.2)).toEqual({ stopAtTimeout: false, stopOnCancel: false });
		expect(readStopSettings({}, 1.3)).toEqual({ stopAtTimeout: false, stopOnCancel: true });
		expect(readStopSettings({ stopCrewsOnCancel: false }, 1.3).stopOnCancel).toBe(false);
		expect(readStopSettings({ stopCrewsOnCancel: true }, 1).stopOnCancel).toBe(true);
		expect(readStopSettings({ onTimeout: 'stopCrews' }, 1).stopAtTimeout).toBe(true);
		expect(readStopSettings({ onTimeout: 'leaveRunning' }, 1.3).stopAtTimeout).toBe(false);
	});
});
