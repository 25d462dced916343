import type { INodeProperties } from 'n8n-workflow';

import * as sendMessage from './sendMessage.operation';
import { operationMenu } from '../common/operationMenu';
import type { CrewOperationModule } from '../common/operationModule';
import type { CrewOperation } from '../common/node.type';

/** The Conversation resource: a deployed conversational flow, one turn per message. */
export const description: INodeProperties[] = [
	operationMenu(
		'conversation',
		[
			{
				name: 'Send Message',
				value: 'sendMessage',
				description: 'Send one message to a conversational flow and return its reply',
				action: 'Send a message to a conversational flow',
			},
		],
		'sendMessage',
	),
	...sendMessage.description,
];

/** Each operation by its value, for the router to look up. */
export const operations = { sendMessage } satisfies Partial<
	Record<CrewOperation, CrewOperationModule>
>;
