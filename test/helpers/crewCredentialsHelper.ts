/**
 * The credentials helper n8n-core asks for a credential's data and for the
 * request options it authenticates. n8n's own helper lives in the n8n server
 * (CredentialsHelper in packages/cli), which reads credentials from its
 * database; this one holds one credential in memory and does the rest the way
 * that helper does: defaults through NodeHelpers.getNodeParameters, and the
 * credential's `authenticate` templates through the workflow's own
 * expression engine (`workflow.expression.getSimpleParameterValue`), with
 * `$credentials` as the only added key.
 */
import { Credentials as StoredCredentials } from 'n8n-core';
import { ICredentialsHelper, isExpression, NodeHelpers, UnexpectedError } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';

import { CrewApi } from '../../credentials/CrewApi.credentials';

/** The Crew API credential's callback secrets, for the tests of the service's callback channels. */
export interface CallbackCredentialFields {
	bearerToken?: string;
	basicUser?: string;
	basicPassword?: string;
	metaSecret?: string;
	signingSecret?: string;
}

/** One test's Crew API credential: Base URL and token, and the callback secrets a test gives. */
export interface Credentials extends CallbackCredentialFields {
	baseUrl: string;
	token: string;
}

export const CREDENTIAL_ID = 'crew-credential-id';

export const credentialTypes: Record<string, ICredentialType> = { crewApi: new CrewApi() };

export class CrewCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Credentials) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialType(type).properties;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		return new StoredCredentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
	}

	/** As n8n's applyDefaultsAndOverwrites: the stored data with the credential's defaults filled in. */
	async getDecrypted(
		_: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		if (nodeCredentials.id !== CREDENTIAL_ID)
			throw new UnexpectedError(`No credential with ID ${String(nodeCredentials.id)}`);
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			{ ...this.data },
			true,
			false,
			null,
			null,
		);
		return (withDefaults ?? {}) as ICredentialDataDecryptedObject;
	}

	/** As n8n's CredentialsHelper.authenticate for a generic (declarative) `authenticate`. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions &
			Record<string, Record<string, unknown> | undefined>;
		const { authenticate } = this.credentialType(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type !== 'generic') return requestOptions;
		if (!workflow || !node)
			throw new UnexpectedError(
				'Workflow and node are required for declarative credential authentication',
			);
		const resolve = (value: unknown) => {
			if (!isExpression(value)) return value;
			const resolved = workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
			return resolved ? String(resolved) : '';
		};
		requestOptions.headers ??= {};
		for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
			for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
				requestOptions[outerKey] ??= {};
				requestOptions[outerKey][String(resolve(key))] = resolve(value);
			}
		}
		return requestOptions;
	}

	/** CrewApi has no expirable property, so n8n would not pre-authenticate either. */
	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async updateCredentials(): Promise<void> {
		throw new UnexpectedError('The Crew credential is never updated by a run');
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new UnexpectedError('The Crew credential has no OAuth token');
	}

	private credentialType(type: string): ICredentialType {
		const credentialType = credentialTypes[type];
		if (!credentialType) throw new UnexpectedError(`Unknown credential type ${type}`);
		return credentialType;
	}
}
