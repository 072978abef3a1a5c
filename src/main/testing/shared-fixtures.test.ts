// The fixture-path helper: the in-repo set is complete, PROCTOR_SHARED=none hides the full set, and no test
// reaches ../shared by its own path (each goes through this helper, so each says when it is skipped).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  projectRoot,
  repoFixtures,
  sharedFixtures,
  sharedFixturesRoot,
  ufoExecutionSchema,
} from './shared-fixtures';

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...testFiles(p));
    else if (/\.test\.tsx?$/.test(name) || /\/testing\//.test(p)) out.push(p);
  }
  return out;
}

describe('sharedFixtures', () => {
  const saved = process.env.PROCTOR_SHARED;
  afterEach(() => {
    if (saved === undefined) delete process.env.PROCTOR_SHARED;
    else process.env.PROCTOR_SHARED = saved;
  });

  it('reports the full fixtures absent with PROCTOR_SHARED=none, and present exactly when they are beside the clone', () => {
    process.env.PROCTOR_SHARED = 'none';
    expect(sharedFixtures()).toBeUndefined();
    delete process.env.PROCTOR_SHARED;
    const beside =
      existsSync(join(sharedFixturesRoot, 'spider2v', 'examples')) &&
      existsSync(join(sharedFixturesRoot, 'seed-format', 'examples', 'jupyter'));
    expect(sharedFixtures()?.root).toBe(beside ? sharedFixturesRoot : undefined);
  });

  it('keeps the in-repo fixtures with their licenses beside them', () => {
    for (const dir of [repoFixtures.spider2vExamples, repoFixtures.seedJupyter])
      expect(readdirSync(dir).length).toBeGreaterThan(0);
    expect(readFileSync(join(repoFixtures.spider2v, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(readFileSync(join(repoFixtures.root, 'seed-format', 'LICENSE.md'), 'utf8')).toContain(
      'Permission is hereby granted',
    );
    expect(readFileSync(join(ufoExecutionSchema, '..', 'LICENSE'), 'utf8')).toContain('MIT License');
  });

  it('is the only way tests reach ../shared', () => {
    const self = join(projectRoot, 'src/main/testing/shared-fixtures.ts');
    const offenders = testFiles(join(projectRoot, 'src'))
      .filter(
        (f) =>
          f !== self &&
          /\.\.\/shared\/(fixtures|spec)|['"]shared['"],\s*['"](fixtures|spec)['"]/.test(
            readFileSync(f, 'utf8'),
          ),
      )
      .map((f) => relative(projectRoot, f));
    expect(
      offenders,
      'read ../shared through src/main/testing/shared-fixtures.ts (sharedFixtures(), needsShared)',
    ).toEqual([]);
  });
});
