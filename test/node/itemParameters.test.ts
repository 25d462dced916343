/**
 * The harness's per-item parameters: values that differ by item become an
 * expression n8n evaluates for each item, the rest stay fixed values.
 */
import { useCrewService } from '../helpers/crewService';
import { items, parametersForItems, runCrewNode } from '../helpers/crewWorkflow';

const crew = useCrewService();

describe('parameters that differ by item', () => {
	it('become a $itemIndex expression only where they differ', () => {
		const parameters = parametersForItems(
			(itemIndex) => ({ operation: 'kickoff', options: { meta: '{}', n: itemIndex } }),
			2,
		);
		expect(parameters).toEqual({
			operation: 'kickoff',
			options: {
				meta: '{}',
				n: expect.stringMatching(/^={{ JSON.parse\(".*"\)\[\$itemIndex\] }}$/),
			},
		});
	});

	it('stay fixed values when given for every item', () => {
		const fixed = { operation: 'getInputs' };
		expect(parametersForItems(fixed, 3)).toBe(fixed);
	});

	it("reach the node item by item through n8n's expressions, braces and quotes included", async () => {
		const inputsByItem = [
			{ topic: 'a }} b' },
			{ topic: '{{ not an expression }}', deep: { x: { y: 1 } } },
			{ topic: 'say "hi"' },
		];
		await runCrewNode({
			parameters: (itemIndex) => ({
				operation: 'kickoff',
				inputsMode: 'json',
				inputsJson: inputsByItem[itemIndex],
			}),
			credentials: crew.credentials,
			items: items(3),
		});
		expect(crew.service.runs.map((run) => run.inputs)).toEqual([
			{ topic: 'a }} b' },
			{ topic: '{{ not an expression }}', deep: '{"x":{"y":1}}' },
			{ topic: 'say "hi"' },
		]);
	});
});
