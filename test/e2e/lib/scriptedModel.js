'use strict';
// A scripted OpenAI-compatible chat model on loopback (node:http only), for n8n's OpenAI Chat
// Model node under an AI Agent. It speaks POST /v1/chat/completions, streamed (server-sent
// events, as OpenAI sends `stream: true`) or not, and GET /v1/models.
//
// It plays a model that knows only what it is offered: it calls a tool by the name in the
// request's `tools`, and fills exactly the parameters that tool's JSON schema lists, each by
// its declared type; a value the user "asked for" under a name the schema does not list is
// never sent. What the user asks for comes as a script in the last user message:
//
//   script: {"steps": [{"tool": "research", "calls": [{"topic": "tides", ...}, ...]},
//                      {"tool": "status", "fromLastAnswer": "kickoff_id"}]}
//
// Each step is one assistant answer with one tool call per entry of `calls` (a step with
// `fromLastAnswer` reads that parameter's value, a UUID, from the last tool answer it got).
// After the last step it answers in text, quoting the tool answers it received. Every request
// is recorded, so a test sees exactly what the model was sent.

const http = require('node:http');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function textOf(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((part) => (typeof part === 'string' ? part : part.text || '')).join('');
	return '';
}

function readScript(messages) {
	const lastUser = [...messages].reverse().find((m) => m.role === 'user');
	const match = /script:\s*(\{.*\})\s*$/s.exec(textOf(lastUser && lastUser.content));
	return match ? JSON.parse(match[1]) : { steps: [] };
}

/** A value of the schema's type for a parameter, from what the user asked for under that name. */
function valueFor(name, schema, asked) {
	const type = schema && (schema.type || (schema.anyOf && 'json'));
	const wanted = asked[name];
	if (type === 'number' || type === 'integer') return wanted === undefined ? 1 : Number(wanted);
	if (type === 'boolean') return wanted === undefined ? true : Boolean(wanted);
	if (type === 'object' || type === 'json')
		return wanted === undefined ? { note: `${name}` } : wanted;
	if (type === 'array') return wanted === undefined ? [name] : wanted;
	return wanted === undefined ? `a ${name}` : String(wanted);
}

/** The arguments of one call: the offered parameters only, each of its type; optional ones only when asked for. */
function argumentsFor(tool, asked) {
	const parameters = (tool.function && tool.function.parameters) || {};
	const properties = parameters.properties || {};
	const required = new Set(parameters.required || []);
	const args = {};
	for (const [name, schema] of Object.entries(properties)) {
		if (required.has(name) || asked[name] !== undefined) args[name] = valueFor(name, schema, asked);
	}
	return args;
}

function findTool(tools, wanted) {
	const tool = tools.find(
		(t) => t.function && t.function.name.toLowerCase().includes(String(wanted).toLowerCase()),
	);
	if (!tool)
		throw new Error(
			`no offered tool matches "${wanted}"; offered: ${tools.map((t) => t.function && t.function.name).join(', ')}`,
		);
	return tool;
}

/** The assistant message the script calls for at this point of the conversation. */
function nextMessage(body, counter) {
	const messages = body.messages || [];
	const tools = body.tools || [];
	const script = readScript(messages);
	const answered = messages.filter(
		(m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0,
	).length;
	const toolAnswers = messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content));
	const step = script.steps[answered];
	if (!step) {
		return { role: 'assistant', content: `Done. The tools answered: ${toolAnswers.join(' | ')}` };
	}
	const tool = findTool(tools, step.tool);
	let calls = step.calls || [{}];
	if (step.fromLastAnswer) {
		const found = UUID.exec(toolAnswers[toolAnswers.length - 1] || '');
		calls = [{ [step.fromLastAnswer]: found ? found[0] : 'no id in the last answer' }];
	}
	return {
		role: 'assistant',
		content: null,
		tool_calls: calls.map((asked) => ({
			id: `call_${++counter.value}`,
			type: 'function',
			function: { name: tool.function.name, arguments: JSON.stringify(argumentsFor(tool, asked)) },
		})),
	};
}

