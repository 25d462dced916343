// The Send Files fields as the editor shows them, by node version (NodeHelpers.getNodeParameters, what
// n8n stores for a node): from 1.5 a switch that starts off, earlier the mode and the Files list.
import { NodeHelpers } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import { Crew } from '../../../../../nodes/Crew/Crew.node';

const { description } = new Crew();

/** What n8n keeps of a Crew node of `typeVersion` with `values` set: the parameters shown, with their defaults. */
function stored(typeVersion: number, values: INodeParameters): INodeParameters {
	const node = {
		id: 'n',
		name: 'Crew',
		type: 'n8n-nodes-crewai.crew',
		typeVersion,
		position: [0, 0] as [number, number],
		parameters: values,
	};
	return (
		NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ??
		{}
	);
}

describe('Send Files in the panel', () => {
	it('from version 1.5 opens with the switch off: no mode, no Files list', () => {
		for (const operation of ['kickoff', 'kickoffAndWait']) {
			const parameters = stored(1.5, { resource: 'crew', operation });
			expect(parameters.withFiles).toBe(false);
			expect(parameters).not.toHaveProperty('sendFiles');
			expect(parameters).not.toHaveProperty('files');
			expect(parameters).not.toHaveProperty('fileUrls');
		}
	});

	it('from version 1.5, turned on, shows How to Send (With the Kickoff first) and the list it asks for', () => {
		expect(stored(1.5, { resource: 'crew', operation: 'kickoff', withFiles: true })).toMatchObject({
			withFiles: true,
			sendFiles: 'multipart',
			files: {},
		});
		const urls = stored(1.5, {
			resource: 'crew',
			operation: 'kickoff',
			withFiles: true,
			sendFiles: 'urls',
		});
		expect(urls).toMatchObject({ sendFiles: 'urls', fileUrls: {} });
		expect(urls).not.toHaveProperty('files');
	});

	it('before version 1.5 opens as it always did: Send Files With the Kickoff and an empty Files list, no switch', () => {
		for (const typeVersion of [1, 1.2, 1.4]) {
			const parameters = stored(typeVersion, { resource: 'crew', operation: 'kickoff' });
			expect(parameters).toMatchObject({ sendFiles: 'multipart', files: {} });
			expect(parameters).not.toHaveProperty('withFiles');
		}
	});

	it('shows no file fields for the operations that start nothing', () => {
		for (const operation of ['getStatus', 'resume', 'stop']) {
			const parameters = stored(1.5, { resource: 'crew', operation });
			expect(
				['withFiles', 'sendFiles', 'files', 'fileUrls'].filter((name) => name in parameters),
			).toEqual([]);
		}
	});
});
