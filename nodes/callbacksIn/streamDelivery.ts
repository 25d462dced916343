import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../records/plainObject';

/** One event of an Event Streaming delivery (`{"events": [...]}`), read defensively. */
export interface StreamEvent {
	id: string | null;
	execution_id: string | null;
	timestamp: string | null;
	type: string;
	data: IDataObject;
}

const textOrNull = (value: unknown) =>
	typeof value === 'string' && value !== ''
		? value
		: typeof value === 'number'
			? String(value)
			: null;

/** True for an event-stream delivery. */
export function isStreamDelivery(body: IDataObject): boolean {
	return Array.isArray(body.events);
}

/**
 * The events of one delivery, in the order they happened: the service sends them unordered
 * (docs/development/service-api.md#event-streaming), so they are sorted by timestamp (events
 * without one last, ties in arrival order), and an id seen twice is kept once. Entries that are not
 * objects are dropped; an event without a type is kept as "unknown".
 */
export function readStreamEvents(body: IDataObject): StreamEvent[] {
	const seen = new Set<string>();
	const events: Array<StreamEvent & { time: number; position: number }> = [];
	(body.events as unknown[]).forEach((raw, position) => {
		if (!isPlainObject(raw)) return;
		const id = textOrNull(raw.id);
		if (id !== null) {
			if (seen.has(id)) return;
			seen.add(id);
		}
		const timestamp = textOrNull(raw.timestamp);
		const time = timestamp === null ? NaN : Date.parse(timestamp);
		events.push({
			id,
			execution_id: textOrNull(raw.execution_id),
			timestamp,
			type: textOrNull(raw.type) ?? 'unknown',
			data: isPlainObject(raw.data) ? raw.data : {},
			time: Number.isNaN(time) ? Infinity : time,
			position,
		});
	});
	events.sort((a, b) => (a.time === b.time ? a.position - b.position : a.time < b.time ? -1 : 1));
	return events.map((event) => ({
		id: event.id,
		execution_id: event.execution_id,
		timestamp: event.timestamp,
		type: event.type,
		data: event.data,
	}));
}

/**
 * The outcome of a run-ending event in plain fields, so a workflow need not
 * know each event's data shape: status, then the result (a crew's final
 * output at data.output.raw, its structured output at data.output.json_dict,
 * a flow's data.result) or the failure reason (data.error).
 */
export function outcomeFields(event: StreamEvent): IDataObject {
	const { data } = event;
	switch (event.type) {
		case 'crew_kickoff_completed': {
			const output = data.output;
			const raw = isPlainObject(output) ? (output.raw ?? null) : (output ?? null);
			const json = isPlainObject(output) ? (output.json_dict ?? null) : null;
			return {
				status: 'completed',
				result: raw,
				result_json: json,
				total_tokens: data.total_tokens ?? null,
			};
		}
		case 'flow_finished':
			return { status: 'completed', result: data.result ?? null, state: data.state ?? null };
		case 'crew_kickoff_failed':
			return { status: 'failed', error: data.error ?? null };
		case 'method_execution_failed':
			return { status: 'failed', error: data.error ?? null, method_name: data.method_name ?? null };
		default:
			return {};
	}
}

/**
 * The item for one event: its type as `event`, the kickoff it belongs to, the envelope, the outcome
 * for terminal events.
 */
export function toStreamItem(event: StreamEvent): IDataObject {
	return { event: event.type, kickoff_id: event.execution_id, ...outcomeFields(event), ...event };
}
