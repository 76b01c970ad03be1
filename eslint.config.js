import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import { readdirSync } from 'node:fs';
import { URL } from 'node:url';

const serverFeatures = readdirSync(new URL('./packages/server/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** Tests and their support seed and read any table; the import rules are for the running server. */
const SERVER_TEST_SUPPORT = [
  '**/*.test.ts',
  '**/test/**',
  '**/*test-helpers.ts',
  '**/*.test-kit.ts',
  '**/*.fixture.ts',
  '**/*-test-*.ts',
  '**/*.suite.ts',
];

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
  // Server folders (docs/architecture.md): a feature imports another feature only through its public entry (its
  // *.service.ts files), and only its own tables (db/schema/<feature>.ts); the platform imports no feature.
  // src/architecture.test.ts proves each rule fires, and fails on any folder-level import loop.
  ...serverFeatures.map((feature) => ({
    files: [`packages/server/src/features/${feature}/**/*.ts`],
    ignores: SERVER_TEST_SUPPORT,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../app*', '../../main*'], message: 'Features do not import the app.' },
            {
              regex: '^\\.\\./(?!\\.)[\\w-]+/(?![\\w.-]+\\.service\\.ts$)',
              message: "Use the other feature's service (its *.service.ts), not its repositories or internals.",
            },
            {
              regex: '(^|/)db/schema\\.ts$',
              message: `Import this feature's tables from db/schema/${feature}.ts; other tables belong to their owners.`,
            },
            {
              regex: `(^|/)db/schema/(?!${feature}\\.ts$|columns\\.ts$)[\\w-]+\\.ts$`,
              message: `Only the owner uses a table: ${feature} owns db/schema/${feature}.ts; ask the owner's service.`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['packages/server/src/platform/**/*.ts'],
    ignores: SERVER_TEST_SUPPORT,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)features/',
              message: 'The platform imports no feature: features plug in through the app context (ctx.registry).',
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
    // withTransaction (db/transaction.ts) gives a typed transaction; a cast hides a wrong database handle.
    files: ['packages/server/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'TSAsExpression[expression.type="TSAsExpression"][expression.typeAnnotation.type="TSUnknownKeyword"][typeAnnotation.typeName.name="Db"]',
          message: 'No `as unknown as Db`: a transaction from withTransaction (db/transaction.ts) is a Db already.',
        },
        {
          selector:
            'TSAsExpression[expression.type="TSAsExpression"][expression.typeAnnotation.type="TSUnknownKeyword"][typeAnnotation.exprName.right.name="db"]',
          message: 'No `as unknown as typeof ctx.db`: use withTransaction (db/transaction.ts).',
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
