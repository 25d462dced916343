// Resume's wait options by node version: what its wait stops (resumeStopSettings), and which
// options the panel shows (NodeHelpers.displayParameterPath, the editor's own check of an
// option inside a collection).
import { NodeHelpers } from 'n8n-workflow';
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { Crew } from '../../../../../nodes/Crew/Crew.node';
import { description as kickoffAndWaitDescription } from '../../../../../nodes/Crew/actions/crew/kickoffAndWait.operation';
import {
	description,
	resumeStopSettings,
	resumeWaitBy,
} from '../../../../../nodes/Crew/actions/crew/resume.operation';
import {
	HUMAN_IN_THE_LOOP_VERSION,
	RESUME_STOPS_VERSION,
} from '../../../../../nodes/versions/crewVersions';

describe('resumeStopSettings', () => {
	it('stops nothing before version 1.4, whatever the options say', () => {
		for (const typeVersion of [1, 1.1, 1.2, 1.3]) {
			expect(resumeStopSettings({}, typeVersion)).toEqual({
				stopAtTimeout: false,
				stopOnCancel: false,
			});
			expect(
				resumeStopSettings({ onTimeout: 'stopCrews', stopCrewsOnCancel: true }, typeVersion),
			).toEqual({ stopAtTimeout: false, stopOnCancel: false });
		}
	});

	it('from version 1.4 reads them as Kickoff and Wait does: stops on cancel by default, at the timeout when On Timeout says', () => {
		expect(RESUME_STOPS_VERSION).toBe(1.4);
		expect(resumeStopSettings({}, 1.4)).toEqual({ stopAtTimeout: false, stopOnCancel: true });
		expect(resumeStopSettings({ onTimeout: 'stopCrews' }, 1.4)).toEqual({
			stopAtTimeout: true,
			stopOnCancel: true,
		});
		expect(
			resumeStopSettings({ onTimeout: 'leaveRunning', stopCrewsOnCancel: false }, 1.4),
		).toEqual({ stopAtTimeout: false, stopOnCancel: false });
	});
});

describe("Resume's Options panel", () => {
	const nodeDescription = new Crew().description;
	const options = (properties: INodeProperties[]) =>
		properties.find((p) => p.name === 'options')?.options as INodeProperties[];
	const resumeOptions = options(description);

	/** The names of the options the editor offers in Resume's Options, for a node of `typeVersion`. */
	function shown(typeVersion: number, waitForResumedRun: boolean): string[] {
		const values = { resource: 'crew', operation: 'resume', waitForResumedRun, options: {} };
		return resumeOptions
			.filter((option) =>
				NodeHelpers.displayParameterPath(
					values,
					option,
					'options',
					{ typeVersion },
					nodeDescription,
				),
			)
			.map((option) => option.name);
	}

	it("is a version of the node, and the node's newest is the one after it", () => {
		expect(nodeDescription.version).toContain(RESUME_STOPS_VERSION);
		expect(nodeDescription.version).toContain(HUMAN_IN_THE_LOOP_VERSION);
		expect(nodeDescription.defaultVersion).toBe(HUMAN_IN_THE_LOOP_VERSION);
		expect(HUMAN_IN_THE_LOOP_VERSION).toBeGreaterThan(RESUME_STOPS_VERSION);
	});

	it('offers On Timeout and the cancel option with Wait for the Resumed Run from version 1.4 only', () => {
		const waitOptions = ['pollInterval', 'timeout'];
		const stopping = ['onTimeout', 'stopCrewsOnCancel'];
		expect(shown(1.4, true)).toEqual(expect.arrayContaining([...waitOptions, ...stopping]));
		expect(shown(1.3, true)).toEqual(expect.arrayContaining(waitOptions));
		expect(shown(1.3, true).filter((name) => stopping.includes(name))).toEqual([]);
		expect(
			shown(1.4, false).filter((name) => [...waitOptions, ...stopping].includes(name)),
		).toEqual([]);
	});

	it("gives On Timeout the choices and default of Kickoff and Wait's", () => {
		const onTimeout = (properties: INodeProperties[]) =>
			properties.find((p) => p.name === 'onTimeout');
		expect(onTimeout(resumeOptions)).toMatchObject({
			type: 'options',
			default: 'leaveRunning',
			options: onTimeout(options(kickoffAndWaitDescription))?.options,
		});
	});
});

describe('resumeWaitBy', () => {
	it('waits by callback only from version 1.5, and only when Wait By says so', () => {
		expect(resumeWaitBy('callback', 1.5)).toBe('callback');
		expect(resumeWaitBy('polling', 1.5)).toBe('polling');
		expect(resumeWaitBy(undefined, 1.5)).toBe('polling');
		for (const typeVersion of [1, 1.3, 1.4])
			expect(resumeWaitBy('callback', typeVersion)).toBe('polling');
	});
});

describe("Resume's Wait By in the panel", () => {
	const nodeDescription = new Crew().description;
	const stored = (typeVersion: number, values: INodeParameters) => {
		const node = {
			id: 'n',
			name: 'Crew',
			type: 'n8n-nodes-crewai.crew',
			typeVersion,
			position: [0, 0] as [number, number],
			parameters: values,
		};
		return (
			NodeHelpers.getNodeParameters(
				nodeDescription.properties,
				values,
				true,
				false,
				node,
				nodeDescription,
			) ?? {}
		);
	};
	const resumeOptions = nodeDescription.properties.filter(
		(p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('resume'),
	)[0].options as INodeProperties[];
	const shownOptions = (typeVersion: number, values: INodeParameters) =>
		resumeOptions
			.filter((option) =>
				NodeHelpers.displayParameterPath(
					{ resource: 'crew', operation: 'resume', options: {}, ...values },
					option,
					'options',
					{ typeVersion },
					nodeDescription,
				),
			)
			.map((option) => option.name);

	it('from version 1.5 offers Polling or Callback with Wait for the Resumed Run on, Polling first, as Kickoff and Wait does', () => {
		expect(
			stored(1.5, { resource: 'crew', operation: 'resume', waitForResumedRun: true }),
		).toMatchObject({ waitBy: 'polling' });
		expect(
			stored(1.5, { resource: 'crew', operation: 'resume', waitForResumedRun: false }),
		).not.toHaveProperty('waitBy');
		expect(
			stored(1.4, { resource: 'crew', operation: 'resume', waitForResumedRun: true }),
		).not.toHaveProperty('waitBy');
	});

	it('shows First Phase only when waiting by callback', () => {
		expect(shownOptions(1.5, { waitForResumedRun: true, waitBy: 'callback' })).toContain(
			'firstPhase',
		);
		expect(shownOptions(1.5, { waitForResumedRun: true, waitBy: 'polling' })).not.toContain(
			'firstPhase',
		);
		expect(shownOptions(1.4, { waitForResumedRun: true, waitBy: 'callback' })).not.toContain(
			'firstPhase',
		);
	});
});
