import { getCrewInputs } from '../../nodes/Crew/methods/resourceMapping';
import { useCrewService } from '../helpers/crewService';
import { crewLoadOptionsContext } from '../helpers/crewWorkflow';
import type { Credentials } from '../helpers/crewWorkflow';
import { logsOutsideRuns } from '../helpers/n8nEngine';
import { assertTokenHidden } from '../helpers/tokenHygiene';

const crew = useCrewService();

/** What the editor does on opening or refreshing the mapped inputs: n8n-core's load-options context calls the method. */
async function loadFields(credentials: Credentials) {
	try {
		return await getCrewInputs.call(
			crewLoadOptionsContext({ operation: 'kickoffAndWait', inputsMode: 'map' }, credentials),
		);
	} finally {
		assertTokenHidden(credentials.token, 'logs', logsOutsideRuns.join('\n'));
	}
}

describe("the editor's input fields (resource mapping)", () => {
	it('makes one required text field per name in the documented answer', async () => {
		crew.service.configure({ inputs: [{ name: 'budget' }, { name: 'travel dates' }] });
		expect((await loadFields(crew.credentials)).fields).toEqual([
			{
				id: 'budget',
				displayName: 'budget',
				required: true,
				defaultMatch: false,
				display: true,
				type: 'string',
				canBeUsedToMatch: false,
			},
			{
				id: 'travel dates',
				displayName: 'travel dates',
				required: true,
				defaultMatch: false,
				display: true,
				type: 'string',
				canBeUsedToMatch: false,
			},
		]);
	});

	it('keeps the type and required flag the answer with objects gives', async () => {
		crew.service.configure({
			inputsShape: 'objects',
			inputs: [
				{ name: 'topic', type: 'string', required: true },
				{ name: 'age', type: 'integer', required: false },
				{ name: 'when', type: 'datetime' },
			],
		});
		const { fields } = await loadFields(crew.credentials);
		expect(fields.map((field) => [field.id, field.type, field.required])).toEqual([
			['topic', 'string', true],
			['age', 'number', false],
			['when', 'dateTime', true],
		]);
	});

	it('shows why when the service refuses, instead of an empty list', async () => {
		// n8n's editor drops an error a resource-mapping method throws, so the reason comes back as the notice it shows.
		const answer = await loadFields({ ...crew.credentials, token: 'reset-token-1' });
		expect(answer.fields).toEqual([]);
		expect(answer.emptyFieldsNotice).toMatch(
			/answered 401 while reading the crew(&#39;|')s inputs/,
		);
		expect(answer.emptyFieldsNotice).toMatch(/Status tab/);
		expect(JSON.stringify(answer)).not.toContain('reset-token-1');
	});

	it('asks the service again on every refresh', async () => {
		await loadFields(crew.credentials);
		crew.service.configure({ inputs: [{ name: 'renamed' }] });
		expect((await loadFields(crew.credentials)).fields.map((field) => field.id)).toEqual([
			'renamed',
		]);
		expect(crew.service.count('inputs')).toBe(2);
	});
});
