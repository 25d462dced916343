import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { callbackSecretsOf } from '../../../callbacks/callbackBody';
import type { CallbackSecrets } from '../../../callbacks/callbackBody';

export const CALLBACK_CREDENTIAL_TYPE = 'crewCallbackApi';

/**
 * The Crew Callback API credential's secrets. `required`: a channel was asked
 * for, so a missing credential is the item's error. Otherwise it is read only
 * when one is selected, for the legacy URLs' meta secret.
 */
export async function readCallbackSecrets(context: IExecuteFunctions, itemIndex: number, required: boolean): Promise<CallbackSecrets> {
	if (!required && context.getNode().credentials?.[CALLBACK_CREDENTIAL_TYPE] === undefined) return {};
	let data;
	try {
		data = await context.getCredentials(CALLBACK_CREDENTIAL_TYPE, itemIndex);
	} catch {
		throw new NodeOperationError(context.getNode(), 'No Crew Callback API credential is selected', {
			itemIndex,
			description:
				'Event Stream (and Human Input Webhook Auth, when set) need one: create a Crew Callback API credential with a Bearer Token, select it here and in the Crew Trigger that receives the calls.',
		});
	}
	return callbackSecretsOf(data);
}
