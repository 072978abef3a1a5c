#!/usr/bin/env node
// Writes src/shared/generated/*.ts (TypeScript types) from Proctor's own JSON Schemas in resources/schemas: the
// schemas are the one source of the stored formats' types. `--check` compares instead of writing (exit 1 on drift).
//
// Handles the subset the schemas use: type (also a list), enum, const, properties/required, additionalProperties,
// items, anyOf/oneOf, local and cross-file $ref, `allOf` of `{if: {properties: {<d>: {const|enum}}}, then}` (a union
// discriminated by <d>; values whose branches agree are grouped) and `allOf` of a $ref (its fields merged in).
// `title` on a sub-schema (a definition, a `then`) names its own exported type; descriptions become doc comments.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIX = 'npm run gen:types';

/** Proctor's own stored formats: schema file → generated module and its root type. */
export const targets = [
  { schema: 'run-manifest.schema.json', out: 'run-manifest.ts', name: 'RunManifest' },
  { schema: 'run-plan.schema.json', out: 'run-plan.ts', name: 'RunPlan' },
  { schema: 'run-step.schema.json', out: 'run-step.ts', name: 'StoredStep' },
  { schema: 'run-verdict.schema.json', out: 'run-verdict.ts', name: 'Verdict' },
  { schema: 'run-event.schema.json', out: 'run-event.ts', name: 'StoredRunEvent' },
  { schema: 'summary.schema.json', out: 'summary.ts', name: 'TaskSummary' },
  { schema: 'judge-output.schema.json', out: 'judge-output.ts', name: 'JudgeOutput' },
  { schema: 'split.schema.json', out: 'split.ts', name: 'SplitFile' },
  { schema: 'trajectory-export.schema.json', out: 'trajectory-export.ts', name: 'TrajectoryExport' },
];

const pascal = (s) => s.replace(/(^|[-_ ])(\w)/g, (_, __, c) => c.toUpperCase());
const lit = (v) =>
  typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(v);
const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : lit(k));
const doc = (d, indent = '') => (d ? `${indent}/** ${d.replace(/\*\//g, '*\\/')} */\n` : '');
const union = (parts) => [...new Set(parts)].join(' | ') || 'never';

