import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IDataObject,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, credentialSecretsOf } from '../transport';
import { callbackSecretsOf } from '../callbacksOut/callbackBody';

import { nothingToRegister } from '../callbacksIn/webhookRegistration';
import type { TriggerSecrets } from '../callbacksIn/callbackAuth';
import { receiveCall } from '../callbacksIn/receiveCall';
import type { TriggerEvent } from '../callbacksIn/receiveCall';
import { seenBefore } from '../callbacksIn/feedbackReplays';
import { isPlainObject } from '../records/plainObject';
import { legacyWebhookSecretField } from '../Crew/actions/descriptions/callbacks.description';

const events: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	// The default of the unpublished 0.1.0, so workflows made with it keep starting on the same
	// calls.
	default: ['crew'],
	options: [
		// "Agent", as the Kickoff's Event Stream Events and the vendor's event list name the group; the
		// value stays 'step' for saved workflows.
		{
			name: 'Agent',
			value: 'step',
			description: 'Stream: agent_* events. Legacy Step Webhook URL: each agent step.',
		},
		{
			name: 'All Events',
			value: 'all',
			description:
				"Every call, including event types this node does not know (e.g. your crew's own events)",
		},
		{
			name: 'Crew',
			value: 'crew',
			description:
				'Stream: crew_kickoff_started/completed/failed and other crew_* events. Legacy Crew Webhook URL: the crew finished.',
		},
		{ name: 'Flow', value: 'flow', description: 'Stream: flow_* and method_execution_* events' },
		{
			name: 'Flow Feedback Requested',
			value: 'feedbackRequest',
			description:
				"A flow waits for human feedback (a signed request from the webhook set in the deployment's Settings → Human in the Loop)",
		},
		{
			name: 'Human Input Requested',
			value: 'humanInput',
			description:
				'A crew paused for human input (its Human Input Webhook URL); answer with Resume',
		},
		{ name: 'LLM', value: 'llm', description: 'Stream: llm_* events' },
		{
			name: 'Memory and Knowledge',
			value: 'memory',
			description: 'Stream: memory_* and knowledge_* events',
		},
		{
			name: 'Run Finished or Failed',
			value: 'runFinished',
			description:
				'Stream: crew_kickoff_completed, crew_kickoff_failed, flow_finished, method_execution_failed. Legacy Crew Webhook URL too.',
		},
		{
			name: 'Task',
			value: 'task',
			description: 'Stream: task_* events. Legacy Task Webhook URL: each task finished.',
		},
		{ name: 'Tool', value: 'tool', description: 'Stream: tool_* events' },
	],
	description:
		'Which calls start the workflow, one item per event; others are acknowledged and ignored',
};

/**
 * The 0.1.0 parameter, shown and honoured only in nodes of that version; newer ones use the
 * credential's Legacy Webhook Secret.
 */
const legacySecret = legacyWebhookSecretField(
	'secret',
	"If set, only calls whose meta carries the same secret start the workflow; others are refused with 401. Set the same value in the Kickoff's Webhook Secret option. Newer versions of this node take it from the Crew API credential's Legacy Webhook Secret instead.",
);

/**
 * The callback secrets of the Crew API credential the trigger selects, which calls are
 * checked against, and every secret it holds, which no item shows; none without one. The
 * trigger sends no request, so it never uses the credential's Base URL or token (see the
 * credentials comment below).
 */
async function readTriggerSecrets(
	context: IWebhookFunctions,
): Promise<{ callbacks: TriggerSecrets; all: string[] }> {
	if (context.getNode().credentials?.[CREDENTIAL_TYPE] === undefined)
		return { callbacks: {}, all: [] };
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return { callbacks: callbackSecretsOf(credentials), all: credentialSecretsOf(credentials) };
}

/**
 * The Crew Trigger. Its type name is not "crewTrigger": n8n's nodes panel folds a
 * node X and a node XTrigger into one entry that shows only the trigger's
 * description, so the Crew node and this trigger would be listed as one entry
 * described as a trigger.
 */
