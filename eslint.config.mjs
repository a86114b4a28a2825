// Lint rules of the project (docs/architecture.md, "House rules"): typescript-eslint's strict,
// type-aware set; React's rules of hooks and exhaustive deps; jsx-a11y for the SPA. Formatting is
// Prettier's job (`npm run format:check`), so no stylistic rule lives here.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.toolscope-test-*/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      // Numbers in messages and SQL fragments are how this code base writes text; other
      // non-strings (objects, null, unknown) in a template are still refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `onClick={() => setOpen(false)}` is the React idiom; a void value used anywhere else is refused.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // A parameter named `_…` is unused on purpose: XState's placeholder actions declare the
      // params' type (`signIn: (_, _params: { user: User }) => {}`) and the app provides the body.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON answers (`res.json()` is `any` by design: the test checks the shape) and
    // assert presence before use; the unsafe-any family and `!` would only add casts there.
    files: ['test/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // gpt-tokenizer exports its internals (the split pattern a test compares with) under the
      // `require` condition only: an import cannot resolve them.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^gpt-tokenizer/cjs/'] }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'test/client/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.strict,
    languageOptions: { ...jsxA11y.flatConfigs.strict.languageOptions, globals: { ...globals.browser } },
    rules: {
      ...jsxA11y.flatConfigs.strict.rules,
      // A form dialog (or a sign-in page, the screen's one task) puts focus in its first field: the
      // WAI-ARIA dialog pattern moves focus into a dialog when it opens, and MUI's TextField passes
      // autoFocus to its input. A bare DOM element with autoFocus is still refused.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'test/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { ...globals.node } },
  },
);
