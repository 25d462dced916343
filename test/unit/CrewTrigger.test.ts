import { CrewCallbackTrigger } from '../../nodes/CrewCallbackTrigger/CrewCallbackTrigger.node';
import { CrewTrigger } from '../../nodes/CrewTrigger/CrewTrigger.node';

describe('the Crew Trigger of 0.1.0', () => {
	it('keeps 0.1.0\'s "crewTrigger" type, hidden, as the same trigger, so workflows saved with it load and start', () => {
		const legacy = new CrewTrigger();
		const current = new CrewCallbackTrigger();
		expect(legacy.description.name).toBe('crewTrigger');
		expect(legacy.description.hidden).toBe(true);
		expect(current.description.hidden).toBeUndefined();
		expect({ ...legacy.description, name: current.description.name, hidden: undefined }).toEqual({ ...current.description, hidden: undefined });
		expect(legacy.description.version).toEqual(expect.arrayContaining([1]));
		// The same class underneath: its webhook and activation methods are the current trigger's.
		expect(legacy).toBeInstanceOf(CrewCallbackTrigger);
		expect(legacy.webhookMethods).toBe(current.webhookMethods);
	});
});
