import type { INodeProperties } from 'n8n-workflow';

import * as answer from './answer.operation';

/** The Flow Feedback Request resource: a request the Crew Trigger received, answered once. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['feedbackRequest'] } },
		options: [
			{
				name: 'Answer',
				value: 'answerFeedback',
				description: 'Answer the request by its callback URL, once',
				action: 'Answer a flow feedback request',
			},
		],
		default: 'answerFeedback',
	},
	...answer.description,
];
