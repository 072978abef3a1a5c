// The engine's folder graph: which top-level src/main folders (and top-level files) each folder imports, and its cycles.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The top-level unit of src/main a path (absolute) lies in: a folder name, or a top-level file's name without .ts; null outside. */
export function unitOf(mainDir, absPath) {
  const rel = relative(mainDir, absPath);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) return null;
  const [first, ...rest] = rel.split(sep);
  return rest.length > 0 ? first : first.replace(/\.(ts|tsx|js|mjs)$/, '');
}

/** Whether a file is a test or a test helper (these may import what the folder itself may not). */
export function isTestFile(relPath) {
  return /\.test\.tsx?$/.test(relPath) || relPath.split(/[\\/]/).includes('testing');
}

const importRe = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g;
const dynamicRe = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative module specifiers a source file names: { spec, typeOnly }. */
export function importsOf(code) {
  const out = [];
  for (const m of code.matchAll(importRe)) out.push({ spec: m[3], typeOnly: Boolean(m[2]) });
  for (const m of code.matchAll(dynamicRe)) out.push({ spec: m[1], typeOnly: false });
  return out.filter((i) => i.spec.startsWith('.'));
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/**
 * For each unit of src/main: the units it imports, as { value: Map<unit, files>, type: Map<unit, files> }
 * (type-only imports apart), counting product files only unless `withTests`.
 */
export function importGraph(mainDir, { withTests = false } = {}) {
  mainDir = resolve(mainDir);
  const graph = new Map();
  for (const file of walk(mainDir)) {
    const rel = relative(mainDir, file);
    if (!withTests && isTestFile(rel)) continue;
    const from = unitOf(mainDir, file);
    if (!graph.has(from)) graph.set(from, { value: new Map(), type: new Map() });
    for (const { spec, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      const to = unitOf(mainDir, resolve(dirname(file), spec));
      if (to === null || to === from) continue;
      const bucket = graph.get(from)[typeOnly ? 'type' : 'value'];
      if (!bucket.has(to)) bucket.set(to, []);
      bucket.get(to).push(`${rel}`);
    }
  }
  return graph;
}

/**
 * Cross-folder imports of product files that reach past a folder's public surface: the target folder has an
 * index.ts and the import names a file inside it rather than the folder. Returns { total, deep: [{file, spec}] }.
 */
export function deepImports(mainDir) {
  mainDir = resolve(mainDir);
  let total = 0;
  const deep = [];
  for (const file of walk(mainDir)) {
    const rel = relative(mainDir, file);
    if (isTestFile(rel)) continue;
    const from = unitOf(mainDir, file);
    for (const { spec } of importsOf(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec);
      const to = unitOf(mainDir, target);
      if (
        to === null ||
        to === from ||
        (relative(mainDir, target).split(sep).length === 1 && !isDirectory(target))
      )
        continue;
      total += 1;
      const surface = join(mainDir, to);
      if (
        isDirectory(surface) &&
        existsFile(join(surface, 'index.ts')) &&
        target !== surface &&
        target !== join(surface, 'index')
      )
        deep.push({ file: rel, spec });
    }
  }
  return { total, deep };
}

function isDirectory(p) {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
function existsFile(p) {
  return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
}

/** The elementary cycles of a graph { node: [node…] } found by DFS, each as a list of nodes (smallest first, deduplicated). */
export function findCycles(edges) {
  const cycles = new Map();
  const nodes = Object.keys(edges).sort();
  for (const start of nodes) {
    const stack = [[start, [start]]];
    while (stack.length > 0) {
      const [node, path] = stack.pop();
      for (const next of edges[node] ?? []) {
        if (next === start) {
          const min = path.reduce((a, b) => (a < b ? a : b));
          if (min !== start) continue;
          cycles.set(path.join(' → '), path);
        } else if (!path.includes(next) && next > start && path.length < 6) {
          stack.push([next, [...path, next]]);
        }
      }
    }
  }
  return [...cycles.values()];
}
