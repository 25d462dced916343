import { NodeConnectionTypes } from 'n8n-workflow';
import type { IDataObject, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isPlainObject } from '../Crew/crewStatus';
import { carriesSecret, classifyCrewEvent, toTriggerItem } from './crewWebhook';
import type { CrewEvent } from './crewWebhook';

export class CrewTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crew Trigger',
		name: 'crewTrigger',
		icon: { light: 'file:crew.svg', dark: 'file:crew.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when a crew calls back: the crew finished, a task finished, or an agent took a step',
		defaults: { name: 'Crew Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'crew',
			},
		],
		properties: [
			{
				displayName:
					'Copy this trigger\'s production URL into the Crew Webhook URL (and Task or Step Webhook URL) options of a Crew node\'s Kickoff, and activate this workflow (in n8n 2.x: publish it). To try it from the editor, use the Test URL instead while listening.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['crew'],
				options: [
					{ name: 'Crew Finished', value: 'crew', description: 'The whole crew finished, with its result (or its error)' },
					{ name: 'Step Taken', value: 'step', description: 'An agent took a step: thought, tool and result' },
					{ name: 'Task Finished', value: 'task', description: 'A task finished, with its output' },
				],
				description: 'Which calls start the workflow; others are acknowledged and ignored',
			},
			{
				displayName: 'Webhook Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'If set, only calls whose meta carries the same secret start the workflow; others are refused with 401. Set the same value in the Kickoff\'s Webhook Secret option. A webhook URL is public, so set one.',
			},
		],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const body = this.getBodyData();
		const payload: IDataObject = isPlainObject(body) ? body : {};
		const secret = String(this.getNodeParameter('secret', '') ?? '');
		if (!carriesSecret(payload, secret)) {
			this.getResponseObject().status(401).json({ message: 'The webhook secret is missing or wrong' });
			return { noWebhookResponse: true };
		}
		const event = classifyCrewEvent(payload);
		const events = this.getNodeParameter('events', ['crew']) as CrewEvent[];
		if (event === undefined || !events.includes(event)) {
			// Acknowledged, so the service does not retry a call this trigger does not want.
			return { webhookResponse: { received: true, ignored: event ?? 'unknown' } };
		}
		return { workflowData: [this.helpers.returnJsonArray([toTriggerItem(event, payload)])] };
	}
}
