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

export class Crew implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crew',
		name: 'crew',
		icon: { light: 'file:crew.svg', dark: 'file:crew.dark.svg' },
		group: ['transform'],
		// 1.1: callback secrets come from the credential; 1 keeps the Webhook Secret option of the unpublished 0.1.0.
		// 1.2: Deployment Type defaults to Detect (1 and 1.1 keep Crew, what they were saved with).
		// 1.3: Kickoff and Wait stops the crews it started when the execution is cancelled (earlier versions leave them running).
		// 1.4: Resume's Wait for the Resumed Run stops its crews on cancel and offers On Timeout, as Kickoff and Wait does (earlier versions stop nothing).
		version: [1, 1.1, 1.2, 1.3, 1.4],
		defaultVersion: 1.4,
		subtitle:
			'={{ {"answerFeedback": "Answer Feedback Request", "getInputs": "Get Inputs", "kickoff": "Kickoff", "getStatus": "Get Status", "kickoffAndWait": "Kickoff and Wait", "resume": "Resume", "stop": "Stop", "sendMessage": "Send Message"}[$parameter["operation"]] }}',
		description:
			'Run deployed AI crews and flows: Get Inputs, Kickoff (with files), Get Status, Kickoff and Wait, Resume, Stop, Answer a flow\'s feedback request, and chat with a conversational flow',
		defaults: { name: 'Crew' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Kickoff and Wait, Wait By: Callback parks the execution; the crew's call resumes it here.
		webhooks: [parkedResume.callbackWebhook],
		waitingNodeTooltip: '=Waiting for the crew to call back',
		credentials: [
			// One credential, the deployment's: its Bearer Token for every request, and the optional
			// callback secrets that Kickoff's Event Stream, Human Input Webhook and legacy webhook options
			// give the service (Wait By: Callback makes a token of its own per crew). A feedback answer
			// goes to the request's own URL, with no Crew API token.
			{ name: 'crewApi', required: true, displayOptions: { hide: { operation: ['answerFeedback'] } } },
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
						description: 'A deployed conversational flow: send a message, get its reply, one flow session per conversation',
					},
					{
						name: 'Flow Feedback Request',
						value: 'feedbackRequest',
						description: 'A flow\'s request for human feedback, as the Crew Trigger receives it',
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
