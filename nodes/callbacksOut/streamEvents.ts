/**
 * The event types of the service's Event Streaming, as its documentation publishes them
 * (docs/development/service-api.md#event-streaming), in the groups the Crew node requests and the
 * Crew Trigger filters by. Names on older or translated pages that exist nowhere in CrewAI's source
 * (crew_step_started, crew_execution_completed, …) are left out on purpose: the service would never
 * send them.
 */
export const STREAM_EVENT_GROUPS = {
	/** The end of a run: a crew's result or failure, a flow's result or failing method. */
	runFinished: [
		'crew_kickoff_completed',
		'crew_kickoff_failed',
		'flow_finished',
		'method_execution_failed',
	],
	crew: [
		'crew_kickoff_started',
		'crew_kickoff_completed',
		'crew_kickoff_failed',
		'crew_train_started',
		'crew_train_completed',
		'crew_train_failed',
		'crew_test_started',
		'crew_test_completed',
		'crew_test_failed',
		'crew_test_result',
	],
	task: ['task_started', 'task_completed', 'task_failed', 'task_evaluation'],
	agent: [
		'agent_execution_started',
		'agent_execution_completed',
		'agent_execution_error',
		'lite_agent_execution_started',
		'lite_agent_execution_completed',
		'lite_agent_execution_error',
		'agent_logs_started',
		'agent_logs_execution',
		'agent_evaluation_started',
		'agent_evaluation_completed',
		'agent_evaluation_failed',
		'agent_reasoning_started',
		'agent_reasoning_completed',
		'agent_reasoning_failed',
	],
	llm: [
		'llm_call_started',
		'llm_call_completed',
		'llm_call_failed',
		'llm_stream_chunk',
		'llm_guardrail_started',
		'llm_guardrail_completed',
	],
	tool: [
		'tool_usage_started',
		'tool_usage_finished',
		'tool_usage_error',
		'tool_validate_input_error',
		'tool_selection_error',
		'tool_execution_error',
	],
	flow: [
		'flow_created',
		'flow_started',
		'flow_finished',
		'flow_plot',
		'method_execution_started',
		'method_execution_finished',
		'method_execution_failed',
	],
	memory: [
		'memory_query_started',
		'memory_query_completed',
		'memory_query_failed',
		'memory_save_started',
		'memory_save_completed',
		'memory_save_failed',
		'memory_retrieval_started',
		'memory_retrieval_completed',
		'knowledge_search_query_started',
		'knowledge_search_query_completed',
		'knowledge_search_query_failed',
		'knowledge_query_started',
		'knowledge_query_completed',
		'knowledge_query_failed',
	],
} as const;

export type StreamEventGroup = keyof typeof STREAM_EVENT_GROUPS;

export const STREAM_EVENT_GROUP_NAMES = Object.keys(STREAM_EVENT_GROUPS) as StreamEventGroup[];

/**
 * Names that appear on outdated pages of the vendor's docs but are never sent, with
 * the name to use instead, so a user who copied one is told rather than left waiting.
 */
export const NONEXISTENT_EVENT_TYPES: Readonly<Record<string, string>> = {
	crew_step_started: 'task_started or agent_execution_started',
	crew_step_completed: 'task_completed or agent_execution_completed',
	crew_execution_completed: 'crew_kickoff_completed',
	tool_usage_completed: 'tool_usage_finished',
};

export function isStreamEventGroup(value: string): value is StreamEventGroup {
	return Object.prototype.hasOwnProperty.call(STREAM_EVENT_GROUPS, value);
}

/**
 * The groups a type belongs to (a terminal type is in runFinished and its own family); none for an
 * unknown type.
 */
export function groupsOfEventType(type: string): StreamEventGroup[] {
	return STREAM_EVENT_GROUP_NAMES.filter((group) =>
		(STREAM_EVENT_GROUPS[group] as readonly string[]).includes(type),
	);
}
