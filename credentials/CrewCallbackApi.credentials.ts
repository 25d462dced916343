import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secrets of the service's callbacks to n8n. Select the same credential in
 * the Crew node (which gives them to the service with the kickoff) and in the
 * Crew Trigger (which checks them on every call), so they always agree. No
 * request is made with it, so it has no authenticate block and no test.
 */
export class CrewCallbackApi implements ICredentialType {
	name = 'crewCallbackApi';

	displayName = 'Crew Callback API';

	icon: Icon = { light: 'file:crew.svg', dark: 'file:crew.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-crewai/n8n-nodes-crewai/blob/main/docs/callbacks.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Bearer Token',
			name: 'bearerToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'A long random value you make up (e.g. openssl rand -hex 32). The Crew node gives it to the service with the kickoff; the service sends it back as "Authorization: Bearer …" with every Event Stream URL call, and with every Human Input Webhook URL call when Human Input Webhook Auth is Bearer Token. The Crew Trigger refuses those calls without it. The hosted service\'s plain human-input call carries no Authorization at all: the trigger accepts it without a token when it names a kickoff ID and a task ID.',
		},
		{
			displayName: 'Basic Auth User',
			name: 'basicUser',
			type: 'string',
			default: '',
			description: 'Only for a Human Input Webhook with basic auth: the user name the service sends',
		},
		{
			displayName: 'Basic Auth Password',
			name: 'basicPassword',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Only for a Human Input Webhook with basic auth: the password the service sends',
		},
		{
			displayName: 'Legacy Webhook Secret',
			name: 'metaSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Only for the legacy Crew, Task and Step Webhook URLs, which the service calls without any authentication. A value you make up: the Crew node puts it in the kickoff\'s meta (as webhook_secret), the service sends the meta back in every one of those calls, and the Crew Trigger refuses a legacy call without it (left empty, legacy calls are not checked at all). Anyone who sees one call learns it, so prefer the Event Stream URL with the Bearer Token.',
		},
		{
			displayName: 'Flow Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'whsec_…',
			description:
				'Only for flow feedback requests: the signing secret of the webhook registered in the deployment\'s dashboard (Settings → Human in the Loop → Webhooks), whole, whsec_ included',
		},
	];
}
