import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/migrations/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Imports flow one way: shared -> features -> app; shared imports nothing of ours.
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@studybuddy/server*', '@studybuddy/web*', '../../*'] }],
    },
  },
  {
    // Features do not import the app, nor each other's internals: only another feature's service
    // (or the auth session helpers every feature needs).
    files: ['packages/server/src/features/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../app*', '../../main*'], message: 'Features do not import the app.' },
            {
              regex: '^\\.\\./(?!\\.)(?!auth/session\\.ts$)[\\w-]+/(?![\\w.-]+\\.service\\.ts$)',
              message: "Use the other feature's service, not its internals.",
            },
          ],
        },
      ],
    },
  },
  {
    // Web features lean on no other feature's internals: another feature is imported only through its public
    // entry (index.ts), and never the app. import-boundaries.test.ts proves the rule fires and finds no loop.
    files: ['packages/web/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../app/*', '../../main*'], message: 'Features do not import the app.' },
            {
              regex: '^\\.\\./(?!\\.)[\\w-]+/(?!index\\.ts$)',
              message: 'Import another feature only through its public entry (../<feature>/index.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The app composes the features through their public entries (route pages are loaded lazily by the router).
    files: ['packages/web/src/app/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./features/[\\w-]+/(?!index\\.ts$)',
              message: 'Import a feature only through its public entry (../features/<feature>/index.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // lib/ and ui/ are below the features: they import neither a feature nor the app.
    files: ['packages/web/src/lib/**/*.{ts,tsx}', 'packages/web/src/ui/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../features/*', '../app/*'], message: 'lib/ and ui/ import no feature and not the app.' },
          ],
        },
      ],
    },
  },
  {
    // Server and shared regexes see user text: none may take super-linear time (issue 13: one quadratic
    // pattern held the event loop for minutes). regex-lint.test.ts fails if these rules go.
    files: ['packages/server/src/**/*.ts', 'packages/shared/src/**/*.ts'],
    plugins: { regexp },
    rules: {
      ...regexp.configs['flat/recommended'].rules,
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignorePartial: false }],
      // Style only: explicit classes like [A-Za-z0-9_-] read as well as \w, and an unused group costs nothing.
      'regexp/prefer-w': 'off',
      'regexp/use-ignore-case': 'off',
      'regexp/no-unused-capturing-group': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', '.ci/**'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        fetch: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
);
