// typescript-eslint's recommended rules (syntax-only: fast enough to lint the whole tree in CI) over every
// TypeScript and JavaScript source of the workspace; `pnpm lint` runs it, and a test fails on any finding.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tmp/**',
      'packages/core/src/model/generated/**',
      'packages/ops-wasm/src/generated/**',
      'packages/ops-wasm/assembly/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      // `_name` marks a parameter or binding kept for its position or documentation.
      // `self`, `stage`, `delegate` name the object whose methods a registration literal closes over (its `this` is the literal).
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self', 'stage', 'delegate'] }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // TypeScript resolves names itself (typescript-eslint's advice); plain scripts run in Node.
    files: ['**/*.ts'],
    rules: {
      'no-undef': 'off',
      // An optional package's import can be an error in one build and not in another.
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': 'allow-with-description' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
      },
    },
  },
);
