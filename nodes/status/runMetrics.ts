import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../records/plainObject';

/** The tokens a run used, as the service counted them: what users pay for. */
export interface CrewUsage extends IDataObject {
	total_tokens: number | null;
	prompt_tokens: number | null;
	completion_tokens: number | null;
}

/**
 * How far a run has come. Crews count tasks and know their total; flows count steps and never know
 * a total (docs/development/service-api.md#result-error-usage-progress-flow-state), so `total` is
 * null there and a reader shows a count, not a fraction.
 */
export interface CrewProgress extends IDataObject {
	unit: 'task' | 'step';
	completed: number | null;
	total: number | null;
	/** The task (crews) or method (flows) the run is on now. */
	current: string | null;
	/** The agent working on the current task, when the service names one. */
	current_agent: string | null;
}

function count(value: unknown): number | null {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * Token counts from `usage_metrics` (the live status record) or `token_usage`
 * (the crew webhook's name for the same counts). Undefined when the record
 * carries neither, so a record without counts stays as it was.
 */
export function readUsage(record: IDataObject): CrewUsage | undefined {
	const counts = isPlainObject(record.usage_metrics)
		? record.usage_metrics
		: isPlainObject(record.token_usage)
			? record.token_usage
			: undefined;
	if (!counts) return undefined;
	const usage: CrewUsage = {
		total_tokens: count(counts.total_tokens),
		prompt_tokens: count(counts.prompt_tokens),
		completion_tokens: count(counts.completion_tokens),
	};
	return usage.total_tokens === null &&
		usage.prompt_tokens === null &&
		usage.completion_tokens === null
		? undefined
		: usage;
}

/**
 * Progress from the live platform shape (`progress: {unit, completed, total,
 * current, current_agent}`) or the documented one (`progress: {completed_tasks,
 * total_tasks}` beside `current_task`). Undefined when the record tells nothing
 * (older deployments send `progress: null`).
 */
export function readProgress(record: IDataObject): CrewProgress | undefined {
	const progress = isPlainObject(record.progress) ? record.progress : {};
	const unit = progress.unit === 'step' ? 'step' : 'task';
	const read: CrewProgress = {
		unit,
		completed: count(progress.completed) ?? count(progress.completed_tasks),
		// A flow's total is always null live; never invent one from `remaining`.
		total: unit === 'step' ? null : (count(progress.total) ?? count(progress.total_tasks)),
		current: text(progress.current) ?? text(record.current_task),
		current_agent: text(progress.current_agent),
	};
	const tellsSomething =
		read.completed !== null ||
		read.total !== null ||
		read.current !== null ||
		read.current_agent !== null;
	return tellsSomething ? read : undefined;
}
