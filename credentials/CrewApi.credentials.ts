import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class CrewApi implements ICredentialType {
	name = 'crewApi';

	displayName = 'Crew API';

	icon: Icon = { light: 'file:crew.svg', dark: 'file:crew.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-crewai/n8n-nodes-crewai#what-you-need';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://my-crew-1a2b3c.crewai.com',
			description:
				"The crew's own API address, shown on the crew's dashboard. Each deployed crew has its own.",
		},
		{
			displayName: 'Bearer Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"From the crew's detail page in the dashboard, Status tab. The organization Bearer Token runs the crew with the deployment's own integrations; a User Bearer Token runs it with that user's connected integrations (their mail, their calendar). Resetting a token there invalidates the old one at once.",
		},
		// The secrets of the service's calls back to n8n, all optional. They belong to the
		// deployment, so they sit in its one credential: the Crew node gives them to the service with
		// a kickoff, and the Crew Trigger selecting the same credential checks them on every call.
		// n8n sends none of them anywhere itself (the authenticate block uses the token only).
		{
			displayName:
				'<b>Callbacks (optional).</b> The secrets the service presents when it calls a Crew Trigger: event stream, human input, legacy webhooks, flow feedback requests. Leave them empty if you use none. Wait By: Callback needs none of them.',
			name: 'callbacksNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Callback Bearer Token',
			name: 'bearerToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			hint: 'Used by the Kickoff option Event Stream URL, and a Human Input Webhook with Bearer Token auth',
			description:
				'A long random value you make up (e.g. openssl rand -hex 32), not the Bearer Token above. The Crew node gives it to the service with the kickoff; the service sends it back as "Authorization: Bearer …" with every Event Stream URL call, and with the documented Human Input Webhook URL call unless Human Input Webhook Auth is Basic Auth. The Crew Trigger refuses those calls without it.',
		},
		{
			displayName: 'Human Input Basic Auth User',
			name: 'basicUser',
			type: 'string',
			default: '',
			hint: 'Used by a Human Input Webhook with Basic Auth',
			description:
				'The user name the service sends when it calls the Human Input Webhook URL with basic auth',
		},
		{
			displayName: 'Human Input Basic Auth Password',
			name: 'basicPassword',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			hint: 'Used by a Human Input Webhook with Basic Auth',
			description:
				'The password the service sends when it calls the Human Input Webhook URL with basic auth',
		},
		{
			displayName: 'Legacy Webhook Secret',
			name: 'metaSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			hint: 'Used by the legacy Crew, Task and Step Webhook URLs',
			description:
				"A value you make up. The service calls the legacy URLs without any authentication: the Crew node puts it in the kickoff's meta (as webhook_secret), the service sends the meta back in every one of those calls, and the Crew Trigger refuses a legacy call without it (left empty, legacy calls are not checked at all). Anyone who sees one call learns it, so prefer the Event Stream URL.",
		},
		{
			displayName: 'Flow Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'e.g. whsec_…',
			hint: "Used by a Crew Trigger receiving a flow's feedback requests",
			description:
				"The signing secret of the webhook registered in the deployment's dashboard (Settings → Human in the Loop → Webhooks), whole, whsec_ included",
		},
	];

	// n8n adds the header to every request made with this credential, so the
	// node never builds an Authorization header itself.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.token.trim()}}',
			},
		},
	};

	// "Test" in the credential dialog: GET /inputs, which every crew answers. n8n
	// shows a rule's message for an HTTP answer; a connection that fails before
	// any answer is reported by n8n itself, with the network code (ECONNREFUSED).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: '/inputs',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						"The crew refused the Bearer Token (401). Copy the current token from the crew's Status tab in the dashboard: resetting a token there stops the old one at once.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						"The crew refused the Bearer Token (403). Copy the current token from the crew's Status tab in the dashboard, or use the organization token.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						"No crew answered at this Base URL (404). Copy the crew's own API address from its dashboard: each deployed crew has its own.",
				},
			},
		],
	};
}
