import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import * as answerFeedback from './actions/answerFeedback.operation';
import * as getInputs from './actions/getInputs.operation';
import * as getStatus from './actions/getStatus.operation';
import { inputsFields } from './actions/inputs.description';
import * as kickoff from './actions/kickoff.operation';
import * as kickoffAndWait from './actions/kickoffAndWait.operation';
import * as resume from './actions/resume.operation';
import { route } from './actions/router';
import * as waitByCallback from './actions/waitByCallback';
import { testCallbackCredential } from './methods/callbackCredentialTest';
import { getCrewInputs } from './methods/resourceMapping';
import { nothingToRegister } from '../callbacks/webhookRegistration';

export class Crew implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crew',
		name: 'crew',
		icon: { light: 'file:crew.svg', dark: 'file:crew.dark.svg' },
		group: ['transform'],
		// 1.1: secrets come from the Crew Callback API credential; 1 keeps the Webhook Secret option of 0.1.0.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{ {"answerFeedback": "Answer Feedback Request", "getInputs": "Get Inputs", "kickoff": "Kickoff", "getStatus": "Get Status", "kickoffAndWait": "Kickoff and Wait", "resume": "Resume"}[$parameter["operation"]] }}',
		description: 'Run a deployed AI crew: read its inputs, kick it off, read its status, or kick off and wait for the result',
		defaults: { name: 'Crew' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Kickoff and Wait, Wait By: Callback parks the execution; the crew's call resumes it here.
		webhooks: [waitByCallback.callbackWebhook],
		waitingNodeTooltip: '=Waiting for the crew to call back',
		credentials: [
			// A feedback answer goes to the request's own URL, with no Crew API token.
			{ name: 'crewApi', required: true, displayOptions: { hide: { operation: ['answerFeedback'] } } },
			{
				name: 'crewCallbackApi',
				required: false,
				testedBy: 'testCallbackCredential',
				displayOptions: { show: { operation: ['kickoff', 'kickoffAndWait'] } },
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
						name: 'Flow Feedback Request',
						value: 'feedbackRequest',
						description: 'A flow\'s request for human feedback, as the Crew Trigger receives it',
					},
				],
				// Workflows saved before there were resources have none: they are all about a crew.
				default: 'crew',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['crew'] } },
				options: [
					{
						name: 'Get Inputs',
						value: 'getInputs',
						description: 'List the inputs the crew expects',
						action: 'Get the inputs of a crew',
					},
					{
						name: 'Get Status',
						value: 'getStatus',
						description: 'Read the state and, once finished, the result of a kickoff',
						action: 'Get the status of a kickoff',
					},
					{
						name: 'Kickoff',
						value: 'kickoff',
						description: 'Start the crew and return its kickoff ID at once',
						action: 'Kick off a crew',
					},
					{
						name: 'Kickoff and Wait',
						value: 'kickoffAndWait',
						description: 'Start the crew for every item and wait for the results',
						action: 'Kick off a crew and wait for the result',
					},
					{
						name: 'Resume',
						value: 'resume',
						description: 'Approve or reject the task a crew paused on for human input',
						action: 'Resume a crew paused for human input',
					},
				],
				default: 'kickoffAndWait',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['feedbackRequest'] } },
				options: [
					{
						name: 'Answer',
						value: 'answerFeedback',
						description: 'Answer the request by its callback URL, once',
						action: 'Answer a flow feedback request',
					},
				],
				default: 'answerFeedback',
			},
			...answerFeedback.description,
			...getInputs.description,
			...getStatus.description,
			...inputsFields,
			...kickoff.description,
			...kickoffAndWait.description,
			...resume.description,
		],
	};

	methods = {
		credentialTest: { testCallbackCredential },
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
		return await waitByCallback.webhook.call(this);
	}
}
