import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          // The renderer's component tests run in the 'renderer' project (a DOM), not here.
          exclude: ['src/renderer/**/*.test.tsx', '**/node_modules/**'],
          environment: 'node',
          // Tests on real applications (Chromium, LibreOffice) take up to 30 s on a quiet 2-core machine; a loaded
          // CI machine may take twice that.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The renderer's panels and components, rendered in jsdom with React Testing Library over a fake transport.
        test: {
          name: 'renderer',
          include: ['src/renderer/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['src/renderer/src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          // What a page shows comes when the machine gets to it: a loaded CI machine takes seconds, not the default 1 s.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
