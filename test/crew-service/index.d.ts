/**
 * Reference Crew Execution Service: a real HTTP server on loopback that
 * implements the service's API as docs/development/service-api.md records it: the contract,
 * the documented shapes and the live dialect, with switchable faults.
 * The implementation is plain CommonJS in this folder; this file is its API.
 */

export type Route =
	| 'inputs'
	| 'kickoff'
	| 'status'
	| 'resume'
	| 'stop'
	| 'other'
	| 'files'
	| 'fileDownload'
	| ChatRoute;

/** A file a kickoff brought, as the run records it (README, "Files"). */
export interface ReceivedFile {
	/** The crew's file field: the multipart part's name, the upload's field_name, or the input_files key. */
	field: string;
	/** The part's filename, the upload's, or the URL's last path segment. */
	name: string;
	/** The part's Content-Type (application/octet-stream when it had none); null for a URL not fetched. */
	type: string | null;
	/** Bytes received; null for a URL not fetched. */
	size: number | null;
	/** Hex SHA-256 of the bytes; null for a URL not fetched. */
	sha256: string | null;
	/** multipart: a file part of the kickoff; upload: a POST /files URL of this service; url: any other URL. */
	via: 'multipart' | 'upload' | 'url';
	/** upload and url: the URL without its query string. */
	url?: string;
}

/** A POST /files upload the service holds (on disk, until reset or close). */
export interface UploadRecord {
	uploadId: string;
	/** The field_name part. */
	field: string;
	name: string;
	type: string;
	size: number;
	sha256: string;
}
/** A conversational flow's chat API (chatApi.js): GET /inspect, POST /chat/start, POST /chat/{id}/message, GET /chat/{id}/stream/events, GET /chat/{id}/history. */
export type ChatRoute = 'inspect' | 'chatStart' | 'chatMessage' | 'chatStream' | 'chatHistory';

/**
 * A deployed conversational flow (docs/development/service-api.md#chat-with-a-conversational-flow). The flow's reply to the
 * n-th message of a session is `Reply n to "<message>": this session has n message(s) from you.`
 */
export interface ChatOptions {
	/** What /inspect reports as flow.chat.conversational and handle_turn; false also refuses /chat/*. Default true. */
	conversational?: boolean;
	/** The text frames: 'token' `{type:"token",data:{content}}`, 'llm_stream_chunk' `{data:{chunk}}`, or 'both' (each piece as chunk, then token). Default 'token'. */
	textFrames?: 'token' | 'llm_stream_chunk' | 'both';
	/** Real time between frames; default 5. */
	paceMs?: number;
	/** All text in one go just before the turn ends, as the vendor's live test saw. Default false. */
	textAtEnd?: boolean;
	/** Every turn waits, its text sent, until releaseTurns() (or POST /_reference/chat/release {sessionId?}). Default false. */
	hold?: boolean;
	/** Every turn ends with `turn_failed` `{error: <this>}` and no assistant message. Default null. */
	failTurn?: string | null;
	/** The first stream of each turn is cut (socket destroyed) after this many frames. Default null. */
	cutStreamAfterFrames?: number | null;
	/** A resumed stream also sends the frame of last_event_id again (a client must drop repeats). Default false. */
	inclusiveResume?: boolean;
}

export interface ChatSessionRecord {
	id: string;
	messages: Array<{ role: 'user' | 'assistant'; content: string }>;
	activeKickoffId: string | null;
	turns: Array<{
		kickoffId: string;
		message: string;
		over: boolean;
		held: boolean;
		frames: number;
		connections: number;
	}>;
}
export type TokenType = 'organization' | 'user';
export type RunOutcome = 'success' | 'failure' | 'revoked' | 'never';
/** The three tasks of every run, in order; task k (1-based) ends at round(k/3 · durationMs). */
export type TaskId = 'research_task' | 'analysis_task' | 'report_task';
/**
 * Where a run stands on the service clock. 'paused': waiting for human input
 * (status record `pending_human_input` / `PENDING_HUMAN_INPUT`).
 */
