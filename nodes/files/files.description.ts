import type { INodeProperties } from 'n8n-workflow';

import { STARTING_OPERATIONS } from '../kickoff/inputs.description';

const fieldName: INodeProperties = {
	displayName: 'File Field Name',
	name: 'fieldName',
	type: 'string',
	default: '',
	placeholder: 'e.g. document',
	description: 'The name of the crew\'s file input (a flow\'s file-typed state field) this file is for',
};

/** Files to send with the kickoff: from the item's binary data, or as URLs of files hosted elsewhere. */
export const filesFields: INodeProperties[] = [
	{
		displayName: 'Send Files',
		name: 'sendFiles',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'With the Kickoff',
				value: 'multipart',
				description: 'The files travel in the kickoff request itself (multipart/form-data), as the service recommends',
			},
			{
				name: 'Upload First',
				value: 'upload',
				description: 'Each file is uploaded to the service (POST /files) first; the kickoff then names the uploads',
			},
			{
				name: 'File URLs',
				value: 'urls',
				description: 'The kickoff names files already hosted elsewhere by their URLs; the service downloads them',
			},
		],
		default: 'multipart',
		description: 'How files reach the crew. Only used when Files lists any.',
		displayOptions: { show: { operation: STARTING_OPERATIONS } },
	},
	{
		displayName: 'Files',
		name: 'files',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add File',
		default: {},
		description: 'Files from the item\'s binary data, each for one of the crew\'s file inputs',
		displayOptions: { show: { operation: STARTING_OPERATIONS, sendFiles: ['multipart', 'upload'] } },
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
		description: 'Files the service downloads, each for one of the crew\'s file inputs',
		displayOptions: { show: { operation: STARTING_OPERATIONS, sendFiles: ['urls'] } },
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
