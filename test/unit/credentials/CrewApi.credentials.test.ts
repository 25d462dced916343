// Which credentials the Crew node's and the Crew Trigger's panels show, as n8n decides it
// (NodeHelpers.displayParameter, the function the editor and n8n-core's getCredentials both call):
// one credential row, the deployment's Crew API credential, which also holds the callback secrets.
import { NodeHelpers } from 'n8n-workflow';
import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import { CrewApi } from '../../../credentials/CrewApi.credentials';
import { Crew } from '../../../nodes/Crew/Crew.node';
import { CrewCallbackTrigger } from '../../../nodes/CrewCallbackTrigger/CrewCallbackTrigger.node';
import { CREDENTIAL_TYPE } from '../../../nodes/transport';

function shownCredentials(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion = 1.3,
): string[] {
	const node: INode = {
		id: '1',
		name: description.displayName,
		type: `n8n-nodes-crewai.${description.name}`,
		typeVersion,
		position: [0, 0],
		parameters,
	};
	return (description.credentials ?? [])
		.filter((credential) =>
			NodeHelpers.displayParameter(parameters, credential, node, description, parameters),
		)
		.map((c) => c.name);
}

describe('the credentials the Crew node and the Crew Trigger show', () => {
	const crew = new Crew().description;
	const trigger = new CrewCallbackTrigger().description;

	test('one Crew API row on every Crew operation that sends a request, Kickoff with callbacks included', () => {
		for (const operation of ['getInputs', 'kickoff', 'getStatus', 'resume', 'stop'])
			expect(shownCredentials(crew, { resource: 'crew', operation })).toEqual(['crewApi']);
		expect(
			shownCredentials(crew, {
				resource: 'crew',
				operation: 'kickoff',
				options: { eventStreamUrl: 'https://n8n.example/webhook/x/crew' },
			}),
		).toEqual(['crewApi']);
		for (const waitBy of ['polling', 'callback'])
			expect(
				shownCredentials(crew, { resource: 'crew', operation: 'kickoffAndWait', waitBy }),
			).toEqual(['crewApi']);
		expect(shownCredentials(crew, { resource: 'conversation', operation: 'sendMessage' })).toEqual([
			'crewApi',
		]);
		// A feedback answer goes to the request's own URL, with no token.
		expect(
			shownCredentials(crew, { resource: 'feedbackRequest', operation: 'answerFeedback' }),
		).toEqual([]);
		for (const typeVersion of [1, 1.1, 1.2])
			expect(
				shownCredentials(crew, { resource: 'crew', operation: 'kickoff' }, typeVersion),
			).toEqual(['crewApi']);
	});

	// n8n's lint reads these three names as written (no-credential-reuse, valid-credential-references),
	// so they stay literals; the code that reads the credential uses CREDENTIAL_TYPE, and this ties them.
	test('the credential class and both nodes name the type the code reads, CREDENTIAL_TYPE', () => {
		expect(new CrewApi().name).toBe(CREDENTIAL_TYPE);
		expect(
			[...(crew.credentials ?? []), ...(trigger.credentials ?? [])].map(
				(credential) => credential.name,
			),
		).toEqual([CREDENTIAL_TYPE, CREDENTIAL_TYPE]);
	});

	test('the Crew Trigger shows the same credential type, optional', () => {
		expect(trigger.credentials).toEqual([{ name: 'crewApi', required: false }]);
		expect(shownCredentials(trigger, { events: ['crew'] }, 1.1)).toEqual(['crewApi']);
	});

	test('the credential holds the callback secrets, optional, in one section after Base URL and Bearer Token, each with a hint naming what uses it', () => {
		const properties = new CrewApi().properties;
		expect(properties.map((p) => p.name)).toEqual([
			'baseUrl',
			'token',
			'callbacksNotice',
			'bearerToken',
			'basicUser',
			'basicPassword',
			'metaSecret',
			'signingSecret',
		]);
		expect(properties[2].type).toBe('notice');
		expect(properties[2].displayName).toMatch(/^<b>Callbacks \(optional\)\.<\/b>/);
		for (const secret of properties.slice(3)) {
			expect(secret.required).toBeFalsy();
			expect(secret.default).toBe('');
			expect(secret.hint).toMatch(/^Used by /);
		}
		for (const name of ['bearerToken', 'basicPassword', 'metaSecret', 'signingSecret'])
			expect(properties.find((p) => p.name === name)?.typeOptions?.password).toBe(true);
	});
});
