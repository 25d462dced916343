import type { INodeProperties } from 'n8n-workflow';

import * as answer from './answer.operation';
import { operationMenu } from '../common/operationMenu';
import type { CrewOperationModule } from '../common/operationModule';
import type { CrewOperation } from '../common/node.type';

/** The Flow Feedback Request resource: a request the Crew Trigger received, answered once. */
export const description: INodeProperties[] = [
	operationMenu(
		'feedbackRequest',
		[
			{
				name: 'Answer',
				value: 'answerFeedback',
				description: 'Answer the request by its callback URL, once',
				action: 'Answer a flow feedback request',
			},
		],
		'answerFeedback',
	),
	...answer.description,
];

/** Each operation by its value, for the router to look up. */
export const operations = { answerFeedback: answer } satisfies Partial<
	Record<CrewOperation, CrewOperationModule>
>;