export type RunState = 'pending' | 'running' | 'paused' | 'completed' | 'failed' | 'revoked';
/** Legacy URLs (step, task, crew), the event stream, the crew human-input webhook, the signed flow feedback request. */
export type WebhookKind = 'step' | 'task' | 'crew' | 'stream' | 'humanInput' | 'feedbackRequest';

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
	/**
	 * Pause for human input when this task finishes (at k/3 of the duration,
	 * k its 1-based position) until POST /resume approves it. null or absent: no pause.
	 * `taskIds`: several tasks marked for human input; the run pauses after each, in run order
	 * (an approval runs on to the next one, a rejection redoes the task and pauses there again).
	 */
	humanInput?: { taskId: TaskId } | { taskIds: TaskId[] } | null;
	/**
	 * A deployed `@persist` flow rather than a crew: the run has a saved state (see FlowRun), takes
	 * `restoreFromStateId` and `inputs.id`, and its completed record carries the final state.
	 */
	flow?: boolean;
	/**
	 * This run's own registration delay, over the service's `registrationDelayMs`: one crew of a
	 * batch can be unknown to the service while another is known at once. A resumed run keeps it.
	 */
	registrationDelayMs?: number;
}

/** A plan with every default filled in; `flow: true` only for a flow (absent for a crew); `registrationDelayMs` only when the run has its own. */
export type ResolvedRunPlan = Required<
	Omit<RunPlan, 'humanInput' | 'flow' | 'registrationDelayMs'>
> & {
	humanInput: { taskId: TaskId; taskIds: TaskId[] } | null;
	flow?: true;
	registrationDelayMs?: number;
};

/** A persisted flow's state: the run's inputs (but `id`) over the restored state's fields. */
export interface FlowState {
	[field: string]: unknown;
	/** The state id: the kickoff_id, or the deprecated `inputs.id` when one was sent. */
	id: string;
	/** 1 for a fresh state, the restored state's plus 1 otherwise. */
	run_count: number;
	/** The kickoff ids of every run this state went through, the restored ones first. */
	kickoff_ids: string[];
}

