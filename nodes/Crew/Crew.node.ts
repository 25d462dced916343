import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import * as conversation from './actions/conversation/Conversation.resource';
import * as crew from './actions/crew/Crew.resource';
import * as feedbackRequest from './actions/feedbackRequest/FeedbackRequest.resource';
import { route } from './actions/router';
import * as parkedResume from '../callbacksIn/parkedResume';
import { getCrewInputs } from './methods/resourceMapping';
import { nothingToRegister } from '../callbacksIn/webhookRegistration';
import { CREW_NODE_VERSIONS, DEFAULT_CREW_NODE_VERSION } from '../versions/crewVersions';

export class Crew implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crew',
		name: 'crew',
		icon: { light: 'file:crew.svg', dark: 'file:crew.dark.svg' },
		group: ['transform'],
		// What each version changed: nodes/versions/crewVersions.ts.
		version: CREW_NODE_VERSIONS,
		defaultVersion: DEFAULT_CREW_NODE_VERSION,
		subtitle:
			'={{ {"answerFeedback": "Answer Feedback Request", "getInputs": "Get Inputs", "kickoff": "Kickoff", "getStatus": "Get Status", "kickoffAndWait": "Kickoff and Wait", "resume": "Resume", "stop": "Stop", "sendMessage": "Send Message"}[$parameter["operation"]] }}',
		description:
			"Run deployed AI crews and flows: Get Inputs, Kickoff (with files), Get Status, Kickoff and Wait, Resume, Stop, Answer a flow's feedback request, and chat with a conversational flow",
		defaults: { name: 'Crew' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Kickoff and Wait, Wait By: Callback parks the execution; the crew's call resumes it here.
		webhooks: [parkedResume.callbackWebhook],
		waitingNodeTooltip: '=Waiting for the crew to call back',
		credentials: [
			// One credential, the deployment's: its Bearer Token for every request, and the optional
			// callback secrets that Kickoff's Event Stream, Human Input Webhook and legacy webhook
			// options give the service (Wait By: Callback makes a token of its own per crew). A feedback
			// answer goes to the request's own URL, with no Crew API token.
			{
				name: 'crewApi',
				required: true,
				displayOptions: { hide: { operation: ['answerFeedback'] } },
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Crew',
						value: 'crew',
						description: 'A deployed crew or flow: its inputs, kickoffs, status and human input',
					},
					{
						name: 'Conversation',
						value: 'conversation',
						description:
							'A deployed conversational flow: send a message, get its reply, one flow session per conversation',
					},
					{
						name: 'Flow Feedback Request',
						value: 'feedbackRequest',
						description: "A flow's request for human feedback, as the Crew Trigger receives it",
					},
				],
				// Workflows saved before there were resources have none: they are all about a crew.
				default: 'crew',
			},
			...crew.description,
			...feedbackRequest.description,
			...conversation.description,
		],
	};

	methods = {
		resourceMapping: { getCrewInputs },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}

	/**
	 * The Crew node's one webhook is the resume URL of an execution waiting by
	 * callback (a restart webhook): n8n makes one per waiting execution and
	 * registers nothing on activation, and the crew service is handed the URL
	 * with the kickoff. So there is nothing to register, look up or remove.
	 */
	webhookMethods = nothingToRegister;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await parkedResume.webhook.call(this);
	}
}
