import { extractFromAICalls } from 'n8n-workflow';

import { fromAiDefault, toolFieldDefault, toolParameterKey } from '../../nodes/Crew/methods/toolParameters';

describe('the tool parameter of a crew input', () => {
	it('is read by n8n as the input\'s name, a description and a type', () => {
		expect(extractFromAICalls(fromAiDefault('current_year', 'number'))).toEqual([
			{ key: 'current_year', description: 'The crew\'s input "current_year"', type: 'number', defaultValue: undefined },
		]);
		expect(extractFromAICalls(fromAiDefault('filters', 'object'))[0].type).toBe('json');
		expect(extractFromAICalls(fromAiDefault('topic'))[0].type).toBe('string');
	});

	it('carries n8n\'s mark of a value the model defines', () => {
		expect(fromAiDefault('topic')).toBe('={{ /*n8n-auto-generated-fromAI-override*/ $fromAI(\'topic\', \'The crew\\\'s input "topic"\', \'string\') }}');
	});

	it('gets a key n8n accepts from any input name', () => {
		expect(toolParameterKey('travel dates')).toBe('travel_dates');
		expect(toolParameterKey('été')).toBe('t');
		expect(toolParameterKey('***')).toBe('input');
		expect(toolParameterKey('x'.repeat(80))).toHaveLength(64);
		expect(extractFromAICalls(fromAiDefault('it\'s \\ odd'))[0]).toMatchObject({ key: 'it_s_odd', description: 'The crew\'s input "it\'s \\ odd"' });
	});

	it('starts empty fields as the model\'s, keeps the model\'s own, and leaves fixed values out', () => {
		expect(toolFieldDefault('topic', 'string', undefined)).toBe(fromAiDefault('topic', 'string'));
		expect(toolFieldDefault('topic', 'string', '')).toBe(fromAiDefault('topic', 'string'));
		const described = '={{ $fromAI(\'topic\', \'One subject\') }}';
		expect(toolFieldDefault('topic', 'string', described)).toBe(described);
		expect(toolFieldDefault('topic', 'string', 'tides')).toBeUndefined();
		expect(toolFieldDefault('topic', 'string', '={{ $json.topic }}')).toBeUndefined();
	});
});

describe('a flow field as an AI agent\'s tool parameter', () => {
	it('is optional text with an empty default (the one default n8n\'s schema takes as it is), its type told in the description', () => {
		expect(extractFromAICalls(fromAiDefault('topic', 'string', true))).toEqual([
			{ key: 'topic', description: 'The flow\'s state field "topic" (optional: leave it out to keep the flow\'s default)', type: 'string', defaultValue: '' },
		]);
		expect(extractFromAICalls(fromAiDefault('count', 'number', true))[0]).toMatchObject({ type: 'string', defaultValue: '', description: expect.stringContaining('"count", a number (optional') });
		expect(extractFromAICalls(fromAiDefault('history', 'array', true))[0]).toMatchObject({ type: 'string', defaultValue: '', description: expect.stringContaining('a JSON list such as ["a", "b"]') });
		expect(toolFieldDefault('history', 'array', undefined, true)).toBe(fromAiDefault('history', 'array', true));
		// A crew's stays required, as before.
		expect(extractFromAICalls(fromAiDefault('topic', 'string'))[0].defaultValue).toBeUndefined();
	});
});