/** A flow run's state, as the service started it. */
export interface FlowRun {
	stateId: string;
	/** fork: `restoreFromStateId` sent; resume: only the deprecated `inputs.id`; fresh: neither. */
	mode: 'fork' | 'resume' | 'fresh';
	/** The id the run asked to restore from, or null. */
	requestedFrom: string | null;
	/** The id whose saved state was restored, or null (none asked, or unknown: a fresh state, no error). */
	restoredFrom: string | null;
	state: FlowState;
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
	/**
	 * Which status spellings answer: '/{id}/status' (contract), '/status/{id}' (wild; the vendor's
	 * current API reference). Default 'both'. The other spelling gets the router's bare 404
	 * `{"detail": "Not Found"}`; an unknown id at a served spelling gets the route's own 404,
	 * `{"error": "Execution not found", "message": "No execution found with ID: <id>"}`
	 * (errorShape 'fastapi': `{"detail": "No execution found with ID: <id>"}`).
	 */
	statusPaths?: 'both' | 'contract' | 'wild';
	/** 'documented' → {"error","message"[,"details"]}; 'fastapi' → {"detail": ...}. Default 'documented'. */
	errorShape?: 'documented' | 'fastapi';
	/**
	 * 'documented' → the contract and the vendor's documents (every other option as set);
	 * 'live' → what the "Live" facts of docs/development/service-api.md say the hosted
	 * service answers today (its status records, NOT FOUND, error bodies, resume, flows).
	 * Default 'documented'.
	 */
	dialect?: 'documented' | 'live';
	/**
	 * 'crew' → the reference crew (a run is a persisted flow only when its plan says `flow: true`);
	 * 'flow' → a deployed flow: `GET /inputs` lists its state fields `topic` (str, default 'AI agents'),
	 * `count` (int, 1), `id`, `history` (list, []), none required (the 'objects' shape adds
	 * `required: false` and `default`); a kickoff takes typed values, `{"inputs": {}}` or a bare body
	 * runs on the defaults, a value of the wrong type fails the run (pydantic's words); every run is a
	 * persisted flow run (state id = kickoff_id); its result is `Flow finished: <state as JSON>`; its
	 * event stream is the flow's (`flow_started`, `method_execution_*`, `flow_finished`, or
	 * `method_execution_failed` and `flow_failed`). In the 'live' dialect its status record is the
	 * live one (`result` the final method's text, no state object). Default 'crew'.
	 */
	deployment?: 'crew' | 'flow';
	/**
	 * Live dialect only: the first N status reads of each run answer 200 `{"state": "NOT FOUND"}`, as a
	 * few reads right after a kickoff did live (the run not registered yet). Default 0.
	 */
	registrationLagReads?: number;
	/**
	 * Any dialect: for this many ms (service clock) after its kickoff a run is not registered yet, as
	 * live right after a kickoff: its status reads answer as for an unknown id (live: 200
	 * `{"state": "NOT FOUND"}`; documented: the 404), counted in its `statusRequests`, and
	 * `POST /stop/{id}` answers the documented 404 `{"error": "Execution not found", ...}`; the run
	 * itself runs from its kickoff and makes its calls. A resumed run (a new kickoff id) is new too.
	 * A run's plan may set its own (`meta.reference.registrationDelayMs`). Default 0.
	 */
	registrationDelayMs?: number;
	/**
	 * A cold deployment (any dialect): the first contract request after start, or after configure()
	 * sets this, is processed at once (a kickoff starts its run) and answered this many ms late, real
	 * time. Default 0 (off). The vendor saw "first call times out, the next one works".
	 */
	coldStartMs?: number;
	/**
	 * `POST /stop/{kickoff_id}` (docs/development/service-api.md#stopping-a-run): true (default) serves it;
	 * false is a deployment without the route, answered by FastAPI's router before auth, 404
	 * `{"detail": "Not Found"}`; 'methodNotAllowed' answers 405 `{"detail": "Method Not Allowed"}`,
	 * as FastAPI does for a known path without that method.
	 */
	stopRoute?: boolean | 'methodNotAllowed';
	/** Default run duration in ms; default 2000. 0 means finished at once. */
	durationMs?: number;
	/** Per-kickoff plan override; a kickoff's meta.reference overrides it in turn. Pass undefined to configure() to remove. */
	plan?: (kickoff: KickoffInfo) => Partial<RunPlan> | undefined;
	/** Clock in ms for logs and run lifecycles; default Date.now. Webhook calls do not follow it: they use real time. */
	now?: () => number;
	/**
	 * Which webhook URLs are really called. 'loopback' (default): only localhost, *.localhost,
	 * 127.x.x.x and [::1] (by name, nothing is resolved); any other URL gets a delivery record with
	 * status null and an error, and no request. 'any': every http(s) URL.
	 */
	webhookTargets?: 'loopback' | 'any';
	/**
	 * Event Streaming delivery (a kickoff's `webhooks` object). Batched (realtime false): events are
	 * flushed flushMs (default 100, real time) after the first one waits, and at once with a terminal
	 * event. shuffle (default true): each batch in random order. duplicate (default false): one event
	 * of each batch sent twice in it (realtime: each event sent twice).
	 */
	eventStream?: { flushMs?: number; shuffle?: boolean; duplicate?: boolean };
	/**
	 * Flow human-in-the-loop webhook (a dashboard setting in reality). When set, a run pausing for human
	 * input POSTs a signed `new_request` to url. headers: 'current' (X-Signature/X-Timestamp, default) or
	 * 'crewai' (X-CrewAI-Signature/X-CrewAI-Timestamp); shape: 'nested' (current doc, default) or 'flat'
	 * (Jan-12 doc, what the third party saw). The timestamp follows the service clock (`now`). null: off.
	 */
	flowFeedback?: {
		url: string;
		secret: string;
		headers?: 'current' | 'crewai';
		shape?: 'nested' | 'flat';
	} | null;
	/** null (default): a crew, /inspect 404. An object: a deployed conversational flow with a chat API (see ChatOptions). */
	chat?: ChatOptions | null;
	/**
	 * A proxy's body limit in bytes: any contract request whose body is over it (by Content-Length, or
	 * counted as a chunked body streams in) gets nginx's `413 Request Entity Too Large` HTML page and is
	 * never processed. null (default): no limit.
	 */
	maxFileBytes?: number | null;
	/**
	 * 'accepted' (default): a crewAI with native file inputs (multipart kickoff, POST /files, input_files).
	 * 'refused': an older one: a multipart POST /kickoff gets FastAPI's 422 `{"detail": [{"type":
	 * "model_attributes_type", "loc": ["body"], ...}]}`, /files and /files/... are unknown routes
	 * (`404 {"detail": "Not Found"}`), and a JSON kickoff's input_files is ignored.
	 */
	multipartKickoff?: 'accepted' | 'refused';
	/**
	 * deployment 'flow': file-typed state fields (crewAI `File`, default None) listed after the others
	 * (type 'file'); a file sent for one lands in the state as `{name, type, size, sha256}`. Default [].
	 */
	flowFileFields?: string[];
}

