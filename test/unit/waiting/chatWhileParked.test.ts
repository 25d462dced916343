import { chatWhileParked } from '../../../nodes/waiting/chatWhileParked';

describe('chatWhileParked', () => {
	it("is a text n8n's chat widget reads as a message that keeps its send button off, naming the crew", () => {
		const message = JSON.parse(chatWhileParked(['97eba64f-958c-40a0-b61c-625fe635a3c0']));
		expect(message).toEqual({
			type: 'with-buttons',
			text: 'The crew is working on it (kickoff ID 97eba64f-958c-40a0-b61c-625fe635a3c0). The answer comes here when it is done; you can write again then.',
			blockUserInput: true,
			buttons: [],
		});
	});

	it('counts the crews of a batch', () => {
		expect(JSON.parse(chatWhileParked(['a', 'b', 'c'])).text).toMatch(
			/^The 3 crews are working on it\./,
		);
	});
});
