// Prints, for every src/main folder, the engine folders it imports (value and type-only apart) and the folder cycles.
// Usage: node eslint-rules/measure-layers.mjs [--tests] [--json] [--all] [--deep]
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { deepImports, findCycles, importGraph } from './import-graph.mjs';

const mainDir = resolve(dirname(fileURLToPath(import.meta.url)), '../src/main');
const graph = importGraph(mainDir, { withTests: process.argv.includes('--tests') });
const units = [...graph.keys()].sort();
const edges = Object.fromEntries(
  units.map((u) => [u, [...new Set([...graph.get(u).value.keys(), ...graph.get(u).type.keys()])].sort()]),
);
const valueEdges = Object.fromEntries(units.map((u) => [u, [...graph.get(u).value.keys()].sort()]));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(edges, null, 2));
} else {
  for (const u of units) {
    const { value, type } = graph.get(u);
    const typeOnly = [...type.keys()].filter((t) => !value.has(t)).sort();
    console.log(
      `${u.padEnd(16)} ${[...value.keys()].sort().join(' ')}${typeOnly.length ? `   (types only: ${typeOnly.join(' ')})` : ''}`,
    );
  }
  const show = (label, cycles) => {
    console.log(`\n${label}: ${cycles.length}`);
    for (const c of cycles) {
      const hops = c.map((a, i) => {
        const b = c[(i + 1) % c.length];
        const files = [...(graph.get(a).value.get(b) ?? []), ...(graph.get(a).type.get(b) ?? [])];
        return `  ${a} → ${b}: ${[...new Set(files)].slice(0, 4).join(', ')}${files.length > 4 ? ` (+${files.length - 4})` : ''}`;
      });
      console.log(`${c.join(' → ')} → ${c[0]}\n${hops.join('\n')}`);
    }
  };
  const all = findCycles(edges);
  console.log(
    `\nelementary folder cycles: ${all.length} (value imports only: ${findCycles(valueEdges).length})`,
  );
  show(
    'two-folder cycles',
    all.filter((c) => c.length === 2),
  );
  if (process.argv.includes('--all')) show('all cycles', all);
  const { total, deep } = deepImports(mainDir);
  console.log(
    `\ncross-folder imports: ${total}; past a folder's index.ts (into a folder that has one): ${deep.length}`,
  );
  if (process.argv.includes('--deep')) for (const d of deep) console.log(`  ${d.file}: ${d.spec}`);
}