export type ResolvedCrewServiceOptions = Required<
	Omit<CrewServiceOptions, 'plan' | 'tokens' | 'eventStream' | 'flowFeedback' | 'chat'>
> & {
	chat: Required<ChatOptions> | null;
	tokens: { organization: string; user: string };
	eventStream: { flushMs: number; shuffle: boolean; duplicate: boolean };
	flowFeedback: {
		url: string;
		secret: string;
		headers: 'current' | 'crewai';
		shape: 'nested' | 'flat';
	} | null;
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
	/** Kickoffs: the new run's id (200 only). Status and stop requests: the decoded id asked for. Resumes: the execution_id sent (when a string). */
	kickoffId?: string;
	/** Kickoffs and resumes: the parsed JSON body, tokens redacted. */
	body?: unknown;
	/** Status requests: which path spelling was used. */
	spelling?: 'contract' | 'wild';
	/** True when a client put a token in the URL or body (it is stored as '[REDACTED]'). */
	tokenLeaked?: true;
	/** Multipart kickoffs and uploads: the file parts the body carried (hashed as they streamed in). */
	files?: ReceivedFile[];
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
	/**
	 * createdAt + durationMs, or null for outcome 'never'. A run planned to pause for human input:
	 * null until a resume approves it, then that resume's time + the rest of the duration.
	 */
	completesAt: number | null;
	/** Fully resolved: result, resultJson and error are always filled in; humanInput is null when no pause is planned. */
	plan: ResolvedRunPlan;
	statusRequests: number;
	/** Computed on every read from the service clock (an enumerable getter: JSON and toEqual see it). */
	readonly state: RunState;
	/** Every accepted POST /resume, in order. */
	resumes: ResumeRecord[];
	/** The files the kickoff brought (multipart parts, then input_files in their order); absent when it brought none. */
	files?: ReceivedFile[];
	/** Service-clock time of the accepted POST /stop; absent for a run never stopped (which then reads REVOKED). */
	stoppedAt?: number;
	/** Dialect 'live' only: the paused run this run continues (a live resume answers a new kickoff_id). */
	readonly resumedFrom?: string;
	/** A flow run's state (plan.flow), null for a crew. Not enumerable (JSON and toEqual skip it). */
	readonly flow: FlowRun | null;
	/** The kickoff's `webhooks` and `humanInputWebhook`, without their secrets (auth: the strategy only). Carried over on resume. Not enumerable (JSON and toEqual skip it). */
	readonly callbacks: {
		stream: { url: string; events: string[]; realtime: boolean; auth: 'bearer' | null } | null;
		humanInput: { url: string; auth: 'bearer' | 'basic' | null } | null;
	};
}

