import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// main: the Electron shell (the engine is bundled in); preload: CommonJS, as sandboxed preloads must be;
// renderer: the React UI, also served by `proctor serve` from out/renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The display worker is its own entry: it runs in a child process (nut.js binds to one display per process).
      lib: {
        entry: { index: resolve('src/main/app/index.ts'), worker: resolve('src/main/env/local/worker.ts') },
      },
      rollupOptions: {
        external: [
          '@nut-tree-fork/nut-js',
          'sharp',
          'screenshot-desktop',
          'dbus-next',
          '@duckdb/node-api',
          'sql.js',
          'playwright-core',
        ],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve('src/preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    },
  },
  renderer: {
    root: 'src/renderer',
    build: { outDir: 'out/renderer', rollupOptions: { input: resolve('src/renderer/index.html') } },
    plugins: [react()],
  },
});
