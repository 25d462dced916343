/**
 * n8n's binary data store as the n8n server sets it up: n8n-core's BinaryDataService
 * in the DI container, in filesystem mode (n8n 2.x's default: each file on disk
 * under the storage path, items carry an id) or in the in-memory mode (the file's
 * bytes as base64 in the item, n8n 1.x's `default`). Nodes reach it through
 * `this.helpers` (getBinaryStream, getBinaryMetadata), as they do in n8n.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import type { IBinaryData } from 'n8n-workflow';

export type BinaryDataMode = 'filesystem' | 'memory';

/** Where the tests' files go: a folder of their own, removed by `dispose`. */
export interface BinaryStore {
	mode: BinaryDataMode;
	storagePath: string;
	/** Stores the bytes as a trigger or the Read/Write Files from Disk node would, and gives the item's binary entry. */
	store(bytes: Buffer, fileName: string, mimeType: string): Promise<IBinaryData>;
	dispose(): void;
}

export async function useBinaryDataMode(mode: BinaryDataMode): Promise<BinaryStore> {
	const storagePath = fs.mkdtempSync(path.join(os.tmpdir(), 'crew-binary-'));
	const config = Container.get(BinaryDataConfig);
	config.mode = mode === 'filesystem' ? 'filesystem' : 'default';
	config.localStoragePath = storagePath;
	const service = Container.get(BinaryDataService);
	await service.init();
	return {
		mode,
		storagePath,
		async store(bytes, fileName, mimeType) {
			const binary = {
				data: '',
				fileName,
				mimeType,
				fileExtension: path.extname(fileName).slice(1),
			} as IBinaryData;
			return await service.store(
				{ type: 'execution', workflowId: 'crew-test-workflow', executionId: 'trigger' },
				bytes,
				binary,
			);
		},
		dispose() {
			fs.rmSync(storagePath, { recursive: true, force: true });
		},
	};
}

/** A file like a PDF: the `%PDF-` header, then bytes that differ by position (a hash notices any change). */
export function pdfLikeBytes(length: number, seed = 0): Buffer {
	const bytes = Buffer.alloc(length);
	const header = Buffer.from('%PDF-1.7\n%âãÏÓ\n');
	header.copy(bytes);
	for (let index = header.length; index < length; index++)
		bytes[index] = (index * 131 + seed * 17 + (index >> 8)) & 0xff;
	return bytes;
}
