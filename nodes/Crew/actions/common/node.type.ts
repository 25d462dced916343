/**
 * The Crew node's operations, by their parameter values: what the router
 * dispatches on and what shapes a tool's answer. In a module of its own, so the
 * router and the helpers it calls share it without importing each other.
 */
export type CrewOperation =
	| 'getInputs'
	| 'kickoff'
	| 'getStatus'
	| 'kickoffAndWait'
	| 'resume'
	| 'stop'
	| 'answerFeedback'
	| 'sendMessage';

/** The Crew node's resources, by their parameter values: what each Operation menu is shown for. */
export type CrewResource = 'crew' | 'conversation' | 'feedbackRequest';
