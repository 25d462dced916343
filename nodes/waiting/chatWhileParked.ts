/**
 * What n8n's chat shows while an execution started by a Chat Trigger ("Using Response Nodes")
 * waits at a Crew node for its crews to call back. n8n's chat sends a waiting node's first
 * output item's `sendMessage` to the person once; its chat widget reads a JSON text of type
 * `with-buttons` as a message whose `blockUserInput` keeps its send button off until the
 * next message (the crew's answer, or a Chat node's question). So the person learns that the
 * crew is working, and cannot send a message meanwhile: n8n 2.x would refuse it with only a log
 * line, and n8n 1.x would take it for the crew's answer (docs/development.md, "The chat while a
 * crew works"). A text, not an object: n8n 1.x sends the field to the socket as it is. Pure.
 */
export function chatWhileParked(kickoffIds: readonly string[]): string {
	const working =
		kickoffIds.length === 1
			? `The crew is working on it (kickoff ID ${kickoffIds[0]}).`
			: `The ${kickoffIds.length} crews are working on it.`;
	const text = `${working} The answer comes here when it is done; you can write again then.`;
	return JSON.stringify({ type: 'with-buttons', text, blockUserInput: true, buttons: [] });
}
