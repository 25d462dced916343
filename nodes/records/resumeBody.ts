import type { IDataObject } from 'n8n-workflow';

import { webhookFields } from './kickoffBody';
import type { WebhookUrls } from './kickoffBody';
import { isPlainObject } from './plainObject';

/** What a resume sends again: the legacy webhook URLs, and the live service's human-input URL. */
export interface ResumeUrls extends WebhookUrls {
	humanInputWebhookUrl?: string;
}

export interface ResumeRequest extends ResumeUrls {
	kickoffId: string;
	taskId: string;
	humanFeedback: string;
	isApprove: boolean;
}

/**
 * The body of `POST /resume`, every field in both spellings: the documents give
 * snake_case, the hosted service refused it (422, `executionId` and `taskId`
 * "Field required") and took camelCase; the feedback and approval fields' live
 * spelling is not recorded, and FastAPI ignores fields it does not know. The
 * service does not carry the kickoff's webhook URLs over to the resumed run, so
 * they are sent again here.
 */
export function buildResumeBody(request: ResumeRequest): IDataObject {
	const body: IDataObject = {
		executionId: request.kickoffId,
		execution_id: request.kickoffId,
		taskId: request.taskId,
		task_id: request.taskId,
		humanFeedback: request.humanFeedback,
		human_feedback: request.humanFeedback,
		isApprove: request.isApprove,
		is_approve: request.isApprove,
		...webhookFields(request),
	};
	const humanInputWebhookUrl = request.humanInputWebhookUrl?.trim();
	if (humanInputWebhookUrl) body.humanInputWebhookUrl = humanInputWebhookUrl;
	return body;
}

/**
 * The kickoff ID of the run a resume started, when the answer names one: the
 * hosted service answers `{"kickoff_id": "<new id>"}`, the documented one
 * `{"status": "resumed", ...}` (the run keeps its ID; undefined here).
 */
export function readResumedRunId(answer: unknown): string | undefined {
	if (!isPlainObject(answer)) return undefined;
	const id = answer.kickoff_id ?? answer.kickoffId;
	return typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined;
}