/** One element of an event stream delivery `{"events": [...]}` (WS). */
export interface StreamEvent {
	id: string;
	/** The kickoff_id. */
	execution_id: string;
	/** ISO 8601 with ms, service clock; each event of a run at least 1 ms after the one before. */
	timestamp: string;
	/**
	 * crew_kickoff_started, task_started, tool_usage_started, tool_usage_finished, task_completed,
	 * task_failed, report_draft_ready (a user-defined event), crew_kickoff_completed
	 * (data.output: the final TaskOutput with raw and json_dict; data.total_tokens), crew_kickoff_failed (data.error).
	 */
	type: string;
	data: Record<string, unknown>;
}

/** A signed flow feedback request and the answers its callback_url got. */
export interface FeedbackRequestRecord {
	id: string;
	kickoffId: string;
	taskId: TaskId;
	/** Every POST with a right token and a feedback string: 200 for the first, 409 after. */
	answers: Array<{ feedback: string; status: 200 | 409 }>;
}

export interface ResumeRecord {
	/** Service clock. */
	at: number;
	taskId: TaskId;
	/** human_feedback, tokens redacted; '' when none was sent. */
	feedback: string;
	approved: boolean;
	/** The URLs this resume sent: the only ones called from then on (the kickoff's are not carried over). */
	webhooks: { taskWebhookUrl?: string; stepWebhookUrl?: string; crewWebhookUrl?: string };
}

/** Sent to stepWebhookUrl: two per task, at 1/3 and 2/3 of it. */
export interface StepWebhookPayload {
	prompt: string;
	thought: string;
	tool: string;
	/** A JSON text, as CrewAI sends it. */
	tool_input: string;
	result: string;
	kickoff_id: string;
	/** The kickoff's meta verbatim (tokens redacted), null when it sent none. */
	meta: unknown;
}

/** Sent to taskWebhookUrl when a task finishes (and when a human-input pause starts). */
export interface TaskWebhookPayload {
	description: string;
	/** 'research' | 'analysis' | 'report' (the wild record's last_executed_task.name). */
	name: string;
	expected_output: string;
	/** The description's first ten words + '...'. */
	summary: string;
	agent: string;
	output: string;
	/** The plan's resultJson for report_task, else null. */
	output_json: object | null;
	kickoff_id: string;
	meta: unknown;
}

/** Sent to crewWebhookUrl at the end of a 'success' or 'failure' run (never for 'never' or 'revoked'). */
export interface CrewWebhookPayload {
	kickoff_id: string;
	/** The final result (with ` (feedback: ...)` after an approving resume); null for a failed run. */
	result: string | null;
	/** null for a failed run. */
	result_json: object | null;
	/** 320 prompt + 110 completion tokens per step run (6 steps, +2 per rejected resume). */
	token_usage: { total_tokens: number; prompt_tokens: number; completion_tokens: number };
	meta: unknown;
	/** Only for a failed run (not documented: no failure payload is shown, docs/development/service-api.md#legacy-webhooks): the failure text. */
	error?: string;
}

/** Sent to humanInputWebhook.url as a run pauses (LHITL names these in prose only; the keys are ours). */
export interface HumanInputPayload {
	execution_id: string;
	task_id: TaskId;
	output: string;
}

/**
 * Dialect 'live': sent to the kickoff's top-level humanInputWebhookUrl as a run pauses, with no
 * Authorization header (docs/development/service-api.md, "Live"). task_id is a UUID (one per task and run), which
 * the live /resume takes as taskId (the task's name is taken too). execution_id is the kickoff_id.
 */
export interface LiveHumanInputPayload {
	kickoff_id: string;
	execution_id: string;
	task_id: string;
	task_output: string;
	meta: unknown;
}

