// Lint, including the import boundaries of architecture.md:
//  - only src/main/app (the Electron shell) and src/preload import 'electron';
//  - src/shared imports neither Node, nor the DOM-side code, nor electron;
//  - src/renderer imports only src/shared and its own files;
//  - inside the engine, per folder (as Playwright's DEPS.list): setup/, evaluators/, observe/ and runner/ reach
//    the machine only through the Environment interface (never env/local), runner/ does not import demo/, and
//    judge/ does not import cli/. Tests and testing/ helpers may build a concrete environment;
//  - and every engine folder imports only the folders src/main/layers.json lists for it (proctor/engine-layers,
//    eslint-rules/engine-layers.js); the table has no cycles.
//    eslint-boundaries.test.ts proves these rules fail on a violation.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import proctor from './eslint-rules/index.js';

/** The engine-wide import rule, with a folder's own forbidden imports added (flat config replaces, never merges, a rule's options). */
function engineImports(...extra) {
  return [
    'error',
    {
      paths: [{ name: 'electron', message: 'Only the Electron shell (src/main/app) imports electron.' }],
      patterns: [
        { group: ['**/renderer/**', '**/preload/**'], message: 'The engine does not import UI code.' },
        ...extra,
      ],
    },
  ];
}
const noLocalEnv = {
  group: ['**/env/local', '**/env/local/**'],
  message:
    'Reach the machine through the Environment interface (env/environment.ts) and its capabilities, not env/local; environments are made by env/kinds.ts.',
};
const engineFolderRules = [
  { folders: ['setup', 'evaluators', 'observe'], extra: [noLocalEnv] },
  {
    folders: ['runner'],
    extra: [
      noLocalEnv,
      {
        group: ['**/demo', '**/demo/**'],
        message: 'runner/ does not import demo/: features register themselves (e.g. setup/feature-funcs.ts).',
      },
    ],
  },
  {
    folders: ['judge'],
    extra: [
      {
        group: ['**/cli', '**/cli/**'],
        message: 'judge/ does not import cli/: command lines live in cli/ and call the judge.',
      },
    ],
  },
];

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'http',
  'https',
  'net',
  'url',
  'crypto',
  'stream',
  'util',
  'worker_threads',
];

/** The renderer's import rule: no electron, no Node, nothing of the engine or the preload; `extra` patterns beside. */
function rendererImports(...extra) {
  return [
    'error',
    {
      paths: [{ name: 'electron', message: 'The renderer talks only to src/shared/api.ts.' }],
      patterns: [
        { group: nodeBuiltins, message: 'The renderer has no Node.' },
        {
          group: ['**/main/**', '**/preload/**'],
          message: 'The renderer imports only src/shared and its own files.',
        },
        ...extra,
      ],
    },
  ];
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-eval': 'error',
      'no-new-func': 'error',
      'no-implied-eval': 'error',
    },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/app/**'],
    rules: { 'no-restricted-imports': engineImports() },
  },
  ...engineFolderRules.map(({ folders, extra }) => ({
    files: folders.map((f) => `src/main/${f}/**/*.ts`),
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: { 'no-restricted-imports': engineImports(...extra) },
  })),
  {
    files: ['src/main/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    plugins: { proctor },
    rules: { 'proctor/engine-layers': 'error' },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'src/shared is pure: no electron.' }],
          patterns: [
            { group: nodeBuiltins, message: 'src/shared is pure: no Node modules.' },
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**', 'react', 'react-dom'],
              message: 'src/shared imports only src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['resources/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': rendererImports(),
    },
  },
  {
    // Views, components and panels reach the engine only through the data layer (src/renderer/src/data: the store,
    // useCall, perform), never the transport itself (data/transport-door.test.ts checks the same by reading them).
    files: ['src/renderer/src/{components,views,panels}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': rendererImports({
        group: ['**/transport', '**/static-transport'],
        message:
          'Views reach the engine through src/renderer/src/data (useCall, perform), not the transport.',
      }),
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**'],
              message: 'The preload exposes src/shared/api.ts only.',
            },
          ],
        },
      ],
    },
  },
);
