import { extractFromAICalls } from 'n8n-workflow';

import {
	fromAiDefault,
	toolFieldDefault,
	toolParameterDescription,
	toolParameterKey,
} from '../../../../nodes/Crew/methods/toolParameters';

/**
 * The description n8n's editor shows in the panel of a value the model defines: its
 * parseOverrides (n8n-editor-ui, focusPanel store, the same in 1.123.81 and 2.41.1) turns every
 * backslash and the character after it, unless that is a backtick, into two backslashes, then
 * reads the call with n8n-workflow's extractFromAICalls.
 */
function editorShows(value: string): string | undefined {
	const calls = extractFromAICalls(value.replace(/\\[^`]/g, '\\\\'));
	return calls.length === 1 ? calls[0].description : undefined;
}

/** The description the model gets: n8n-core builds the tool's schema with extractFromAICalls. */
const modelGets = (value: string) => extractFromAICalls(value)[0].description;

describe('the tool parameter of a crew input', () => {
	it("is read by n8n as the input's name, a description and a type", () => {
		expect(extractFromAICalls(fromAiDefault('current_year', 'number'))).toEqual([
			{
				key: 'current_year',
				description: 'The crew\'s input "current_year"',
				type: 'number',
				defaultValue: undefined,
			},
		]);
		expect(extractFromAICalls(fromAiDefault('filters', 'object'))[0].type).toBe('json');
		expect(extractFromAICalls(fromAiDefault('topic'))[0].type).toBe('string');
	});

	it("carries n8n's mark of a value the model defines, its description in backticks as n8n writes its own", () => {
		expect(fromAiDefault('topic')).toBe(
			"={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('topic', `The crew's input \"topic\"`, 'string') }}",
		);
	});

	it("reads the same in the editor's panel as the model gets it, without escape marks", () => {
		for (const [name, optional] of [
			['topic', false],
			['topic', true],
			['it\'s `odd` \\ "x"', false],
			['a ${b}', true],
		] as const) {
			const value = fromAiDefault(name, 'string', optional);
			expect(editorShows(value)).toBe(modelGets(value));
		}
		expect(editorShows(fromAiDefault('topic'))).toBe('The crew\'s input "topic"');
		expect(editorShows(fromAiDefault('topic', 'array', true))).toBe(
			toolParameterDescription('topic', true, 'array'),
		);
		expect(editorShows(fromAiDefault('it\'s `odd` \\ "x"'))).toBe(
			'The crew\'s input "it\'s `odd` \\ "x""',
		);
		expect(editorShows(fromAiDefault('a ${b}'))).toBe('The crew\'s input "a $ {b}"');
	});

	it('gets a key n8n accepts from any input name', () => {
		expect(toolParameterKey('travel dates')).toBe('travel_dates');
		expect(toolParameterKey('été')).toBe('t');
		expect(toolParameterKey('***')).toBe('input');
		expect(toolParameterKey('x'.repeat(80))).toHaveLength(64);
		expect(extractFromAICalls(fromAiDefault("it's \\ odd"))[0]).toMatchObject({
			key: 'it_s_odd',
			description: 'The crew\'s input "it\'s \\ odd"',
		});
	});

	it("starts empty fields as the model's, keeps the model's own, and leaves fixed values out", () => {
		expect(toolFieldDefault('topic', 'string', undefined)).toBe(fromAiDefault('topic', 'string'));
		expect(toolFieldDefault('topic', 'string', '')).toBe(fromAiDefault('topic', 'string'));
		const described = "={{ $fromAI('topic', 'One subject') }}";
		expect(toolFieldDefault('topic', 'string', described)).toBe(described);
		expect(toolFieldDefault('topic', 'string', 'tides')).toBeUndefined();
		expect(toolFieldDefault('topic', 'string', '={{ $json.topic }}')).toBeUndefined();
	});

	it('writes anew the single-quoted starting value of earlier versions, which the panel showed as "crew\\s"', () => {
		const marker = '/*n8n-auto-generated-fromAI-override*/';
		const earlier = `={{ ${marker} $fromAI('topic', 'The crew\\'s input "topic"', 'string') }}`;
		const earlierFlow = `={{ ${marker} $fromAI('count', 'The flow\\'s state field "count", a number (optional: leave it out to keep the flow\\'s default)', 'string', '') }}`;
		expect(editorShows(earlier)).toBe('The crew\\s input "topic"');
		expect(toolFieldDefault('topic', 'string', earlier)).toBe(fromAiDefault('topic', 'string'));
		expect(toolFieldDefault('count', 'number', earlierFlow, true)).toBe(
			fromAiDefault('count', 'number', true),
		);
		const edited = `={{ ${marker} $fromAI('topic', 'The subject, in the user\\'s words', 'string') }}`;
		expect(toolFieldDefault('topic', 'string', edited)).toBe(edited);
	});
});

describe("a flow field as an AI agent's tool parameter", () => {
	it("is optional text with an empty default (the one default n8n's schema takes as it is), its type told in the description", () => {
		expect(extractFromAICalls(fromAiDefault('topic', 'string', true))).toEqual([
			{
				key: 'topic',
				description:
					'The flow\'s state field "topic" (optional: leave it out to keep the flow\'s default)',
				type: 'string',
				defaultValue: '',
			},
		]);
		expect(extractFromAICalls(fromAiDefault('count', 'number', true))[0]).toMatchObject({
			type: 'string',
			defaultValue: '',
			description: expect.stringContaining('"count", a number (optional'),
		});
		expect(extractFromAICalls(fromAiDefault('history', 'array', true))[0]).toMatchObject({
			type: 'string',
			defaultValue: '',
			description: expect.stringContaining('a JSON list such as ["a", "b"]'),
		});
		expect(toolFieldDefault('history', 'array', undefined, true)).toBe(
			fromAiDefault('history', 'array', true),
		);
		// A crew's stays required, as before.
		expect(extractFromAICalls(fromAiDefault('topic', 'string'))[0].defaultValue).toBeUndefined();
	});
});
