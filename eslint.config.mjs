import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const vscodeImport = {
  selector: "ImportDeclaration[source.value='vscode'][importKind='value']",
  message: "Use `import vscode = require('vscode')` (an ES import copies the API object per file).",
};
/** The properties of what the workbench shows: items, inputs, status items, panels, messages. */
const shown = '/^(title|placeHolder|placeholder|prompt|tooltip|label|detail|description|message|text)$/';
/** Two English words, as written in a sentence. */
const words = '/[A-Za-z]{2,} [A-Za-z]/';
/**
 * An import that leaves a feature's folder for another feature's (`depth`: how many folders the
 * importing file is below src/features/<name>/, so `../` once more than that reaches src/features/).
 * src/features/shared/ is the one folder every feature may import.
 */
const otherFeature = (depth) => ({
  regex: `^(\\.\\./){${depth + 1}}(?!shared(/|$))[^./]`,
  message: "No feature imports another feature's folder: a flow two features share lives in src/features/shared/.",
});
/** The depths of the files below a feature's folder that the rule knows (src/features/<name>/a/b/c/file.ts is 3). */
const featureDepths = [0, 1, 2, 3];

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
    // No function in a feature over 60 lines from its first line to its last (a feature's activate
    // included): a longer one is split by what it does.
    files: ['src/features/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
  {
    // The VS Code API is taken as it is: `import vscode = require('vscode')`. An ES import of it
    // makes esbuild copy every property of the API object into a new one, once per importing file
    // (77 copies when the features bundle loads).
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^vscode$'] }],
      'no-restricted-syntax': ['error', vscodeImport],
    },
  },
  {
    // What the workbench shows goes through vscode.l10n.t (whose every string the unit tests find
    // translated): English words written straight into a message, a title, a prompt, a label or a
    // status item would reach a zh-CN user untranslated.
    files: ['src/features/**/*.ts', 'src/extension.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        vscodeImport,
        {
          selector: `CallExpression[callee.property.name=/^show(Information|Warning|Error)Message$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]`,
          message: 'A message shown to the user is vscode.l10n.t(…), translated in l10n/bundle.l10n.zh-cn.json.',
        },
        {
          selector: `Property[key.name=${shown}] > Literal.value[value=${words}]`,
          message: 'Text shown in the workbench is vscode.l10n.t(…), translated in l10n/bundle.l10n.zh-cn.json.',
        },
        {
          selector: `AssignmentExpression[left.property.name=${shown}][right.type='Literal'][right.value=${words}]`,
          message: 'Text shown in the workbench is vscode.l10n.t(…), translated in l10n/bundle.l10n.zh-cn.json.',
        },
      ],
    },
  },
  // A feature imports its own folder, src/features/shared/ and the pure folders below, never
  // another feature's folder (src/features/index.ts, the registry that activates every feature, is
  // in no feature's folder).
  ...featureDepths.map((depth) => ({
    files: [`src/features/*/${'*/'.repeat(depth)}*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [otherFeature(depth)] }] },
  })),
  {
    // The search flow's steps (src/features/search/steps/) import the session's shared state
    // (state.ts, input.ts, items.ts) and the shared folders, never one another: a step goes on to
    // another through its context's `steps`, which the session wires.
    files: ['src/features/search/steps/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            otherFeature(1),
            {
              regex: '^\\./',
              message: "A search step imports no other step: it reaches one through its context's `steps`.",
            },
          ],
        },
      ],
    },
  },
  {
    // ...and only the session (session.ts) imports the steps.
    files: ['src/features/search/*.ts'],
    ignores: ['src/features/search/session.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            otherFeature(0),
            { regex: '^\\./steps/', message: 'Only the session (session.ts) imports the search steps.' },
          ],
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
