// Components, views and panels reach the engine only through src/renderer/src/data (the store, useCall, perform,
// fileUrl, onRunEvent): a file there that imports the transport or calls a client itself fails this test.
// The check reads the source files, as a lint rule would (it runs in Node).
// eslint-disable-next-line no-restricted-imports
import { readdirSync, readFileSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ui = new URL('..', import.meta.url).pathname;
const FOLDERS = ['components', 'views', 'panels'];

/** What counts as reaching the transport: importing it, or a call on a client object or the preload bridge. */
const DIRECT = [
  { what: 'imports the transport', re: /from\s+['"](?:\.\.?\/)+(?:src\/)?transport['"]/ },
  { what: 'imports the static transport', re: /from\s+['"](?:\.\.?\/)+static-transport['"]/ },
  { what: 'calls a client', re: /\bclient\s*\.\s*(?:call|subscribe|fileUrl)\s*\(/ },
  { what: 'uses the preload bridge', re: /\bwindow\s*\.\s*proctor\b/ },
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/** Each direct use in a file's text, as `path:line: what`. */
function directUses(path: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const d of DIRECT) if (d.re.test(line)) found.push(`${path}:${i + 1}: ${d.what}`);
  });
  return found;
}

describe('the door to the engine', () => {
  it('finds each kind of direct use in a file (so the check below can fail)', () => {
    const bad = [
      "import { client } from '../transport';",
      "import { staticClient } from '../static-transport';",
      "  client.call('runs.list', {}).then(setRuns);",
      "  const off = client.subscribe('run', onEvent);",
      '  <img src={client.fileUrl(path)} />',
      "  window.proctor?.call('labels.me', {});",
    ].join('\n');
    expect(directUses('views/Bad.tsx', bad)).toEqual([
      'views/Bad.tsx:1: imports the transport',
      'views/Bad.tsx:2: imports the static transport',
      'views/Bad.tsx:3: calls a client',
      'views/Bad.tsx:4: calls a client',
      'views/Bad.tsx:5: calls a client',
      'views/Bad.tsx:6: uses the preload bridge',
    ]);
    expect(
      directUses('views/Good.tsx', "import { perform } from '../data/engine';\nuseCall('runs.list', {});"),
    ).toEqual([]);
  });

  it('no component, view or panel calls the transport: they read through data/ (useCall, perform, fileUrl)', () => {
    const files = FOLDERS.flatMap((f) => sources(join(ui, f)));
    expect(files.length).toBeGreaterThan(30);
    const uses = files.flatMap((f) => directUses(relative(ui, f), readFileSync(f, 'utf8')));
    expect(uses, 'use src/renderer/src/data (useCall, perform, fileUrl, onRunEvent) instead').toEqual([]);
  });
});
