import { answerFeedback } from '../../../nodes/Crew/actions/feedbackRequest/answer.operation';
import {
	callbackHost,
	feedbackBody,
	interpretFeedbackAnswer,
	readCallbackUrl,
} from '../../../nodes/callbacksOut/feedbackAnswer';

const URL_WITH_TOKEN =
	'https://app.example.com/crewai_plus/api/v1/human_feedback_requests/r-1/respond?token=SECRET-TOKEN-123';

describe('answering a flow feedback request', () => {
	it('shows only the host of the callback URL', () => {
		expect(callbackHost(URL_WITH_TOKEN)).toBe('app.example.com');
		expect(callbackHost('not a url')).toBe('an invalid address');
	});
	it('refuses a callback URL that is not absolute without repeating it', () => {
		for (const value of ['app.example.com/respond?token=SECRET-TOKEN-123', '', undefined]) {
			let message = '';
			try {
				readCallbackUrl(value);
			} catch (error) {
				message = `${(error as Error).message} ${(error as { description: string }).description}`;
			}
			expect(message).toMatch(/^Callback URL is not an absolute http\(s\) URL/);
			expect(message).not.toContain('SECRET-TOKEN-123');
		}
	});
	it('takes https, and plain http only for a service on your own network, as the Base URL does; the refusal shows no part of the URL', () => {
		expect(readCallbackUrl(URL_WITH_TOKEN)).toBe(URL_WITH_TOKEN);
		for (const local of [
			'http://127.0.0.1:8787/respond?token=T',
			'http://10.1.2.3/respond?token=T',
			'http://crew-service:8787/respond?token=T',
			'http://[::1]:8080/respond?token=T',
		])
			expect(readCallbackUrl(local)).toBe(local);
		const publicHttp = URL_WITH_TOKEN.replace('https:', 'http:');
		let error: Error & { description?: string } = new Error('none');
		try {
			readCallbackUrl(publicHttp);
		} catch (thrown) {
			error = thrown as Error & { description?: string };
		}
		expect(error.message).toMatch(
			/^Callback URL must be an https:\/\/ address: http:\/\/ is taken only for a service on your own network/,
		);
		expect(error.description).toMatch(/Nothing was sent\.$/);
		expect(`${error.message} ${error.description}`).not.toMatch(
			/SECRET-TOKEN-123|app\.example\.com/,
		);
	});
	it('sends {feedback, source}; empty feedback is an error', () => {
		expect(feedbackBody(' approved ')).toEqual({ feedback: 'approved', source: 'n8n' });
		expect(() => feedbackBody('  ')).toThrow('Feedback is empty');
	});
	it('reads 200, 409, 401, 404 and other answers into results that name the host only', () => {
		expect(
			interpretFeedbackAnswer(
				200,
				{ status: 'accepted', request: { id: 'r-1', outcome: 'approved', responded_at: 't' } },
				'h',
			),
		).toEqual({
			ok: true,
			json: {
				answered: true,
				status: 'accepted',
				request_id: 'r-1',
				outcome: 'approved',
				responded_at: 't',
				callback_host: 'h',
			},
		});
		expect(interpretFeedbackAnswer(409, { error: 'already_responded' }, 'h')).toMatchObject({
			ok: false,
			message: 'This feedback request was already answered',
		});
		expect(interpretFeedbackAnswer(401, {}, 'h')).toMatchObject({
			ok: false,
			message: "h refused the callback URL's token (401)",
		});
		expect(interpretFeedbackAnswer(404, {}, 'h')).toMatchObject({
			ok: false,
			message: 'h knows no such feedback request (404)',
		});
		expect(interpretFeedbackAnswer(502, 'Bad gateway', 'h')).toMatchObject({
			ok: false,
			message: 'h answered 502 to the feedback',
		});
		expect(interpretFeedbackAnswer(307, '', 'h')).toMatchObject({
			ok: false,
			message: 'h answered 307, a redirect, which the node does not follow',
		});
	});
	it('posts once, and a network failure names the host and code, not the URL the client error carries', async () => {
		const calls: string[] = [];
		const result = await answerFeedback(
			async (url) => {
				calls.push(url);
				throw Object.assign(new Error(`connect ECONNREFUSED for ${url}`), { code: 'ECONNREFUSED' });
			},
			URL_WITH_TOKEN,
			'approved',
		);
		expect(calls).toEqual([URL_WITH_TOKEN]);
		expect(result).toMatchObject({
			ok: false,
			message: 'The feedback could not be sent to app.example.com (ECONNREFUSED)',
		});
		expect(JSON.stringify(result)).not.toContain('SECRET-TOKEN-123');
	});
});
