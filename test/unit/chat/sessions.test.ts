import type { IDataObject } from 'n8n-workflow';

import { findSession, keepSession, MAX_KEPT_SESSIONS } from '../../../nodes/chat/sessions';

describe('kept sessions', () => {
	it('one session per conversation key and Base URL', () => {
		const staticData: IDataObject = {};
		keepSession(staticData, 'chat-A', { sessionId: 's-1', baseUrl: 'https://a', usedAt: 1 });
		expect(findSession(staticData, 'chat-A', 'https://a')).toBe('s-1');
		expect(findSession(staticData, 'chat-A', 'https://b')).toBeUndefined();
		expect(findSession(staticData, 'chat-B', 'https://a')).toBeUndefined();
	});

	it('drops the least recently used beyond the limit', () => {
		const staticData: IDataObject = {};
		for (let i = 0; i <= MAX_KEPT_SESSIONS; i++)
			keepSession(staticData, `chat-${i}`, {
				sessionId: `s-${i}`,
				baseUrl: 'u',
				usedAt: i === 0 ? 5000 : i,
			});
		expect(findSession(staticData, 'chat-0', 'u')).toBe('s-0');
		expect(findSession(staticData, 'chat-1', 'u')).toBeUndefined();
		expect(Object.keys(staticData.conversationSessions as IDataObject)).toHaveLength(
			MAX_KEPT_SESSIONS,
		);
	});

	it('ignores what it did not write', () => {
		expect(findSession({ conversationSessions: 'x' }, 'a', 'u')).toBeUndefined();
		expect(findSession({ conversationSessions: { a: 'x' } }, 'a', 'u')).toBeUndefined();
	});
});
