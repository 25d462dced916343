import type { INodeProperties } from 'n8n-workflow';

import { STARTING_OPERATIONS } from './inputs.description';
import {
	beforeVersion,
	fromVersion,
	HUMAN_IN_THE_LOOP_VERSION,
} from '../../../versions/crewVersions';

const fieldName: INodeProperties = {
	displayName: 'File Field Name',
	name: 'fieldName',
	type: 'string',
	default: '',
	placeholder: 'e.g. document',
	description:
		"The name of the crew's file input (a flow's file-typed state field) this file is for",
};

const sendFilesModes = [
	{
		name: 'With the Kickoff',
		value: 'multipart',
		description:
			'The files travel in the kickoff request itself (multipart/form-data), as the service recommends',
	},
	{
		name: 'Upload First',
		value: 'upload',
		description:
			'Each file is uploaded to the service (POST /files) first; the kickoff then names the uploads',
	},
	{
		name: 'File URLs',
		value: 'urls',
		description:
			'The kickoff names files already hosted elsewhere by their URLs; the service downloads them',
	},
];

const starting = { operation: STARTING_OPERATIONS };

/**
 * Files to send with the kickoff: from the item's binary data, or as URLs of files hosted
 * elsewhere. From node version 1.5 a switch, off until turned on (as n8n's HTTP Request does with
 * Send Body), with How to Send beside it; earlier versions open with How to Send as "Send Files"
 * and an empty Files list, as they were saved. Either way the mode is the parameter `sendFiles`,
 * and a Files list the panel hides is not stored, so the reading (itemFiles.ts) is the same for
 * every version.
 */
export const filesFields: INodeProperties[] = [
	{
		displayName: 'Send Files',
		name: 'withFiles',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description:
			"Whether to send files with the kickoff: from the item's binary data, or as URLs the service downloads",
		displayOptions: { show: { ...starting, '@version': [fromVersion(HUMAN_IN_THE_LOOP_VERSION)] } },
	},
	{
		displayName: 'How to Send',
		name: 'sendFiles',
		type: 'options',
		noDataExpression: true,
		options: sendFilesModes,
		default: 'multipart',
		description: 'How the files reach the crew',
		displayOptions: {
			show: {
				...starting,
				withFiles: [true],
				'@version': [fromVersion(HUMAN_IN_THE_LOOP_VERSION)],
			},
		},
	},
	{
		displayName: 'Send Files',
		name: 'sendFiles',
		type: 'options',
		noDataExpression: true,
		options: sendFilesModes,
		default: 'multipart',
		description: 'How files reach the crew. Only used when Files lists any.',
		displayOptions: {
			show: { ...starting, '@version': [beforeVersion(HUMAN_IN_THE_LOOP_VERSION)] },
		},
	},
	{
		displayName: 'Files',
		name: 'files',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add File',
		default: {},
		description: "Files from the item's binary data, each for one of the crew's file inputs",
		displayOptions: { show: { ...starting, sendFiles: ['multipart', 'upload'] } },
		options: [
			{
				displayName: 'File',
				name: 'file',
				values: [
					fieldName,
					{
						displayName: 'Input Data Field Name',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						description: 'The name of the input field containing the binary file data to be sent',
					},
				],
			},
		],
	},
	{
		displayName: 'Files',
		name: 'fileUrls',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add File URL',
		default: {},
		description: "Files the service downloads, each for one of the crew's file inputs",
		displayOptions: { show: { ...starting, sendFiles: ['urls'] } },
		options: [
			{
				displayName: 'File',
				name: 'file',
				values: [
					fieldName,
					{
						displayName: 'URL',
						name: 'url',
						type: 'string',
						default: '',
						placeholder: 'e.g. https://example.com/report.pdf',
						description: 'Where the service downloads the file from: an http(s) URL it can reach',
					},
				],
			},
		],
	},
];
