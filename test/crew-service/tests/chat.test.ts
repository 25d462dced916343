import type { CrewService } from '..';
import { call } from './client';
import { closedAfterEach } from './crewServiceTesting';

// The reference service's conversational flow (test/crew-service/chatApi.js), over raw HTTP.

const start = closedAfterEach();

/** The whole SSE response of an attach: its `id:` lines and data. */
async function attach(service: CrewService, sessionId: string, lastEventId = '0-0') {
	const answer = await call(
		service,
		'GET',
		`/chat/${sessionId}/stream/events?events=*&last_event_id=${lastEventId}`,
	);
	const frames = answer.text
		.split('\n\n')
		.map((block) => ({
			id: /^id: (.*)$/m.exec(block)?.[1],
			data: /^data: (.*)$/m.exec(block)?.[1],
		}))
		.filter((f) => f.data !== undefined)
		.map((f) => ({ id: f.id, ...JSON.parse(f.data as string) }));
	return { ...answer, frames };
}

async function newSession(service: CrewService): Promise<string> {
	const started = await call(service, 'POST', '/chat/start', { body: {} });
	expect(started.status).toBe(200);
	return started.json.session_id;
}

describe('reference service: a conversational flow', () => {
	it('without chat (a crew): /inspect is 404; with it, flow.chat reports a conversational flow', async () => {
		const service = await start();
		expect((await call(service, 'GET', '/inspect')).status).toBe(404);
		service.configure({ chat: {} });
		expect((await call(service, 'GET', '/inspect')).json).toEqual({
			flow: { name: 'SupportFlow', chat: { conversational: true, handle_turn: true } },
		});
		service.configure({ chat: { conversational: false } });
		expect((await call(service, 'GET', '/inspect')).json.flow.chat).toEqual({
			conversational: false,
			handle_turn: false,
		});
		expect((await call(service, 'POST', '/chat/start', { body: {} })).status).toBe(404);
	});

	it('every chat route needs the bearer token', async () => {
		const service = await start({ chat: {} });
		expect((await call(service, 'GET', '/inspect', { token: 'wrong' })).status).toBe(401);
		expect((await call(service, 'POST', '/chat/start', { body: {}, token: 'wrong' })).status).toBe(
			401,
		);
	});

	it('a turn: queued, its frames with <n>-<n> ids to turn_completed, the history with the reply; 409 without an active turn', async () => {
		const service = await start({ chat: { hold: true } });
		const sessionId = await newSession(service);
		expect((await call(service, 'GET', `/chat/${sessionId}/stream/events`)).status).toBe(409);
		const queued = await call(service, 'POST', `/chat/${sessionId}/message`, {
			body: { message: 'Hi', stream: true },
		});
		expect(queued.status).toBe(202);
		expect(queued.json.status).toBe('turn_queued');
		expect(
			(
				await call(service, 'POST', `/chat/${sessionId}/message`, {
					body: { message: 'Again', stream: true },
				})
			).status,
		).toBe(409);
		expect((await call(service, 'GET', `/chat/${sessionId}/history`)).json).toEqual({
			messages: [{ role: 'user', content: 'Hi' }],
			active_kickoff_id: queued.json.kickoff_id,
		});
		const streamed = attach(service, sessionId);
		// Released once the test has seen the turn held: the service ends it then.
		while (!service.chatSessions[0].turns[0].held)
			await new Promise((resolve) => setImmediate(resolve));
		service.releaseTurns();
		const { frames, contentType } = await streamed;
		expect(contentType).toBe('text/event-stream');
		expect(frames.map((f) => f.type)).toEqual([
			'turn_started',
			'flow_method_started',
			...Array(11).fill('token'),
			'turn_completed',
		]);
		expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => `1-${i + 1}`));
		expect(frames.every((f) => f.stream_id === f.id)).toBe(true);
		const reply = 'Reply 1 to "Hi": this session has 1 message from you.';
		expect(
			frames
				.filter((f) => f.type === 'token')
				.map((f) => f.data.content)
				.join(''),
		).toBe(reply);
		expect((await call(service, 'GET', `/chat/${sessionId}/history`)).json).toEqual({
			messages: [
				{ role: 'user', content: 'Hi' },
				{ role: 'assistant', content: reply },
			],
			active_kickoff_id: null,
		});
		expect((await call(service, 'GET', `/chat/${sessionId}/stream/events`)).status).toBe(409);
	});

	it('an attach from a last id sends only the frames after it (or from it, with inclusiveResume)', async () => {
		const service = await start({ chat: { hold: true } });
		const sessionId = await newSession(service);
		await call(service, 'POST', `/chat/${sessionId}/message`, { body: { message: 'Hi' } });
		while (!service.chatSessions[0].turns[0].held)
			await new Promise((resolve) => setImmediate(resolve));
		const reading = attach(service, sessionId, '1-12');
		await new Promise((resolve) => setImmediate(resolve));
		service.releaseTurns();
		expect((await reading).frames.map((f) => f.id)).toEqual(['1-13', '1-14']);
		service.configure({ chat: { inclusiveResume: true } });
		await call(service, 'POST', `/chat/${sessionId}/message`, { body: { message: 'Two' } });
		const again = await attach(service, sessionId, '2-14');
		expect(again.frames[0].id).toBe('2-14');
	});

	it('a failing turn ends with turn_failed and its reason, and no assistant message', async () => {
		const service = await start({ chat: { failTurn: 'quota exceeded' } });
		const sessionId = await newSession(service);
		await call(service, 'POST', `/chat/${sessionId}/message`, { body: { message: 'Hi' } });
		const { frames } = await attach(service, sessionId);
		expect(frames.at(-1)).toMatchObject({ type: 'turn_failed', data: { error: 'quota exceeded' } });
		expect((await call(service, 'GET', `/chat/${sessionId}/history`)).json.messages).toEqual([
			{ role: 'user', content: 'Hi' },
		]);
	});

	it('llm_stream_chunk or both kinds of text frames; text at the end', async () => {
		const service = await start({ chat: { textFrames: 'both', textAtEnd: true } });
		const sessionId = await newSession(service);
		await call(service, 'POST', `/chat/${sessionId}/message`, { body: { message: 'Hi' } });
		const { frames } = await attach(service, sessionId);
		expect(
			frames
				.filter((f) => f.type === 'llm_stream_chunk')
				.map((f) => f.data.chunk)
				.join(''),
		).toBe(
			frames
				.filter((f) => f.type === 'token')
				.map((f) => f.data.content)
				.join(''),
		);
	});

	it('refuses unknown chat options', async () => {
		const service = await start();
		expect(() => service.configure({ chat: { pace: 1 } as never })).toThrow(
			'unknown chat option "pace"',
		);
		expect(() => service.configure({ chat: { textFrames: 'words' } as never })).toThrow(
			'textFrames',
		);
	});
});
