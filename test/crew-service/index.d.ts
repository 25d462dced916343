/**
 * Reference Crew Execution Service: a real HTTP server on loopback that
 * implements the contract (shared/spec/crew-execution-service.md) and the
 * shapes seen in the wild (shared/spec/field-notes.md), with switchable faults.
 * The implementation is plain CommonJS in this folder; this file is its API.
 */

export type Route = 'inputs' | 'kickoff' | 'status' | 'other';
export type TokenType = 'organization' | 'user';
export type RunOutcome = 'success' | 'failure' | 'revoked' | 'never';

export interface CrewInput {
	name: string;
	/** Shown in the 'objects' inputs shape; default 'string'. */
	type?: string;
	/** Default true. Required inputs missing or '' in a kickoff are answered 422. */
	required?: boolean;
}

export interface RunPlan {
	durationMs: number;
	outcome: RunOutcome;
	/** Default `Crew finished: name=value; name=value` (the kickoff's inputs, in sent order). */
	result?: string;
	/** Default `{ inputs, kickoffNumber }`, kickoffNumber = index + 1. */
	resultJson?: object | null;
	/** Default 'Task execution failed: invalid API key for external service'. */
	error?: string;
}

export interface KickoffInfo {
	inputs: Record<string, string>;
	/** The kickoff's `meta`, or null when it sent none. */
	meta: unknown;
	/** 0-based number of this kickoff since start or the last reset(). */
	index: number;
}

export interface CrewServiceOptions {
	/** Default '127.0.0.1'. */
	host?: string;
	/** Default 0 (a free port). */
	port?: number;
	/** Defaults: random 'org-tok-<hex>' and 'usr-tok-<hex>'. Must differ. */
	tokens?: { organization?: string; user?: string };
	/** Default [{ name: 'topic', required: true }, { name: 'audience', required: false }]. */
	inputs?: CrewInput[];
	/** 'names' → {"inputs":["topic",...]}; 'objects' → {"inputs":[{"name","type","required"}]}. Default 'names'. */
	inputsShape?: 'names' | 'objects';
	/** 'contract' → {"status":"running",...}; 'wild' → {"state":"RUNNING",...}. Default 'contract'. */
	recordShape?: 'contract' | 'wild';
	/** Which status spellings answer: '/{id}/status' (contract), '/status/{id}' (wild). Default 'both'. */
	statusPaths?: 'both' | 'contract' | 'wild';
	/** 'documented' → {"error","message"[,"details"]}; 'fastapi' → {"detail": ...}. Default 'documented'. */
	errorShape?: 'documented' | 'fastapi';
	/** Default run duration in ms; default 2000. 0 means finished at once. */
	durationMs?: number;
	/** Per-kickoff plan override; a kickoff's meta.reference overrides it in turn. Pass undefined to configure() to remove. */
	plan?: (kickoff: KickoffInfo) => Partial<RunPlan> | undefined;
	/** Clock in ms for logs and run lifecycles; default Date.now. */
	now?: () => number;
}

export type ResolvedCrewServiceOptions = Required<Omit<CrewServiceOptions, 'plan' | 'tokens'>> & {
	tokens: { organization: string; user: string };
	plan: CrewServiceOptions['plan'];
};

export interface RequestLogEntry {
	method: string;
	/** Path with query string, tokens redacted. */
	path: string;
	route: Route;
	/** Status sent, or null when the answer was dropped (reset, hang, client gone) or is still delayed. */
	status: number | null;
	/** Arrival time on the service clock. */
	at: number;
	/** Which valid token authenticated the request; null for none or a wrong one. The token itself is never stored. */
	tokenType: TokenType | null;
	/** Kickoffs: the new run's id (200 only). Status requests: the decoded id asked for. */
	kickoffId?: string;
	/** Kickoffs: the parsed JSON body, tokens redacted. */
	body?: unknown;
	/** Status requests: which path spelling was used. */
	spelling?: 'contract' | 'wild';
	/** True when a client put a token in the URL or body (it is stored as '[REDACTED]'). */
	tokenLeaked?: true;
}

export interface Run {
	kickoffId: string;
	/** 0-based kickoff number since start or reset(). */
	index: number;
	inputs: Record<string, string>;
	meta: unknown;
	webhooks: { taskWebhookUrl?: string; stepWebhookUrl?: string; crewWebhookUrl?: string };
	tokenType: TokenType;
	createdAt: number;
	/** createdAt + durationMs, or null for outcome 'never'. */
	completesAt: number | null;
	/** Fully resolved: result, resultJson and error are always filled in. */
	plan: Required<RunPlan>;
	statusRequests: number;
}

export interface Fault {
	/** 'any' also matches unknown paths, never the /_reference/ admin routes. */
	route: 'inputs' | 'kickoff' | 'status' | 'any';
	/**
	 * status: answer `status` (default 500) with `body` (default an error in the configured errorShape).
	 * reset: TCP reset, no answer. hang: never answer. delay: answer normally after delayMs.
	 * emptyBody: `status` (default 200) with an empty body. notJson: `status` (default 200) with `body`
	 * (default an HTML page) under `contentType` (default application/json, i.e. a lying header).
	 */
	kind: 'status' | 'reset' | 'hang' | 'delay' | 'emptyBody' | 'notJson';
	/** How many matching requests it affects; default 1. */
	times?: number;
	status?: number;
	body?: string;
	/** Default 'application/json'. */
	contentType?: string;
	/** Extra response headers, e.g. { 'Retry-After': '2' }. */
	headers?: Record<string, string>;
	/** Required for 'delay'. Real time. */
	delayMs?: number;
	/** Process the request first (a kickoff creates its run), then fail: "the request arrived, the answer was lost". */
	afterProcessing?: boolean;
}

export interface CrewService {
	/** 'http://127.0.0.1:PORT', no trailing slash. */
	readonly url: string;
	/** A copy of the current tokens. */
	readonly tokens: { organization: string; user: string };
	/** A frozen snapshot of the current options (port is the real one). */
	readonly options: Readonly<ResolvedCrewServiceOptions>;
	/** Changes options for later requests and kickoffs. Throws on unknown keys, bad values, host or port. */
	configure(partial: Partial<CrewServiceOptions>): void;
	/** Live log of every contract request (admin routes are not logged). */
	readonly requests: RequestLogEntry[];
	/** Live list of every accepted kickoff. */
	readonly runs: Run[];
	count(route: Route, method?: string): number;
	/** Queued; each matching request uses up the first matching fault. Throws on an invalid fault. */
	injectFault(fault: Fault): void;
	clearFaults(): void;
	/** Clears runs, requests and faults (arrays are emptied in place). Options stay. */
	reset(): void;
	/** Stops listening and destroys every open socket, hanging ones included. Idempotent. */
	close(): Promise<void>;
}

export function startCrewService(options?: CrewServiceOptions): Promise<CrewService>;
