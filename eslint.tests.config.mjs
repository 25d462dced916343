// The lint for everything that does not ship: tests, the benchmark, the e2e
// scripts, the reference crew service and the build files. The shipped code
// (nodes/, credentials/, package.json) is linted by eslint.config.mjs, which
// must stay n8n's default config word for word: `n8n-node lint` and
// `n8n-node cloud-support` compare its text with n8n's template and call the
// package ineligible for n8n Cloud verification if it differs. So this second
// config exists, and `npm run lint` runs both.
import js from '@eslint/js';
import { globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	globalIgnores([
		'dist/',
		'coverage/',
		'**/node_modules/',
		// Linted by eslint.config.mjs with n8n's rules.
		'nodes/',
		'credentials/',
		// What the e2e run leaves behind.
		'test/e2e/.tmp/',
		'test/e2e/screenshots/',
	]),
	{
		// Any TypeScript under test/ or bench/, present or added later: typed through
		// tsconfig.test.json, which includes both folders.
		files: ['test/**/*.ts', 'bench/**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
		languageOptions: {
			parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', ignoreRestSiblings: true },
			],
			// Tests read untyped JSON from real HTTP servers and check it with expect();
			// `any` is the honest type there, and typing every body would only restate the assertions.
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unsafe-argument': 'off',
			'@typescript-eslint/no-unsafe-assignment': 'off',
			'@typescript-eslint/no-unsafe-call': 'off',
			'@typescript-eslint/no-unsafe-member-access': 'off',
			'@typescript-eslint/no-unsafe-return': 'off',
			// Fakes implement n8n's async interfaces (sleep, getCredentials) without awaiting anything.
			'@typescript-eslint/require-await': 'off',
		},
	},
	{
		// The e2e scripts, the reference crew service and the build files: CommonJS for Node.
		files: ['**/*.js'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
		rules: {
			'no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
		},
	},
	{
		files: ['**/*.mjs'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'module', globals: globals.node },
	},
);
