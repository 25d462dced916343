import { CrewApi } from '../../../credentials/CrewApi.credentials';
import { CREDENTIAL_SECRET_FIELDS } from '../../../nodes/transport';

describe('the Crew API credential\'s secrets, as the node hides them', () => {
	it('are exactly its password fields: a new secret field is hidden as soon as it is added', () => {
		const passwordFields = new CrewApi().properties.filter((property) => property.typeOptions?.password === true).map((property) => property.name);
		expect([...CREDENTIAL_SECRET_FIELDS].sort()).toEqual(passwordFields.sort());
	});
});
