/**
 * What a request to the service gave, and how to read it: kept free of n8n's
 * runtime so the pure chat client reads answers with the same rules as the node.
 */

/** The service answered, with any status code. */
export interface HttpAnswer {
	kind: 'http';
	statusCode: number;
	/** Parsed JSON when the body is JSON, else the text, else undefined. */
	body: unknown;
	/** The service's Retry-After, in milliseconds, when it sent one. */
	retryAfterMs?: number;
}

/** No HTTP answer: refused, reset, timed out. */
export interface NetworkFailure {
	kind: 'network';
	code: string;
	message: string;
}

export type CrewAnswer = HttpAnswer | NetworkFailure;

/** A 2xx: the service did what was asked. */
export function isSuccessCode(statusCode: number): boolean {
	return statusCode >= 200 && statusCode < 300;
}

export function isSuccess(answer: CrewAnswer): answer is HttpAnswer {
	return answer.kind === 'http' && isSuccessCode(answer.statusCode);
}

export function retryAfterOf(answer: CrewAnswer): number | undefined {
	return answer.kind === 'http' ? answer.retryAfterMs : undefined;
}

/** Worth asking again: the network failed, the service failed (5xx) or asked to slow down (429). */
export function isPassingFailure(answer: CrewAnswer): boolean {
	return (
		answer.kind === 'network' ||
		answer.statusCode === 429 ||
		answer.statusCode === 408 ||
		answer.statusCode >= 500
	);
}
