import type { CrewAnswer } from '../../../nodes/transport';
import {
	chooseSpelling,
	isRouteNotFound,
	learnFromAnswer,
	NOTHING_KNOWN,
	statusPath,
	StatusRouteMemory,
} from '../../../nodes/status/statusRoute';
import type { StatusRouteKnowledge, StatusSpelling } from '../../../nodes/status/statusRoute';

const ID = '3f2b9c1e-7a4d-4e8b-9f00-1c2d3e4f5a6b';
const NEW = '/status/{kickoff_id}';
const OLD = '/{kickoff_id}/status';

const http = (statusCode: number, body: unknown = undefined): CrewAnswer => ({
	kind: 'http',
	statusCode,
	body,
});
const timedOut: CrewAnswer = {
	kind: 'network',
	code: 'ECONNABORTED',
	message: 'timeout of 30000ms exceeded',
};
const routerNotFound = http(404, { detail: 'Not Found' });
const executionNotFound = http(404, {
	error: 'Execution not found',
	message: `No execution found with ID: ${ID}`,
});

function knowing(
	evidence: Partial<Record<StatusSpelling, 'exists' | 'absent'>>,
	unanswered: Partial<Record<StatusSpelling, number>> = {},
): StatusRouteKnowledge {
	return {
		[NEW]: { shown: evidence[NEW], unanswered: unanswered[NEW] ?? 0 },
		[OLD]: { shown: evidence[OLD], unanswered: unanswered[OLD] ?? 0 },
	};
}

describe('statusPath', () => {
	it('puts the encoded kickoff ID into either spelling', () => {
		expect(statusPath(NEW, ID)).toBe(`/status/${ID}`);
		expect(statusPath(OLD, '../inputs x/y')).toBe('/..%2Finputs%20x%2Fy/status');
	});
});

describe('isRouteNotFound', () => {
	it.each<[string, CrewAnswer]>([
		["FastAPI's bare 404", routerNotFound],
		['an empty body', http(404, undefined)],
		[
			"a proxy's HTML page",
			http(404, '<html><head><title>404 Not Found</title></head><body>nginx</body></html>'),
		],
		[
			'a router that echoes the path, kickoff ID and all',
			http(404, { error: 'Not Found', message: `The route /${ID}/status hasn't been found` }),
		],
		[
			'the documented generic Not Found',
			http(404, { error: 'Not Found', message: 'The requested resource was not found' }),
		],
	])('%s is the router saying the path does not exist', (_, answer) => {
		expect(isRouteNotFound(answer, ID)).toBe(true);
	});

	it.each<[string, CrewAnswer]>([
		['the documented execution not found', executionNotFound],
		["the same in FastAPI's shape", http(404, { detail: `No execution found with ID: ${ID}` })],
		['a kickoff not found', http(404, { error: 'Not Found', message: `Kickoff not found: ${ID}` })],
		['a 200', http(200, { status: 'running' })],
		[
			'a 500',
			http(500, { error: 'Internal Server Error', message: 'An unexpected error occurred' }),
		],
		['a network failure', timedOut],
	])('%s is not', (_, answer) => {
		expect(isRouteNotFound(answer, ID)).toBe(false);
	});

	it('does not take a kickoff ID that contains "kickoff" for the route\'s own words', () => {
		expect(
			isRouteNotFound(http(404, { detail: 'Not Found: /status/kickoff-7' }), 'kickoff-7'),
		).toBe(true);
	});
});

