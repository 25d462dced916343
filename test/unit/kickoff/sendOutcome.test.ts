import { failedSend, unansweredSend } from '../../../nodes/kickoff/sendOutcome';
import type { CrewAnswer } from '../../../nodes/transport/answers';

describe('a kickoff that got no kickoff ID', () => {
	const http = (statusCode: number, body?: unknown): CrewAnswer => ({
		kind: 'http',
		statusCode,
		body,
	});
	const network = (code: string, message = 'socket hang up'): CrewAnswer => ({
		kind: 'network',
		code,
		message,
	});

	it.each<[string, CrewAnswer, boolean, string | undefined]>([
		[
			'a connection refused',
			network('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'),
			false,
			undefined,
		],
		['a name that does not resolve', network('ENOTFOUND'), false, undefined],
		['a DNS failure to retry', network('EAI_AGAIN'), false, undefined],
		['a multipart body cut off while written', network('EPIPE', 'write EPIPE'), true, undefined],
		['a refusal (422)', http(422, { detail: 'Missing inputs: topic' }), false, undefined],
		['a rate limit (429)', http(429), false, undefined],
		[
			'a 504 from a proxy',
			http(504, { error: 'Gateway Timeout', message: 'upstream timed out' }),
			false,
			'504: Gateway Timeout: upstream timed out',
		],
		['a 500 with no body', http(500), false, '500'],
		['a 200 without kickoff_id', http(200, '<html></html>'), false, '200 without a kickoff_id'],
		[
			'a dropped connection',
			network('ECONNRESET'),
			false,
			'no answer (ECONNRESET: socket hang up)',
		],
		[
			'a read timeout',
			network('ECONNABORTED', 'timeout of 300000ms exceeded'),
			false,
			'no answer (ECONNABORTED: timeout of 300000ms exceeded)',
		],
		[
			"a JSON body's EPIPE (the service may have read it all)",
			network('EPIPE', 'write EPIPE'),
			false,
			'no answer (EPIPE: write EPIPE)',
		],
	])(
		'%s: the next try sends it again only when it cannot have started a crew',
		(_, answer, multipart, answered) => {
			expect(unansweredSend(answer, multipart)).toEqual(
				answered === undefined ? { sent: 'no' } : { sent: 'maybe', answered },
			);
		},
	);

	it('the failed outcome carries the error and whether a crew may have started', () => {
		const error = new Error('The crew service answered 504');
		expect(failedSend(error, http(504))).toEqual({
			kind: 'failed',
			error,
			sent: 'maybe',
			answered: '504',
		});
		expect(failedSend(error, http(422))).toEqual({ kind: 'failed', error, sent: 'no' });
	});
});
