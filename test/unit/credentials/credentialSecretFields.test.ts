import { CREDENTIAL_SECRET_FIELDS } from '../../../nodes/transport';
import { CREDENTIAL_PASSWORD_FIELDS } from '../../helpers/tokenHygiene';

describe("the Crew API credential's secrets, as the node hides them", () => {
	it('are exactly its password fields: a new secret field is hidden as soon as it is added', () => {
		expect([...CREDENTIAL_SECRET_FIELDS].sort()).toEqual([...CREDENTIAL_PASSWORD_FIELDS].sort());
	});
});