function completion(message, model) {
	return {
		id: `chatcmpl-scripted-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [
			{
				index: 0,
				message,
				logprobs: null,
				finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
			},
		],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/** The same answer as OpenAI streams it: role, then content or each tool call, then the finish reason. */
function chunks(message, model, includeUsage) {
	const base = {
		id: `chatcmpl-scripted-${Date.now()}`,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model,
	};
	const out = [
		{
			...base,
			choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
		},
	];
	if (message.tool_calls) {
		message.tool_calls.forEach((call, index) => {
			out.push({
				...base,
				choices: [
					{
						index: 0,
						delta: {
							tool_calls: [
								{
									index,
									id: call.id,
									type: 'function',
									function: { name: call.function.name, arguments: '' },
								},
							],
						},
						finish_reason: null,
					},
				],
			});
			out.push({
				...base,
				choices: [
					{
						index: 0,
						delta: { tool_calls: [{ index, function: { arguments: call.function.arguments } }] },
						finish_reason: null,
					},
				],
			});
		});
	} else {
		for (const piece of message.content.match(/[\s\S]{1,40}/g) || ['']) {
			out.push({
				...base,
				choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
			});
		}
	}
	out.push({
		...base,
		choices: [{ index: 0, delta: {}, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
	});
	if (includeUsage)
		out.push({
			...base,
			choices: [],
			usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
		});
	return out;
}

async function startScriptedModel() {
	const requests = [];
	const counter = { value: 0 };
	const server = http.createServer((req, res) => {
		let raw = '';
		req.setEncoding('utf8');
		req.on('data', (c) => (raw += c));
		req.on('end', () => {
			const send = (status, body) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(body));
			};
			try {
				if (req.method === 'GET' && /\/models$/.test(req.url)) {
					return send(200, {
						object: 'list',
						data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'e2e' }],
					});
				}
				if (req.method !== 'POST' || !/\/chat\/completions$/.test(req.url)) {
					return send(404, {
						error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' },
					});
				}
				const body = JSON.parse(raw || '{}');
				const message = nextMessage(body, counter);
				requests.push({ at: Date.now(), stream: body.stream === true, raw, body, answer: message });
				if (body.stream !== true) return send(200, completion(message, body.model));
				res.writeHead(200, {
					'content-type': 'text/event-stream',
					'cache-control': 'no-cache',
					connection: 'keep-alive',
				});
				const includeUsage = Boolean(body.stream_options && body.stream_options.include_usage);
				for (const chunk of chunks(message, body.model, includeUsage))
					res.write(`data: ${JSON.stringify(chunk)}\n\n`);
				res.end('data: [DONE]\n\n');
			} catch (error) {
				requests.push({ at: Date.now(), raw, error: error.message });
				send(400, { error: { message: error.message, type: 'invalid_request_error' } });
			}
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}/v1`;
	return {
		url,
		requests,
		/** The tool answers the model received, in order (each tool message's text). */
		toolAnswers: () => {
			const last = requests.filter((r) => r.body).at(-1);
			return last
				? last.body.messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content))
				: [];
		},
		reset: () => {
			requests.length = 0;
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** Reads a streamed chat completion the way OpenAI's clients do: the assembled message. */
function assembleStream(text) {
	const message = { role: 'assistant', content: '', tool_calls: [] };
	let finishReason = null;
	for (const line of text.split('\n')) {
		if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
		const chunk = JSON.parse(line.slice(6));
		for (const choice of chunk.choices) {
			const { delta } = choice;
			if (delta.content) message.content += delta.content;
			for (const call of delta.tool_calls || []) {
				message.tool_calls[call.index] ||= {
					id: call.id,
					type: 'function',
					function: { name: '', arguments: '' },
				};
				const target = message.tool_calls[call.index];
				if (call.function && call.function.name) target.function.name += call.function.name;
				if (call.function && call.function.arguments)
					target.function.arguments += call.function.arguments;
			}
			if (choice.finish_reason) finishReason = choice.finish_reason;
		}
	}
	return { message, finishReason };
}

module.exports = { startScriptedModel, assembleStream, argumentsFor };
