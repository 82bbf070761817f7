// Lint: typed rules from typescript-eslint over every TypeScript file the
// project compiles. Zero warnings is the bar (`npm run lint` fails on any).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'spec/output/**', 'spec/package-install/apps/**', 'bench/.no-publish/**', 'bench/.built/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      // One program from tsconfig.json, which includes every linted TypeScript file (a file
      // outside it is an error, not a slow fallback); the project service spends a third more
      // time on a clean cache for the same rules and the same answers.
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-unused-expressions': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  {
    // CommonJS files (the test suite's module map target for undici).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', exports: 'writable', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The example app's event page runs in the browser, beside the Socket.IO client script.
    files: ['example-app/public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', URL: 'readonly', fetch: 'readonly', setTimeout: 'readonly', io: 'readonly' },
    },
  },
);
