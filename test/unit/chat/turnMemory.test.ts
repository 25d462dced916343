import type { IDataObject } from 'n8n-workflow';

import { rememberSending, sentEarlier, sentMessageKey } from '../../../nodes/chat/turnMemory';

describe('turnMemory: what this execution sent, per run of the node and item', () => {
	it('gives an earlier try the message it sent to the same flow session, and nothing for another session, item or run', () => {
		const nodeContext: IDataObject = {};
		rememberSending(nodeContext, sentMessageKey(0, 1), 'session-A', { position: 3 });
		expect(sentEarlier(nodeContext, sentMessageKey(0, 1), 'session-A')).toEqual({ position: 3 });
		expect(sentEarlier(nodeContext, sentMessageKey(0, 1), 'session-B')).toBeUndefined();
		expect(sentEarlier(nodeContext, sentMessageKey(0, 0), 'session-A')).toBeUndefined();
		expect(sentEarlier(nodeContext, sentMessageKey(1, 1), 'session-A')).toBeUndefined();
		// A new execution starts with an empty node context: nothing was sent by it.
		expect(sentEarlier({}, sentMessageKey(0, 1), 'session-A')).toBeUndefined();
	});

	it('keeps the latest send of an item, in a plain object n8n saves with the execution', () => {
		const nodeContext: IDataObject = {};
		rememberSending(nodeContext, '0:0', 'session-A', { position: 0 });
		rememberSending(nodeContext, '0:0', 'session-B', { position: 0 });
		expect(sentEarlier(nodeContext, '0:0', 'session-B')).toEqual({ position: 0 });
		expect(JSON.parse(JSON.stringify(nodeContext))).toEqual({
			chatMessagesSent: { '0:0': { sessionId: 'session-B', position: 0 } },
		});
	});
});