export interface WebhookDelivery {
	kind: WebhookKind;
	url: string;
	kickoffId: string;
	/** Real time (Date.now()) of the call, not the service clock. */
	at: number;
	payload:
		| StepWebhookPayload
		| TaskWebhookPayload
		| CrewWebhookPayload
		| { events: StreamEvent[] }
		| HumanInputPayload
		| LiveHumanInputPayload
		| Record<string, unknown>;
	/** How the call was authenticated: bearer or basic (stream, human input), signature (flow feedback); absent for none (legacy URLs). */
	auth?: 'bearer' | 'basic' | 'signature';
	/** The receiver's HTTP status; null while in flight or when no answer came. */
	status: number | null;
	/** Set when no answer came: connection error, 'timed out after 5000 ms', 'not sent: ...', 'cancelled: ...'. */
	error?: string;
}

export interface Fault {
	/** 'any' also matches unknown paths, never the /_reference/ admin routes. */
	route:
		| 'inputs'
		| 'kickoff'
		| 'status'
		| 'resume'
		| 'stop'
		| 'files'
		| 'fileDownload'
		| ChatRoute
		| 'any';
	/**
	 * Only with route 'status': strike only requests at this path spelling ('contract' `/{id}/status`,
	 * 'wild' `/status/{id}`). Without it a status fault strikes either spelling, served or not, as a
	 * proxy in front of the service would; with the served spelling it models the service's own
	 * status route failing, while the router still answers the other spelling's bare 404.
	 */
	spelling?: 'contract' | 'wild';
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
	/** status only: the error's message is the request body as received, as a debugging proxy's error page shows it (secrets and all). */
	echoRequest?: boolean;
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
	/**
	 * Live list of every webhook call, in the order they were made (also GET /_reference/webhooks).
	 * Calls follow real time from the kickoff (or resume), never the injectable clock; one attempt,
	 * 5 s limit, no retry. A record is settled once status or error is set.
	 */
	readonly webhookDeliveries: WebhookDelivery[];
	/** Live list of signed flow feedback requests sent (also GET /_reference/feedback-requests). */
	readonly feedbackRequests: FeedbackRequestRecord[];
	/** A copy of every saved persisted-flow state, by state id (also GET /_reference/flow-states). reset() clears them. */
	/** POST /files uploads held, in order (no paths). Also GET /_reference/uploads. */
	readonly uploads: UploadRecord[];
	readonly flowStates: Record<string, FlowState>;
	/** The chat sessions, with their history and turns (also GET /_reference/chat/sessions). reset() forgets them. */
	readonly chatSessions: ChatSessionRecord[];
	/** Ends the held turns (chat.hold) of one session or all; returns how many. */
	releaseTurns(sessionId?: string): number;
	/**
	 * Runs kicked off from now on hold their real-time moments (webhook and event stream calls,
	 * human-input calls) until releaseMoments(): a test decides when they begin, whatever the
	 * machine's speed. Status records still follow the service clock (`now`). reset() stops holding.
	 */
	holdMoments(): void;
	/** Starts every held run's moments now (each at its offset from now) and stops holding; returns how many runs. */
	releaseMoments(): number;
	/**
	 * Resolves with webhookDeliveries as soon as predicate(webhookDeliveries) is true (checked now and
	 * on every new or settled delivery); rejects after timeoutMs (default 2000) listing what came, or on close().
	 */
	waitForWebhooks(
		predicate: (deliveries: WebhookDelivery[]) => boolean,
		timeoutMs?: number,
	): Promise<WebhookDelivery[]>;
	count(route: Route, method?: string): number;
	/** Queued; each matching request uses up the first matching fault. Throws on an invalid fault. */
	injectFault(fault: Fault): void;
	clearFaults(): void;
	/** Clears runs, requests, webhook deliveries, faults and saved flow states (arrays are emptied in place), cancels pending webhook calls and aborts those in flight. Options stay. */
	reset(): void;
	/** Stops listening, destroys every open socket (hanging ones included), cancels webhook timers and calls, rejects waitForWebhooks. Idempotent. */
	close(): Promise<void>;
}

export function startCrewService(options?: CrewServiceOptions): Promise<CrewService>;
