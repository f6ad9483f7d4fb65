// One lint over the whole tree (`npm run lint`). Syntax-only rules: type-aware linting is too slow on 2 cores.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/prerender-dist/',
      '**/data/',
      'api/drizzle/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Input sanitising matches control characters on purpose (file names, free text).
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Only the two classic hook rules: the plugin's React Compiler rules are a separate decision.
    files: ['**/*.tsx', '**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.tsx'],
    rules: {
      // ARCHITECTURE: no HTML from data — the summary's markup is rendered as React elements.
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'No HTML from data: render React elements instead of dangerouslySetInnerHTML.',
        },
      ],
    },
  },
  {
    // shared-ui is built into each app (docs/federation.md): a context made there is one per app, so
    // the shell's provider would never reach a remote's view. Cross-app contexts live in shared-auth.
    files: ['shared-ui/src/**/*.ts', 'shared-ui/src/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'No HTML from data: render React elements instead of dangerouslySetInnerHTML.',
        },
        {
          selector: "CallExpression[callee.name='createContext'], CallExpression[callee.property.name='createContext']",
          message: 'No React context in shared-ui: each app has its own copy. A context crossing apps belongs in shared-auth.',
        },
      ],
    },
  },
  {
    // CommonJS config files (jest configs, transforms).
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      // A CommonJS module may name a local after a Node global (const crypto = require('node:crypto')).
      'no-redeclare': ['error', { builtinGlobals: false }],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/jest.setup.js', 'api/src/test/**', 'api/src/quality/**'],
    languageOptions: { globals: globals.jest },
    // Test doubles and fixtures read loosely shaped JSON.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
