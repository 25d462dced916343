import type { IExecuteFunctions } from 'n8n-workflow';

import { callbackSecretsOf } from './callbackBody';
import type { CallbackSecrets } from './callbackBody';
import { CREDENTIAL_TYPE } from '../transport';

/**
 * The callback secrets of the Crew API credential, the one a kickoff is sent
 * with: the Crew Trigger that receives the calls selects the same credential,
 * so the two always agree. Each is absent when left empty; an option that needs
 * one says so when the kickoff body is built (callbackBody.ts).
 */
export async function readCallbackSecrets(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<CallbackSecrets> {
	return callbackSecretsOf(await context.getCredentials(CREDENTIAL_TYPE, itemIndex));
}
