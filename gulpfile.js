const path = require('path');
const { task, src, dest } = require('gulp');

// tsc only emits JavaScript; n8n loads the node's and the credential's icons
// from dist/, next to the compiled files, so they are copied there.
task('build:icons', copyIcons);

function copyIcons() {
	const nodeSource = path.resolve('nodes', '**', '*.{png,svg}');
	const nodeDestination = path.resolve('dist', 'nodes');

	src(nodeSource).pipe(dest(nodeDestination));

	const credentialSource = path.resolve('credentials', '**', '*.{png,svg}');
	const credentialDestination = path.resolve('dist', 'credentials');

	return src(credentialSource).pipe(dest(credentialDestination));
}
