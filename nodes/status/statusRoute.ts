import { readServiceMessage } from '../transport/serviceMessage';
import type { CrewAnswer } from '../transport/answers';

/**
 * The two spellings of the status path. The vendor's API reference documents
 * `/status/{kickoff_id}` (again, since May 2026); the contract and older
 * references say `/{kickoff_id}/status`. A base URL with no history is asked
 * in this order.
 */
export const STATUS_SPELLINGS = ['/status/{kickoff_id}', '/{kickoff_id}/status'] as const;
export type StatusSpelling = (typeof STATUS_SPELLINGS)[number];

/**
 * What the answers at each spelling have shown so far: `shown` 'exists' (an answer came
 * from the route) or 'absent' (the router said there is no such route); `unanswered`, the
 * requests sent there that got no HTTP answer since the last one that did.
 */
export type StatusRouteKnowledge = Readonly<
	Record<StatusSpelling, { readonly shown?: 'exists' | 'absent'; readonly unanswered: number }>
>;

export const NOTHING_KNOWN: StatusRouteKnowledge = {
	'/status/{kickoff_id}': { unanswered: 0 },
	'/{kickoff_id}/status': { unanswered: 0 },
};

/**
 * The path of one status read. The id is encoded, so a slash or a dot-dot in it can never address
 * another route.
 */
export function statusPath(spelling: StatusSpelling, kickoffId: string): string {
	return spelling.replace('{kickoff_id}', encodeURIComponent(kickoffId));
}

/**
 * Whether a 404 came from the router (no such path) rather than from the
 * status route (no such execution). The route names what it did not find,
 * e.g. `{"error": "Execution not found", "message": "No execution found with
 * ID: …"}`; a router's answer does not: FastAPI's `{"detail": "Not Found"}`,
 * a proxy's page, an empty body, "The route /…/status hasn't been found". The
 * kickoff ID is taken out first, because a router may echo the path.
 */
export function isRouteNotFound(answer: CrewAnswer, kickoffId: string): boolean {
	if (answer.kind !== 'http' || answer.statusCode !== 404) return false;
	const message = readServiceMessage(answer.body) ?? '';
	const withoutId = [kickoffId, encodeURIComponent(kickoffId)]
		.filter((id) => id !== '')
		.reduce((text, id) => text.split(id).join(' '), message);
	return !/execution|kickoff/i.test(withoutId);
}

/**
 * What one answer shows about the spelling it was sent to. Any HTTP answer
 * but the router's 404 (a 200, the route's own 404, a 5xx, a 429, a 401)
 * shows the route exists; a network failure or a time-out shows nothing.
 */
export function learnFromAnswer(
	knowledge: StatusRouteKnowledge,
	spelling: StatusSpelling,
	answer: CrewAnswer,
	kickoffId: string,
): StatusRouteKnowledge {
	const seen = knowledge[spelling];
	if (answer.kind === 'network')
		return { ...knowledge, [spelling]: { ...seen, unanswered: seen.unanswered + 1 } };
	return {
		...knowledge,
		[spelling]: { shown: isRouteNotFound(answer, kickoffId) ? 'absent' : 'exists', unanswered: 0 },
	};
}

/**
 * The spelling to ask next in one status read, or undefined to stop. The one
 * known to exist; else one not known to be absent, the one that got the fewest
 * answerless requests first, so that a time-out on one spelling sends the next
 * read to the other; else, when both are known absent (the service may have
 * moved), each once more. `asked` are the spellings this read already asked.
 */
export function chooseSpelling(
	knowledge: StatusRouteKnowledge,
	asked: readonly StatusSpelling[],
): StatusSpelling | undefined {
	const open = STATUS_SPELLINGS.filter((spelling) => !asked.includes(spelling));
	const known = open.find((spelling) => knowledge[spelling].shown === 'exists');
	if (known !== undefined) return known;
	const allAbsent = STATUS_SPELLINGS.every((spelling) => knowledge[spelling].shown === 'absent');
	const candidates = allAbsent
		? open
		: open.filter((spelling) => knowledge[spelling].shown !== 'absent');
	// A stable sort: on a tie the documented order stands.
	return [...candidates].sort((a, b) => knowledge[a].unanswered - knowledge[b].unanswered)[0];
}

/**
 * Which status path each base URL answers, for this process. While no route is known
 * for a base URL, one read at a time finds out: reads arriving meanwhile wait for it,
 * so a burst of reads (Kickoff and Wait polls many crews at once) sends at most one
 * request to a spelling that does not exist.
 */
export class StatusRouteMemory {
	private readonly knowledge = new Map<string, StatusRouteKnowledge>();

	/** The read finding out a base URL's route, while it lasts. */
	private readonly probes = new Map<string, Promise<CrewAnswer>>();

	knowledgeOf(baseUrl: string): StatusRouteKnowledge {
		return this.knowledge.get(baseUrl) ?? NOTHING_KNOWN;
	}

	/**
	 * One status read: `send` makes one request to a path and never throws. A read that
	 * waited for a probe which found no route (the service did not answer, or has no
	 * status route) gets the probe's answer, which says the same for every kickoff ID;
	 * the caller's retries ask again later.
	 */
	async read(
		baseUrl: string,
		kickoffId: string,
		send: (path: string) => Promise<CrewAnswer>,
	): Promise<CrewAnswer> {
		const probe = this.probes.get(baseUrl);
		if (probe !== undefined) {
			const probeAnswer = await probe;
			if (!this.knowsRoute(baseUrl)) return probeAnswer;
		} else if (!this.knowsRoute(baseUrl)) {
			// No await between the check and this: exactly one read becomes the probe.
			const ownProbe = this.ask(baseUrl, kickoffId, send).finally(() =>
				this.probes.delete(baseUrl),
			);
			this.probes.set(baseUrl, ownProbe);
			return await ownProbe;
		}
		return await this.ask(baseUrl, kickoffId, send);
	}

	private knowsRoute(baseUrl: string): boolean {
		const knowledge = this.knowledgeOf(baseUrl);
		return STATUS_SPELLINGS.some((spelling) => knowledge[spelling].shown === 'exists');
	}

	/** Asks the spellings in turn; only the router's "no such path" sends the read on to the next. */
	private async ask(
		baseUrl: string,
		kickoffId: string,
		send: (path: string) => Promise<CrewAnswer>,
	): Promise<CrewAnswer> {
		const asked: StatusSpelling[] = [];
		// chooseSpelling gives a first spelling for any knowledge.
		let spelling = chooseSpelling(this.knowledgeOf(baseUrl), asked) as StatusSpelling;
		for (;;) {
			const answer = await send(statusPath(spelling, kickoffId));
			this.knowledge.set(
				baseUrl,
				learnFromAnswer(this.knowledgeOf(baseUrl), spelling, answer, kickoffId),
			);
			asked.push(spelling);
			const next = isRouteNotFound(answer, kickoffId)
				? chooseSpelling(this.knowledgeOf(baseUrl), asked)
				: undefined;
			if (next === undefined) return answer;
			spelling = next;
		}
	}
}
