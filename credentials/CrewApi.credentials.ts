import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

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
			description: 'The crew\'s own API address, shown on the crew\'s dashboard. Each deployed crew has its own.',
		},
		{
			displayName: 'Bearer Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'From the crew\'s detail page in the dashboard, Status tab. The organization Bearer Token runs the crew with the deployment\'s own integrations; a User Bearer Token runs it with that user\'s connected integrations (their mail, their calendar). Resetting a token there invalidates the old one at once.',
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
						'The crew refused the Bearer Token (401). Copy the current token from the crew\'s Status tab in the dashboard: resetting a token there stops the old one at once.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The crew refused the Bearer Token (403). Copy the current token from the crew\'s Status tab in the dashboard, or use the organization token.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No crew answered at this Base URL (404). Copy the crew\'s own API address from its dashboard: each deployed crew has its own.',
				},
			},
		],
	};
}