describe('learnFromAnswer', () => {
	it.each<[string, CrewAnswer]>([
		['a 200', http(200, { status: 'running' })],
		["the route's own 404", executionNotFound],
		['a 500', http(500)],
		['a 502 with an HTML page', http(502, '<html><title>502 Bad Gateway</title></html>')],
		['a 429', http(429)],
		['a 401', http(401, { error: 'Unauthorized', message: 'Invalid or missing bearer token' })],
		['a 422', http(422, { detail: 'invalid kickoff id' })],
	])('%s shows the spelling exists', (_, answer) => {
		expect(learnFromAnswer(NOTHING_KNOWN, OLD, answer, ID)).toEqual(knowing({ [OLD]: 'exists' }));
	});

	it("the router's 404 shows the spelling is absent, also one believed to exist", () => {
		expect(learnFromAnswer(NOTHING_KNOWN, NEW, routerNotFound, ID)).toEqual(
			knowing({ [NEW]: 'absent' }),
		);
		expect(learnFromAnswer(knowing({ [NEW]: 'exists' }), NEW, routerNotFound, ID)).toEqual(
			knowing({ [NEW]: 'absent' }),
		);
	});

	it('a network failure shows nothing, and is counted so the next read tries the other spelling', () => {
		const once = learnFromAnswer(NOTHING_KNOWN, NEW, timedOut, ID);
		expect(once).toEqual(knowing({}, { [NEW]: 1 }));
		expect(learnFromAnswer(knowing({ [OLD]: 'exists' }), OLD, timedOut, ID)).toEqual(
			knowing({ [OLD]: 'exists' }, { [OLD]: 1 }),
		);
		expect(learnFromAnswer(once, NEW, http(200), ID)).toEqual(knowing({ [NEW]: 'exists' }));
	});

	it('does not change the knowledge it was given', () => {
		const before = knowing({});
		learnFromAnswer(before, NEW, http(200), ID);
		expect(before).toEqual(knowing({}));
	});
});

describe('chooseSpelling', () => {
	it("asks /status/{kickoff_id} first, as today's API reference documents, then the contract's spelling", () => {
		expect(chooseSpelling(NOTHING_KNOWN, [])).toBe(NEW);
		expect(chooseSpelling(NOTHING_KNOWN, [NEW])).toBe(OLD);
		expect(chooseSpelling(NOTHING_KNOWN, [NEW, OLD])).toBeUndefined();
	});

	it('goes straight to the spelling known to exist, and nowhere else', () => {
		expect(chooseSpelling(knowing({ [OLD]: 'exists' }), [])).toBe(OLD);
		expect(chooseSpelling(knowing({ [OLD]: 'exists', [NEW]: 'absent' }), [])).toBe(OLD);
		expect(chooseSpelling(knowing({ [OLD]: 'exists' }), [OLD])).toBe(NEW);
	});

	it('skips a spelling known absent', () => {
		expect(chooseSpelling(knowing({ [NEW]: 'absent' }), [])).toBe(OLD);
		expect(chooseSpelling(knowing({ [NEW]: 'absent' }), [OLD])).toBeUndefined();
	});

	it('after an answerless request, tries the other spelling first', () => {
		expect(chooseSpelling(knowing({}, { [NEW]: 1 }), [])).toBe(OLD);
		expect(chooseSpelling(knowing({}, { [NEW]: 1, [OLD]: 1 }), [])).toBe(NEW);
	});

	it('asks both again when both are known absent: the service may have moved', () => {
		const bothAbsent = knowing({ [NEW]: 'absent', [OLD]: 'absent' });
		expect(chooseSpelling(bothAbsent, [])).toBe(NEW);
		expect(chooseSpelling(bothAbsent, [NEW])).toBe(OLD);
	});
});

/** A service on paper: which spelling it serves, and what its status route answers, in turn. */
function scriptedService(
	serves: StatusSpelling,
	routeAnswers: CrewAnswer[],
	fallback: CrewAnswer = http(200, { status: 'running' }),
) {
	const paths: string[] = [];
	const send = async (path: string): Promise<CrewAnswer> => {
		paths.push(path);
		await new Promise((resolve) => setImmediate(resolve));
		if (path !== statusPath(serves, ID)) return routerNotFound;
		return routeAnswers.shift() ?? fallback;
	};
	return {
		paths,
		send,
		wrong: () => paths.filter((path) => path !== statusPath(serves, ID)).length,
	};
}

