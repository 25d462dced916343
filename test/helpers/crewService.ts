import { startCrewService } from '../crew-service';
import type { CrewService, CrewServiceOptions } from '../crew-service';

import type { Credentials } from './crewCredentialsHelper';

/** Distinctive tokens, so a search of any output for them means a leak. */
export const ORGANIZATION_TOKEN = 'org-tok-DISTINCTIVE-5f2c9a71e4';
export const USER_TOKEN = 'usr-tok-DISTINCTIVE-8b1d0e36c7';

const DEFAULT_INPUTS = [
	{ name: 'topic', required: true },
	{ name: 'audience', required: false },
];

/**
 * One reference crew service for a test file: started before its tests,
 * reset before each (runs, log, faults, options), closed after.
 */
export function useCrewService(options: CrewServiceOptions = {}) {
	const handle = {} as {
		service: CrewService;
		credentials: Credentials;
		userCredentials: Credentials;
	};
	beforeAll(async () => {
		handle.service = await startCrewService({
			durationMs: 300,
			...options,
			tokens: { organization: ORGANIZATION_TOKEN, user: USER_TOKEN },
		});
		handle.credentials = { baseUrl: handle.service.url, token: ORGANIZATION_TOKEN };
		handle.userCredentials = { baseUrl: handle.service.url, token: USER_TOKEN };
	});
	beforeEach(() => {
		handle.service.reset();
		handle.service.configure({
			inputs: DEFAULT_INPUTS,
			durationMs: 300,
			recordShape: 'contract',
			statusPaths: 'both',
			inputsShape: 'names',
			errorShape: 'documented',
			dialect: 'documented',
			plan: undefined,
			...options,
		});
	});
	afterAll(async () => {
		await handle.service.close();
	});
	return handle;
}