/** One schema file's generator: named types collected in `decls`, cross-file types in `imports`. */
function moduleFor(target, bySchema) {
  const schema = bySchema.get(target.schema).schema;
  const decls = new Map();
  const imports = new Map();
  const where = (ptr) => `${target.schema}#${ptr}`;

  function resolveRef(ref, ptr) {
    if (ref.startsWith('#/definitions/')) {
      const name = ref.slice('#/definitions/'.length);
      const s = schema.definitions?.[name];
      if (!s) throw new Error(`${where(ptr)}: $ref ${ref} names no definition`);
      return { name: s.title ?? pascal(name), schema: s, ptr: `/definitions/${name}` };
    }
    const [fileRef, pointer = ''] = ref.split('#');
    const other = bySchema.get(fileRef);
    if (!other) throw new Error(`${where(ptr)}: $ref ${ref} is not one of the generated schemas (targets)`);
    if (!pointer) return { external: other };
    const target = pointer
      .split('/')
      .slice(1)
      .reduce((s, k) => s?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], other.schema);
    if (!target?.title) throw new Error(`${where(ptr)}: $ref ${ref} must point at a sub-schema with a title`);
    return { external: { name: target.title, out: other.out } };
  }

  /** A named type for a sub-schema (declared once). */
  function named(name, s, ptr) {
    if (!decls.has(name)) {
      decls.set(name, null); // reserve: recursion and repeated refs see the name
      const body = typeOf(s, ptr, true);
      decls.set(
        name,
        isObjectBody(body)
          ? `${doc(s.description)}export interface ${name} ${body}\n`
          : `${doc(s.description)}export type ${name} = ${body};\n`,
      );
    }
    return name;
  }

  /** Fields (properties, required) of an object schema with its `allOf: [{$ref}]` parts merged in. */
  function fieldsOf(s, ptr) {
    const props = {};
    const required = new Set();
    for (const [i, part] of (s.allOf ?? []).entries()) {
      if (part.if) continue;
      const r = part.$ref ? resolveRef(part.$ref, `${ptr}/allOf/${i}`) : { schema: part };
      if (r.external) throw new Error(`${where(ptr)}: allOf may merge only local definitions`);
      const sub = fieldsOf(r.schema, r.ptr ?? `${ptr}/allOf/${i}`);
      Object.assign(props, sub.props);
      sub.required.forEach((k) => required.add(k));
    }
    Object.assign(props, s.properties ?? {});
    (s.required ?? []).forEach((k) => required.add(k));
    return { props, required };
  }

  function objectLiteral(props, required, extra, ptr) {
    const lines = Object.entries(props).map(
      ([k, p]) =>
        `${doc(p.description, '  ')}  ${key(k)}${required.has(k) ? '' : '?'}: ${typeOf(p, `${ptr}/properties/${k}`)};`,
    );
    if (extra) lines.push(...extra);
    return lines.length ? `{\n${lines.join('\n')}\n}` : 'Record<string, unknown>';
  }

  /** `allOf` of if/then on one discriminating property: one variant per group of values with the same branches. */
  function discriminated(s, ptr) {
    const branches = s.allOf
      .map((b, i) => ({ b, i }))
      .filter(({ b }) => b.if)
      .map(({ b, i }) => {
        const entries = Object.entries(b.if.properties ?? {});
        if (entries.length !== 1 || Object.keys(b.if).length !== 1)
          throw new Error(
            `${where(`${ptr}/allOf/${i}/if`)}: only {properties: {<one field>: …}} is supported`,
          );
        const [d, cond] = entries[0];
        const values = 'const' in cond ? [cond.const] : cond.enum;
        if (!values) throw new Error(`${where(`${ptr}/allOf/${i}/if`)}: the field needs const or enum`);
        return { d, values, then: b.then ?? {}, ptr: `${ptr}/allOf/${i}/then` };
      });
    const d = branches[0].d;
    if (branches.some((b) => b.d !== d))
      throw new Error(`${where(ptr)}: every if of allOf must test the same field`);
    const base = fieldsOf(s, ptr);
    const baseD = base.props[d] ?? {};
    const all = baseD.enum ?? [...new Set(branches.flatMap((b) => b.values))];
    const groups = new Map();
    for (const v of all) {
      const hit = branches.filter((b) => b.values.includes(v));
      const id = hit.map((b) => b.ptr).join(',');
      if (!groups.has(id)) groups.set(id, { values: [], hit });
      groups.get(id).values.push(v);
    }
    const variants = [...groups.values()].map(({ values, hit }) => {
      const props = { ...base.props };
      const required = new Set([...base.required, d]);
      delete props[d];
      for (const h of hit) {
        const f = fieldsOf(h.then, h.ptr);
        Object.assign(props, f.props);
        f.required.forEach((k) => required.add(k));
      }
      const body = objectLiteral(props, required, undefined, ptr).replace(
        /^\{\n/,
        `{\n  ${key(d)}: ${union(values.map(lit))};\n`,
      );
      const title = hit.length === 1 ? hit[0].then.title : undefined;
      if (!title) return body;
      if (!decls.has(title))
        decls.set(title, `${doc(hit[0].then.description)}export interface ${title} ${body}\n`);
      return title;
    });
    return variants.join('\n  | ');
  }

  function typeOf(s, ptr, top = false) {
    if (s === true || s === undefined || (typeof s === 'object' && Object.keys(s).length === 0))
      return 'unknown';
    if (s.$ref) {
      const r = resolveRef(s.$ref, ptr);
      if (r.external) {
        imports.set(r.external.name, r.external.out);
        return r.external.name;
      }
      return named(r.name, r.schema, r.ptr);
    }
    if (!top && s.title) {
      if (!/^[A-Z][A-Za-z0-9]*$/.test(s.title))
        throw new Error(`${where(ptr)}: title '${s.title}' must be a type name (PascalCase)`);
      return named(s.title, s, ptr);
    }
    if ('const' in s) return lit(s.const);
    if (s.enum) return union(s.enum.map(lit));
    if (s.anyOf || s.oneOf) {
      const k = s.anyOf ? 'anyOf' : 'oneOf';
      return union(s[k].map((x, i) => typeOf(x, `${ptr}/${k}/${i}`)));
    }
    if (s.allOf?.some((b) => b.if)) return discriminated(s, ptr);
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : [];
    if (!types.length) return 'unknown';
    return union(
      types.map((t) => {
        if (t === 'integer' || t === 'number') return 'number';
        if (t === 'string' || t === 'boolean' || t === 'null') return t;
        if (t === 'array') return s.items ? `${wrap(typeOf(s.items, `${ptr}/items`))}[]` : 'unknown[]';
        if (t === 'object') {
          const { props, required } = fieldsOf(s, ptr);
          const ap = s.additionalProperties;
          if (!Object.keys(props).length && ap && ap !== true)
            return `Record<string, ${typeOf(ap, `${ptr}/additionalProperties`)}>`;
          return objectLiteral(props, required, undefined, ptr);
        }
        throw new Error(`${where(ptr)}: type '${t}' is not supported`);
      }),
    );
  }

  const body = typeOf(schema, '', true);
  const rootDecl = isObjectBody(body)
    ? `${doc(schema.title)}export interface ${target.name} ${body}\n`
    : `${doc(schema.title)}export type ${target.name} =\n  | ${body};\n`;
  const head =
    `// Generated by scripts/gen-schema-types.mjs from resources/schemas/${target.schema}: do not edit, ` +
    `change the schema and run \`${FIX}\`.\n`;
  const imps = [...imports]
    .sort()
    .map(([n, out]) => `import type { ${n} } from './${out.replace(/\.ts$/, '')}';\n`)
    .join('');
  return head + imps + '\n' + rootDecl + '\n' + [...decls.values()].join('\n');
}