export class CrewCallbackTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crew Trigger',
		name: 'crewCallbackTrigger',
		icon: { light: 'file:crew.svg', dark: 'file:crew.dark.svg' },
		group: ['trigger'],
		// 1.1: secrets only from the credential; 1 keeps the Webhook Secret parameter of the
		// unpublished 0.1.0.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when a crew or flow calls back: its event stream, a request for human input or feedback, or the legacy webhooks',
		defaults: { name: 'Crew Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// The deployment's Crew API credential, the one its Kickoff used, for the callback secrets it
		// gave the service. Optional: the hosted service's human-input call and unchecked legacy calls
		// need none. The trigger never reads a run's status with it: a legacy call carries the
		// credential's Legacy Webhook Secret instead, and one trigger may receive the calls of several
		// deployments whose Base URLs differ (docs/callbacks.md says how).
		credentials: [{ name: 'crewApi', required: false }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// The service does not retry and gives up after 30 s: answer at once, run afterwards.
				responseMode: 'onReceived',
				path: 'crew',
			},
		],
		// Where to paste the URL, said in the panel n8n keeps for a trigger's instructions
		// rather than in a notice among the parameters, which n8n draws as a warning.
		triggerPanel: {
			header: "Paste this trigger's URL into a Crew node's Kickoff options",
			executionsHelp: {
				inactive:
					"<b>While building your workflow</b>, click <b>Execute step</b>, paste the Test URL shown above into the <b>Event Stream URL</b> option of a Crew node's Kickoff (or its <b>Human Input Webhook URL</b>, or a legacy Crew, Task or Step Webhook URL), and run that node: the crew's calls show up here. A flow's feedback requests come from the URL entered in the deployment's dashboard.<br /><br /><b>Once you're happy with your workflow</b>, put the Production URL in those options instead and activate the workflow (in n8n 2.x: publish it). Then every call starts an execution, listed under Executions.",
				active:
					"<b>While building your workflow</b>, click <b>Execute step</b>, paste the Test URL shown above into a Crew node's Kickoff options and run that node: the crew's calls show up here.<br /><br /><b>Your workflow is active</b>: calls to the Production URL start executions, listed under Executions.",
			},
			activationHint:
				"Once you've finished building your workflow, put this trigger's Production URL in the Kickoff options and activate the workflow (in n8n 2.x: publish it).",
		},
		properties: [events, legacySecret],
	};

	/**
	 * n8n calls these when the workflow is activated (published, in n8n 2.x) or
	 * starts listening for a test call, to register this webhook with the service
	 * (checkExists, then create if it answers false), and delete when it stops.
	 * The crew service keeps no webhook registrations n8n could make: it takes its
	 * callback URLs with each kickoff (the Crew node's event stream, human input and
	 * legacy webhook URL options) and calls them for that run only, and a flow's
	 * feedback webhooks are entered by hand in the deployment's dashboard. So there
	 * is nothing to register, look up or remove: the webhook exists as soon as n8n
	 * listens on its URL, and activation and deactivation succeed without a request.
	 */
	webhookMethods = nothingToRegister;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const body = this.getBodyData();
		const rawBody = (this.getRequestObject() as { rawBody?: Buffer | string }).rawBody;
		const secrets = await readTriggerSecrets(this);
		const nowMs = Date.now();
		const outcome = receiveCall({
			headers: this.getHeaderData() as Record<string, string | string[] | undefined>,
			body: isPlainObject(body) ? (body as IDataObject) : {},
			// Without the raw bytes a signature cannot be checked; the re-serialised JSON then simply
			// fails it.
			rawBody: rawBody === undefined ? JSON.stringify(body) : rawBody.toString(),
			picked: this.getNodeParameter('events', ['crew']) as TriggerEvent[],
			secrets: secrets.callbacks,
			legacySecretParameter: String(this.getNodeParameter('secret', '') ?? ''),
			credentialSecrets: secrets.all,
			nowMs,
		});
		const node = this.getNode().name;
		if (outcome.kind === 'refused') {
			// A bare 401: why it was refused would tell any caller how the trigger is set up. The reason
			// goes to n8n's log.
			this.logger.warn(
				`Crew Trigger "${node}" refused a call (${outcome.channel}): ${outcome.reason}`,
				{ workflowId: this.getWorkflow().id, node },
			);
			this.getResponseObject().status(401).end();
			return { noWebhookResponse: true };
		}
		if (outcome.kind === 'ignored') {
			// Acknowledged, so the caller sees a delivered call; the service would not retry anyway.
			return { webhookResponse: { received: true, ignored: outcome.reason } };
		}
		// A signed feedback request taken before, replayed within its window: acknowledged, nothing
		// started. Remembered in the workflow's static data, which n8n loads for each production call
		// and saves after it.
		if (
			outcome.once &&
			seenBefore(
				this.getWorkflowStaticData('node'),
				outcome.once.key,
				outcome.once.signedAtMs,
				nowMs,
			)
		) {
			this.logger.info(
				`Crew Trigger "${node}" received a feedback request it took before; it starts nothing`,
				{ workflowId: this.getWorkflow().id, node },
			);
			return {
				webhookResponse: { received: true, ignored: 'this feedback request was received before' },
			};
		}
		return { workflowData: [this.helpers.returnJsonArray(outcome.items)] };
	}
}
