// Which credentials the Crew node's panel shows, as n8n decides it (NodeHelpers.displayParameter,
// the function the editor and n8n-core's getCredentials both call), and the label that says when
// the Crew Callback API credential is needed where n8n cannot hide it.
import { NodeHelpers } from 'n8n-workflow';
import type { INode, INodeParameters } from 'n8n-workflow';

import { Crew } from '../../nodes/Crew/Crew.node';

const description = new Crew().description;

function shownCredentials(parameters: INodeParameters): string[] {
	const node: INode = { id: '1', name: 'Crew', type: 'n8n-nodes-crewai.crew', typeVersion: 1.2, position: [0, 0], parameters };
	return (description.credentials ?? []).filter((credential) => NodeHelpers.displayParameter(parameters, credential, node, description, parameters)).map((c) => c.name);
}

describe('the credentials the Crew node shows', () => {
	test('the Crew Callback API credential only where a Kickoff option can use it', () => {
		expect(shownCredentials({ resource: 'crew', operation: 'kickoff' })).toEqual(['crewApi', 'crewCallbackApi']);
		expect(shownCredentials({ resource: 'crew', operation: 'kickoffAndWait', waitBy: 'polling' })).toEqual(['crewApi', 'crewCallbackApi']);
		for (const operation of ['getInputs', 'getStatus', 'resume']) expect(shownCredentials({ resource: 'crew', operation })).toEqual(['crewApi']);
		expect(shownCredentials({ resource: 'conversation', operation: 'sendMessage' })).toEqual(['crewApi']);
		expect(shownCredentials({ resource: 'feedbackRequest', operation: 'answerFeedback' })).toEqual([]);
	});

	test('where it shows, its label says which options need it', () => {
		const callback = description.credentials?.find((c) => c.name === 'crewCallbackApi');
		expect(callback?.required).toBe(false);
		expect(callback?.displayName).toBe('Crew Callback API (Only for Event Stream or Webhook Options)');
		// The options that use it are Kickoff's, each named as the label says.
		const crew = description.properties.filter((p) => p.name === 'options').flatMap((p) => ('options' in p && p.options ? p.options : []));
		const names = crew.map((o) => ('displayName' in o ? o.displayName : ''));
		for (const option of ['Event Stream URL', 'Human Input Webhook URL', 'Human Input Webhook Auth', 'Crew Webhook URL', 'Task Webhook URL', 'Step Webhook URL']) {
			expect(names).toContain(option);
			expect(option).toMatch(/Event Stream|Webhook/);
		}
	});
});
