/**
 * Conversation → Send Message as an AI agent's tool: the model writes the message
 * (the tool variant's Message default is n8n's "defined by the model" $fromAI) and
 * reads a short answer; errors carry what to do in their message.
 */
import type { INodeParameters } from 'n8n-workflow';

import { Crew } from '../../nodes/Crew/Crew.node';
import { useCrewService } from '../helpers/crewService';
import { callCrewTool, callCrewToolThroughEngine } from '../helpers/crewTool';

const crew = useCrewService({ chat: {} });

/** The Message default n8n's editor gives the node in its tool variant (displayOptions '@tool'). */
const toolMessageDefault = () => {
	const property = new Crew().description.properties.find(
		(p) => p.name === 'message' && p.displayOptions?.show?.['@tool']?.[0] === true,
	);
	return property?.default as string;
};

const toolParameters = (): INodeParameters => ({
	resource: 'conversation',
	operation: 'sendMessage',
	message: toolMessageDefault(),
	conversationKey: 'agent-conversation',
	conversationOptions: { timeout: 20 },
});

beforeEach(() => crew.service.configure({ chat: {} }));

describe("Send Message as an AI agent's tool", () => {
	it('offers the model one parameter, the message, and answers with the reply, the session and the frame count', async () => {
		const { parameters, answers } = await callCrewTool(toolParameters(), crew.credentials, [
			{ message: 'What can you do?' },
		]);
		expect(parameters).toEqual({
			message: {
				type: 'string',
				description: 'The message to send to the conversational flow',
				required: true,
			},
		});
		const [item] = JSON.parse(answers[0].answer as string);
		expect(item).toEqual({
			output: 'Reply 1 to "What can you do?": this session has 1 message from you.',
			flow_session_id: crew.service.chatSessions[0].id,
			frame_count: 17,
		});
	});

	it('a non-conversational deployment: the model reads what to do in the message', async () => {
		crew.service.configure({ chat: null });
		const { outputs } = await callCrewToolThroughEngine(toolParameters(), crew.credentials, [
			{ message: 'Hello' },
		]);
		expect(outputs).toEqual([
			[
				{
					error: expect.stringMatching(
						/^This deployment is not a conversational flow; use Kickoff\. .*Kickoff and Wait/,
					),
				},
			],
		]);
		expect(crew.service.requests.map((entry) => entry.route)).toEqual(['inspect']);
	});

	it("a failing turn: the flow's reason and what to do in the message", async () => {
		crew.service.configure({ chat: { failTurn: 'the knowledge base is offline' } });
		const { outputs } = await callCrewToolThroughEngine(toolParameters(), crew.credentials, [
			{ message: 'Hello' },
		]);
		expect(outputs).toEqual([
			[
				{
					error: expect.stringMatching(/the knowledge base is offline\. .*send the message again/),
				},
			],
		]);
	});
});
