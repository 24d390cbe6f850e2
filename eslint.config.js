// ESLint with typescript-eslint (`npm run lint`, run by .ci/run). The recommended rules, with a reason on each rule
// turned off. Type-aware rules run on the four source folders only: over test/ too they cost a third more time.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'snapshots/', 'test/fixtures/', 'cli/templates/', 'runtime/static/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended, tseslint.configs.stylistic],
    rules: {
      // `string[]` for a simple element, `Array<{ … }>` / `ReadonlyArray<A | B>` for a composite one.
      '@typescript-eslint/array-type': ['error', { default: 'array-simple' }],
      // `import type` when every name is a type, `type X` inline when mixed; `import('…').T` types name a module
      // loaded lazily without loading it.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Off: a type alias is kept where a value must be assignable to Record<string, unknown> (an interface is not).
      '@typescript-eslint/consistent-type-definitions': 'off',
      // Off: empty methods are the no-op implementations of an interface (a store's `close`, a check's `defect`).
      '@typescript-eslint/no-empty-function': 'off',
      // Off: tsc reports unused names (noUnusedLocals, noUnusedParameters) and lets `_name` through.
      '@typescript-eslint/no-unused-vars': 'off',
      // Off: control characters in these regular expressions are what they look for (input refused, text cleaned).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['compiler/**/*.ts', 'runtime/**/*.ts', 'emitters/**/*.ts', 'cli/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeCheckedOnly, tseslint.configs.stylisticTypeCheckedOnly],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Off: async functions without await implement an async contract (a check, a transport's send).
      '@typescript-eslint/require-await': 'off',
      // Off: `String(value)` is how a value of type unknown (a database cell, a JSON field) becomes text here.
      '@typescript-eslint/no-base-to-string': 'off',
      // Off: what it still reports would change a result (`x !== null && x.some(…)` is a boolean, `x?.some(…)` is not).
      '@typescript-eslint/prefer-optional-chain': 'off',
      // Off: `||` is used where an empty string falls back too, which `??` would not do.
      '@typescript-eslint/prefer-nullish-coalescing': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
    rules: {
      // tsc does not read these files: unused names are reported here, `_name` let through as tsc does.
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Off: as for TypeScript (scripts/test.mjs strips terminal colours).
      'no-control-regex': 'off',
    },
  },
);
