import { CrewCallbackTrigger } from '../CrewCallbackTrigger/CrewCallbackTrigger.node';

/**
 * 0.1.0's Crew Trigger type, "crewTrigger": the same trigger, kept so that the
 * workflows saved with it still load and start. Hidden from n8n's nodes panel,
 * which would otherwise fold it into the Crew node's entry (see
 * CrewCallbackTrigger); new workflows get the Crew Callback Trigger type.
 */
export class CrewTrigger extends CrewCallbackTrigger {
	constructor() {
		super();
		this.description = { ...this.description, name: 'crewTrigger', hidden: true };
	}
}
