// Lints texts as if they were files of this repository, with its own ESLint
// configuration, and prints each text's messages as JSON. A child process of the
// tests: ESLint loads its flat config with import(), which Jest's module sandbox
// does not allow.
import { ESLint } from 'eslint';

const input = await new Promise((resolve) => {
	let text = '';
	process.stdin.setEncoding('utf8');
	process.stdin.on('data', (chunk) => (text += chunk));
	process.stdin.on('end', () => resolve(text));
});
const eslint = new ESLint({ cwd: process.cwd() });
const results = [];
for (const { filePath, text } of JSON.parse(input)) {
	const [result] = await eslint.lintText(text, { filePath });
	results.push({
		filePath,
		messages: result.messages.map(({ ruleId, message, line }) => ({ ruleId, message, line })),
	});
}
process.stdout.write(JSON.stringify(results));
