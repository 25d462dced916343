import { DateTime } from 'luxon';

import { buildKickoffBody, buildResumeBody, findMissingInputs, readResumedRunId, InvalidParameterError, parseJsonObject, toInputText, toWireInputs } from '../../nodes/records/kickoffBody';

describe('parseJsonObject', () => {
	it('accepts a JSON string, an object, and empty values', () => {
		expect(parseJsonObject('{"topic":"AI"}', 'Inputs')).toEqual({ topic: 'AI' });
		expect(parseJsonObject({ topic: 'AI' }, 'Inputs')).toEqual({ topic: 'AI' });
		expect(parseJsonObject('', 'Inputs')).toEqual({});
		expect(parseJsonObject(undefined, 'Inputs')).toEqual({});
	});

	it.each([
		['invalid JSON', '{topic: AI}', /not valid JSON/],
		['an array', '[1, 2]', /must be a JSON object, not an array/],
		['a scalar', '42', /not a number/],
		['a JSON null', 'null', /not null/],
		['a number value', 7, /not a number/],
	])('rejects %s with a message naming the problem', (_, value, message) => {
		expect(() => parseJsonObject(value, 'Inputs (JSON)')).toThrow(InvalidParameterError);
		expect(() => parseJsonObject(value, 'Inputs (JSON)')).toThrow(message);
	});
});

describe('toInputText: the conversion rules', () => {
	it.each([
		['a string', 'text', 'text'],
		['a number', 3.5, '3.5'],
		['zero', 0, '0'],
		['a boolean', false, 'false'],
		['a Date', new Date('2026-01-02T03:04:05.000Z'), '2026-01-02T03:04:05.000Z'],
		['an object', { a: [1, 'x'] }, '{"a":[1,"x"]}'],
		['an array', ['a', 'b'], '["a","b"]'],
	])('turns %s into text', (_, value, expected) => {
		expect(toInputText(value)).toBe(expected);
	});

	it('turns a Luxon DateTime (what n8n expressions give) into ISO 8601', () => {
		expect(toInputText(DateTime.fromISO('2026-01-02T03:04:05.000Z', { zone: 'utc' }))).toBe('2026-01-02T03:04:05.000Z');
	});

	it.each([null, undefined, ''])('leaves %p out', (value) => {
		expect(toInputText(value)).toBeUndefined();
	});

	it('converts a whole object, leaving out the empty values', () => {
		expect(toWireInputs({ topic: 'AI', pages: 3, draft: true, note: null, empty: '' })).toEqual({ topic: 'AI', pages: '3', draft: 'true' });
	});
});

describe('findMissingInputs', () => {
	it('names the required inputs without a value, in order', () => {
		expect(findMissingInputs(['topic', 'audience', 'tone'], { audience: 'devs', tone: '  ' })).toEqual(['topic', 'tone']);
	});
});

describe('buildKickoffBody', () => {
	it('sends only the inputs when no option is set', () => {
		expect(buildKickoffBody({ topic: 'AI' }, {})).toEqual({ inputs: { topic: 'AI' } });
	});

	it('adds meta (string or object) and the webhook URLs, trimmed', () => {
		expect(
			buildKickoffBody(
				{ topic: 'AI' },
				{ meta: '{"run": 1}', taskWebhookUrl: ' https://h/task ', stepWebhookUrl: '', crewWebhookUrl: 'https://h/crew' },
			),
		).toEqual({ inputs: { topic: 'AI' }, meta: { run: 1 }, taskWebhookUrl: 'https://h/task', crewWebhookUrl: 'https://h/crew' });
		expect(buildKickoffBody({}, { meta: { run: 2 } })).toEqual({ inputs: {}, meta: { run: 2 } });
	});

	it('rejects a meta that is not an object', () => {
		expect(() => buildKickoffBody({}, { meta: '[1]' })).toThrow(/Meta must be a JSON object/);
	});
});

describe('the webhook secret', () => {
	it('travels in meta, beside the user\'s own meta', () => {
		expect(buildKickoffBody({}, { meta: '{"run": 1}', webhookSecret: ' s3cret ' })).toEqual({ inputs: {}, meta: { run: 1, webhook_secret: 's3cret' } });
	});
});

describe('buildResumeBody', () => {
	it('sends every field in both spellings (the documents\' snake_case, the live service\'s camelCase), and the webhook URLs again', () => {
		expect(
			buildResumeBody({ kickoffId: 'k1', taskId: 'research_task', humanFeedback: 'Looks good', isApprove: false, crewWebhookUrl: 'https://h/crew', taskWebhookUrl: '', humanInputWebhookUrl: ' https://h/human ' }),
		).toEqual({
			executionId: 'k1',
			execution_id: 'k1',
			taskId: 'research_task',
			task_id: 'research_task',
			humanFeedback: 'Looks good',
			human_feedback: 'Looks good',
			isApprove: false,
			is_approve: false,
			crewWebhookUrl: 'https://h/crew',
			humanInputWebhookUrl: 'https://h/human',
		});
		expect(buildResumeBody({ kickoffId: 'k1', taskId: 't', humanFeedback: '', isApprove: true, humanInputWebhookUrl: '  ' })).not.toHaveProperty('humanInputWebhookUrl');
	});
});

describe('readResumedRunId', () => {
	it('reads the live answer\'s new kickoff id; the documented answer names none', () => {
		expect(readResumedRunId({ kickoff_id: 'new-1' })).toBe('new-1');
		expect(readResumedRunId({ kickoffId: ' new-2 ' })).toBe('new-2');
		for (const answer of [{ status: 'resumed', message: 'Execution resumed successfully' }, { kickoff_id: '' }, { kickoff_id: 7 }, 'text', null]) {
			expect(readResumedRunId(answer)).toBeUndefined();
		}
	});
});
