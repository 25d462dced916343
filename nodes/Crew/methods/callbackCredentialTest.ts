import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

/** Shorter than this, a bearer token can be guessed; 32 random hex digits is what the README suggests. */
export const MIN_BEARER_TOKEN_LENGTH = 16;

const filled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Checks a Crew Callback API credential's fields. Its secrets are not sent
 * anywhere n8n could call: the service presents them when it calls n8n, so the
 * credential dialog can only tell whether they are usable, not whether the
 * service has them.
 */
export function checkCallbackSecrets(data: ICredentialDataDecryptedObject): INodeCredentialTestResult {
	const { bearerToken, basicUser, basicPassword, metaSecret, signingSecret } = data;
	if (![bearerToken, basicUser, basicPassword, metaSecret, signingSecret].some(filled)) {
		return {
			status: 'Error',
			message: 'No secret is set. Set a Bearer Token for the event stream and human input, or the Flow Signing Secret from the deployment\'s dashboard for flow feedback requests.',
		};
	}
	if (filled(bearerToken) && bearerToken.trim().length < MIN_BEARER_TOKEN_LENGTH) {
		return {
			status: 'Error',
			message: `The Bearer Token has fewer than ${MIN_BEARER_TOKEN_LENGTH} characters, so it could be guessed. Use a long random value, e.g. from openssl rand -hex 32.`,
		};
	}
	if (filled(basicUser) !== filled(basicPassword)) {
		return { status: 'Error', message: 'Basic auth needs both Basic Auth User and Basic Auth Password, or neither.' };
	}
	if (filled(signingSecret) && !signingSecret.trim().startsWith('whsec_')) {
		return {
			status: 'Error',
			message: 'The Flow Signing Secret should be the whole secret shown in the deployment\'s dashboard, starting with whsec_.',
		};
	}
	return {
		status: 'OK',
		message: 'The secrets are usable. Whether the service sends them is seen when it calls the Crew Trigger: a wrong one gets 401.',
	};
}

/** The credential dialog's "Test" for a Crew Callback API credential. */
export async function testCallbackCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return checkCallbackSecrets(credential.data ?? {});
}
