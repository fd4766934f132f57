import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'out/**', '.vscode-test/**', 'node_modules/**', 'test-output/**', '**/*.mjs', 'media/**/*.js'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // Test fixtures that are extensions of their own (CommonJS, as VS Code loads them).
    files: ['test/fixtures/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Files small enough to read in one sitting (src/ includes the webview code, src/webview/).
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 450, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The VS Code API is taken as it is: `import vscode = require('vscode')`. An ES import of it
    // makes esbuild copy every property of the API object into a new one, once per importing file
    // (77 copies when the features bundle loads).
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^vscode$'] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='vscode'][importKind='value']",
          message: "Use `import vscode = require('vscode')` (an ES import copies the API object per file).",
        },
      ],
    },
  },
  {
    // Everything but the VS Code side is plain Node: testable without VS Code, shared with the CLI.
    files: ['src/**/*.ts'],
    ignores: ['src/features/**', 'src/extension.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'This layer never imports vscode.' }] }],
    },
  },
);
