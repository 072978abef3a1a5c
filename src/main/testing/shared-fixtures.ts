// Where tests find task files: the small set kept in the repository (fixtures/) and, when a checkout of the full
// benchmark fixtures sits beside the clone (../shared/fixtures), that full set. PROCTOR_SHARED=none hides it.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** The layout both fixture sets share: Spider2-V's examples and split files, the native seed tasks. */
export interface FixtureSet {
  root: string;
  /** Spider2-V: examples/ and its split files (test_one.json, …). */
  spider2v: string;
  spider2vExamples: string;
  /** The native seed format: examples/jupyter/<uuid>/. */
  seedExamples: string;
  seedJupyter: string;
}

function fixtureSet(root: string): FixtureSet {
  return {
    root,
    spider2v: join(root, 'spider2v'),
    spider2vExamples: join(root, 'spider2v', 'examples'),
    seedExamples: join(root, 'seed-format', 'examples'),
    seedJupyter: join(root, 'seed-format', 'examples', 'jupyter'),
  };
}

/** The fixtures inside the repository (see fixtures/README.md): always present. */
export const repoFixtures: FixtureSet = fixtureSet(join(projectRoot, 'fixtures'));

/** UFO's execution schema, kept in the repository with its license. */
export const ufoExecutionSchema = join(projectRoot, 'fixtures', 'ufo', 'execution_schema.json');

/** Where the full benchmark fixtures would be: ../shared/fixtures beside the clone. */
export const sharedFixturesRoot = resolve(projectRoot, '../shared/fixtures');

/**
 * The full benchmark fixtures, or undefined when they are not beside the clone (or PROCTOR_SHARED=none, which
 * CI sets to run the fixture-reading tests as a clone alone would).
 */
export function sharedFixtures(): FixtureSet | undefined {
  if (process.env.PROCTOR_SHARED === 'none') return undefined;
  const set = fixtureSet(sharedFixturesRoot);
  return existsSync(set.spider2vExamples) && existsSync(set.seedJupyter) ? set : undefined;
}

/** The reason to put in the name of a test that needs the full fixtures, so a skip says why. */
export const needsShared =
  'needs the full benchmark fixtures in ../shared/fixtures beside the clone; skipped without them';
