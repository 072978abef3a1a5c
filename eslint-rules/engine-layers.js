// ESLint rule `proctor/engine-layers`: each import in src/main is resolved to its top-level folder and checked
// against the folder's list in src/main/layers.json (the engine's allow-list of layers).
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const isDirCache = new Map();
function isDir(path) {
  if (!isDirCache.has(path))
    isDirCache.set(path, statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false);
  return isDirCache.get(path);
}

/** The layers table at `file`: { folders: {folder: [folder…]} }, checked for shape. */
export function readLayers(file) {
  const table = JSON.parse(readFileSync(file, 'utf8'));
  const bad = (what) => new Error(`${file}: ${what}`);
  if (typeof table.folders !== 'object' || table.folders === null)
    throw bad('"folders" must map each engine folder to the folders it may import');
  for (const [folder, uses] of Object.entries(table.folders)) {
    if (!Array.isArray(uses) || uses.some((u) => typeof u !== 'string'))
      throw bad(`/folders/${folder} must be a list of folder names`);
  }
  if ('pending' in table)
    throw bad(
      '"pending" is gone: every import follows the table (move the helper to the folder it belongs to)',
    );
  return table;
}

/** Where `absPath` lies in the engine at `mainDir`: {unit, topFile} (a top-level file is its own base unit), or null outside. */
export function placeOf(mainDir, absPath) {
  const rel = relative(mainDir, absPath);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return null;
  const [first, ...rest] = rel.split(sep);
  if (rest.length > 0 || isDir(resolve(mainDir, first))) return { unit: first, topFile: false, rel };
  return { unit: first.replace(/\.(ts|tsx|js|mjs)$/, ''), topFile: true, rel };
}

const toPosix = (p) => p.split(sep).join('/');

export default {
  meta: {
    type: 'problem',
    docs: { description: 'An engine folder imports only the folders src/main/layers.json lists for it.' },
    schema: [
      {
        type: 'object',
        properties: { mainDir: { type: 'string' }, table: { type: 'string' } },
        additionalProperties: false,
      },
    ],
    messages: {
      notListed:
        "src/main/{{from}}/ may not import src/main/{{to}}/ ('{{spec}}'): src/main/layers.json lets {{from}}/ use only [{{allowed}}]. Move the helper to the folder it belongs to, or add '{{to}}' to that list if the table stays free of cycles.",
      noEntry:
        "src/main/{{from}}/ has no entry in src/main/layers.json, so it may import no other engine folder ('{{spec}}' reaches {{to}}/): declare the folders it may use there.",
      baseUp:
        "{{file}} is a top-level file of src/main, the engine's base that every folder may import: it imports only other top-level files, not src/main/{{to}}/ ('{{spec}}'). Move it into the folder it serves.",
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const cwd = context.cwd ?? context.getCwd();
    const mainDir = resolve(cwd, options.mainDir ?? 'src/main');
    const table = readLayers(resolve(cwd, options.table ?? 'src/main/layers.json'));
    const filename = context.filename ?? context.getFilename();
    const here = placeOf(mainDir, filename);
    if (here === null) return {};

    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const there = placeOf(mainDir, resolve(dirname(filename), source.value));
      if (there === null || there.unit === here.unit) return;
      const data = { from: here.unit, to: there.unit, spec: source.value, file: toPosix(here.rel) };
      if (here.topFile) {
        if (!there.topFile) context.report({ node: source, messageId: 'baseUp', data });
        return;
      }
      if (there.topFile) return;
      const allowed = table.folders[here.unit];
      if (allowed === undefined) return context.report({ node: source, messageId: 'noEntry', data });
      if (allowed.includes(there.unit)) return;
      context.report({
        node: source,
        messageId: 'notListed',
        data: { ...data, allowed: allowed.join(', ') },
      });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => (node.source.type === 'Literal' ? check(node, node.source) : undefined),
      TSImportType: (node) => check(node, 'source' in node ? node.source : node.argument?.literal),
    };
  },
};