const isObjectBody = (t) => t.startsWith('{\n') && t.endsWith('}') && !t.includes('}\n  | ');
const wrap = (t) => (/[|&]/.test(t) && !/^\{[\s\S]*\}$/.test(t) ? `(${t})` : t);

/** Every generated module's text, formatted as the repository's prettier config says: out file → text. */
export async function generate() {
  const bySchema = new Map(
    targets.map((t) => [
      t.schema,
      { ...t, schema: JSON.parse(readFileSync(join(root, 'resources/schemas', t.schema), 'utf8')) },
    ]),
  );
  const options = { ...(await prettier.resolveConfig(join(root, 'src/shared/x.ts'))), parser: 'typescript' };
  const result = new Map();
  for (const t of targets) result.set(t.out, await prettier.format(moduleFor(t, bySchema), options));
  return result;
}

async function cli() {
  const args = process.argv.slice(2);
  const outDir = args.includes('--out')
    ? resolve(args[args.indexOf('--out') + 1])
    : join(root, 'src/shared/generated');
  const files = await generate();
  if (args.includes('--check')) {
    const stale = [...files].filter(([f, text]) => {
      const p = join(outDir, f);
      return !existsSync(p) || readFileSync(p, 'utf8') !== text;
    });
    if (stale.length) {
      console.error(
        `${stale.map(([f]) => join(outDir, f)).join(', ')}: not what resources/schemas says. ` +
          `Run \`${FIX}\` and commit the result (never edit generated files by hand).`,
      );
      process.exit(1);
    }
    console.log(`${files.size} generated files up to date`);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  for (const [f, text] of files) writeFileSync(join(outDir, f), text);
  console.log(`wrote ${files.size} files to ${outDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await cli();
