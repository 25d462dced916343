import { InvalidParameterError } from '../../../nodes/records/invalidParameter';
import { buildKickoffBody, readRestoreFromStateId } from '../../../nodes/records/kickoffBody';

const STATE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('buildKickoffBody', () => {
	it('sends only the inputs when no option is set', () => {
		expect(buildKickoffBody({ topic: 'AI' }, {})).toEqual({ inputs: { topic: 'AI' } });
	});

	it('adds meta (string or object) and the webhook URLs, trimmed', () => {
		expect(
			buildKickoffBody(
				{ topic: 'AI' },
				{
					meta: '{"run": 1}',
					taskWebhookUrl: ' https://h/task ',
					stepWebhookUrl: '',
					crewWebhookUrl: 'https://h/crew',
				},
			),
		).toEqual({
			inputs: { topic: 'AI' },
			meta: { run: 1 },
			taskWebhookUrl: 'https://h/task',
			crewWebhookUrl: 'https://h/crew',
		});
		expect(buildKickoffBody({}, { meta: { run: 2 } })).toEqual({ inputs: {}, meta: { run: 2 } });
	});

	it('rejects a meta that is not an object', () => {
		expect(() => buildKickoffBody({}, { meta: '[1]' })).toThrow(/Meta must be a JSON object/);
	});
});

describe('the webhook secret', () => {
	it("travels in meta, beside the user's own meta", () => {
		expect(buildKickoffBody({}, { meta: '{"run": 1}', webhookSecret: ' s3cret ' })).toEqual({
			inputs: {},
			meta: { run: 1, webhook_secret: 's3cret' },
		});
	});
});

describe('readRestoreFromStateId', () => {
	it('gives the trimmed id, and undefined for empty, null or absent', () => {
		expect(readRestoreFromStateId(`  ${STATE_ID}\n`)).toBe(STATE_ID);
		expect([undefined, null, '', '   '].map(readRestoreFromStateId)).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
		]);
	});

	it('refuses anything else naming the option, showing the value, and saying nothing was sent', () => {
		const refusal = (value: unknown) => {
			try {
				readRestoreFromStateId(value);
			} catch (error) {
				return error as InvalidParameterError;
			}
			throw new Error(`accepted ${String(value)}`);
		};
		const text = refusal('test 1');
		expect(text).toBeInstanceOf(InvalidParameterError);
		expect(text.message).toBe('Restore From State ID is not a UUID: "test 1"');
		expect(text.description).toMatch(/UUID such as .*No request was sent for this item\.$/);
		expect(refusal(42).message).toBe('Restore From State ID is not a UUID: a number');
		expect(refusal({ id: STATE_ID }).message).toBe(
			'Restore From State ID is not a UUID: an object',
		);
		expect(refusal('x'.repeat(500)).message.length).toBeLessThan(140);
	});
});

describe('buildKickoffBody with Restore From State ID', () => {
	it('sends the id at the top level beside inputs, never inside them', () => {
		expect(buildKickoffBody({ topic: 'AI' }, { restoreFromStateId: STATE_ID })).toEqual({
			inputs: { topic: 'AI' },
			restoreFromStateId: STATE_ID,
		});
	});

	it("leaves it out when empty, and sends an input named id as given (the user's data)", () => {
		expect(buildKickoffBody({ id: 'test 1' }, { restoreFromStateId: '' })).toEqual({
			inputs: { id: 'test 1' },
		});
	});

	it('throws for an invalid id before building anything', () => {
		expect(() => buildKickoffBody({}, { restoreFromStateId: 'last run' })).toThrow(
			InvalidParameterError,
		);
	});
});
