import { isConversationalFlow } from '../../../nodes/chat/capability';

describe('isConversationalFlow', () => {
	it('needs flow.chat.conversational and handle_turn both true', () => {
		expect(
			isConversationalFlow({ flow: { chat: { conversational: true, handle_turn: true } } }),
		).toBe(true);
		expect(
			isConversationalFlow({ flow: { chat: { conversational: true, handle_turn: false } } }),
		).toBe(false);
		expect(
			isConversationalFlow({ flow: { chat: { conversational: 'true', handle_turn: true } } }),
		).toBe(false);
		expect(isConversationalFlow({ flow: {} })).toBe(false);
		expect(isConversationalFlow('Not Found')).toBe(false);
	});
});
