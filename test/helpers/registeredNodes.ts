import * as path from 'node:path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import packageJson from '../../package.json';

const ROOT = path.join(__dirname, '..', '..');

export interface RegisteredNode {
	/** As package.json's n8n.nodes names it. */
	distFile: string;
	/** Its source, relative to the repository. */
	filePath: string;
	/** Its source, absolute. */
	sourceFile: string;
	className: string;
	node: INodeType | IVersionedNodeType;
}

/** Each node n8n loads from package.json's n8n.nodes, as n8n finds it: the class named after its file. */
export function registeredNodes(
	distFiles: readonly string[] = packageJson.n8n.nodes,
): RegisteredNode[] {
	return distFiles.map((distFile) => {
		const filePath = distFile.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		const sourceFile = path.join(ROOT, filePath);
		const className = path.basename(filePath, '.node.ts');
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const exported = require(sourceFile) as Record<
			string,
			new () => INodeType | IVersionedNodeType
		>;
		const NodeClass = exported[className];
		return { distFile, filePath, sourceFile, className, node: new NodeClass() };
	});
}