describe('StatusRouteMemory', () => {
	it.each([NEW, OLD] as const)(
		'a service serving only %s: 10 reads, 5 answered 500, one request at most to the other spelling',
		async (serves) => {
			const memory = new StatusRouteMemory();
			const service = scriptedService(serves, [
				http(500),
				http(500),
				http(200),
				http(500),
				http(200),
				http(500),
				http(500),
			]);
			const answers: number[] = [];
			for (let read = 0; read < 10; read++) {
				const answer = await memory.read('http://crew', ID, service.send);
				answers.push(answer.kind === 'http' ? answer.statusCode : 0);
			}
			expect(answers.filter((code) => code === 500)).toHaveLength(5);
			expect(service.wrong()).toBe(serves === NEW ? 0 : 1);
			expect(service.paths).toHaveLength(10 + service.wrong());
		},
	);

	it.each([NEW, OLD] as const)(
		'a service serving only %s whose reads time out: one request at most to the other spelling',
		async (serves) => {
			const memory = new StatusRouteMemory();
			const service = scriptedService(serves, [
				timedOut,
				timedOut,
				http(200),
				timedOut,
				http(500),
				http(200),
			]);
			for (let read = 0; read < 8; read++) await memory.read('http://crew', ID, service.send);
			expect(service.wrong()).toBe(1);
			expect(memory.knowledgeOf('http://crew')[serves].shown).toBe('exists');
		},
	);

	it('a request to the wrong spelling that times out sends the next read to the other spelling', async () => {
		const memory = new StatusRouteMemory();
		const service = scriptedService(OLD, []);
		const send = async (path: string) =>
			service.paths.length === 0 ? (service.paths.push(path), timedOut) : await service.send(path);
		expect(await memory.read('http://crew', ID, send)).toEqual(timedOut);
		expect(await memory.read('http://crew', ID, send)).toEqual(http(200, { status: 'running' }));
		expect(service.paths).toEqual([statusPath(NEW, ID), statusPath(OLD, ID)]);
	});

	it('a burst of reads while nothing is known sends one probe, then the rest to the route it found', async () => {
		const memory = new StatusRouteMemory();
		const service = scriptedService(OLD, []);
		const answers = await Promise.all(
			Array.from({ length: 20 }, async () => await memory.read('http://crew', ID, service.send)),
		);
		expect(answers.every((answer) => answer.kind === 'http' && answer.statusCode === 200)).toBe(
			true,
		);
		expect(service.wrong()).toBe(1);
		expect(service.paths).toHaveLength(21);
	});

	it('reads that waited on a probe the service did not answer share its failure instead of queueing', async () => {
		const memory = new StatusRouteMemory();
		const paths: string[] = [];
		const send = async (path: string): Promise<CrewAnswer> => {
			paths.push(path);
			await new Promise((resolve) => setImmediate(resolve));
			return timedOut;
		};
		const answers = await Promise.all(
			Array.from({ length: 5 }, async () => await memory.read('http://crew', ID, send)),
		);
		expect(answers).toEqual(Array(5).fill(timedOut));
		expect(paths).toEqual([statusPath(NEW, ID)]);
	});

	it("when neither spelling has the execution, gives the route's own 404, not the router's", async () => {
		for (const serves of [NEW, OLD] as const) {
			const memory = new StatusRouteMemory();
			const service = scriptedService(serves, [], executionNotFound);
			expect(await memory.read('http://crew', ID, service.send)).toEqual(executionNotFound);
		}
	});

	it("a base URL with no status route at all: both are asked, and the router's 404 is the answer", async () => {
		const memory = new StatusRouteMemory();
		const paths: string[] = [];
		const answer = await memory.read(
			'http://not-a-crew',
			ID,
			async (path) => (paths.push(path), routerNotFound),
		);
		expect(answer).toEqual(routerNotFound);
		expect(paths).toEqual([statusPath(NEW, ID), statusPath(OLD, ID)]);
	});

	it('keeps each base URL apart', async () => {
		const memory = new StatusRouteMemory();
		await memory.read('http://a', ID, scriptedService(OLD, []).send);
		const other = scriptedService(NEW, []);
		await memory.read('http://b', ID, other.send);
		expect(other.paths).toEqual([statusPath(NEW, ID)]);
		expect(memory.knowledgeOf('http://a')[OLD].shown).toBe('exists');
		expect(memory.knowledgeOf('http://b')[NEW].shown).toBe('exists');
	});

	it('follows a service that moved its status route', async () => {
		const memory = new StatusRouteMemory();
		await memory.read('http://crew', ID, scriptedService(NEW, []).send);
		const moved = scriptedService(OLD, []);
		const answer = await memory.read('http://crew', ID, moved.send);
		expect(answer).toEqual(http(200, { status: 'running' }));
		expect(moved.paths).toEqual([statusPath(NEW, ID), statusPath(OLD, ID)]);
	});
});
