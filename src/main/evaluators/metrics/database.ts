// check_local_database: compares two database files (DuckDB via @duckdb/node-api, SQLite via sql.js).
import { DuckDBInstance } from '@duckdb/node-api';
import initSqlJs from 'sql.js';
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { fail, metrics, pass, type MetricOutcome } from '../metric';
import { brief, isFile, stringList } from './inputs';

/** A read-only view of one database file. */
interface DatabaseFile {
  /** Table (or view) names, in name order. */
  objects(kind: 'table' | 'view', schema?: string): Promise<string[]>;
  /** Column descriptions in column order: name, type, nullability. */
  columns(name: string, schema?: string): Promise<unknown[]>;
  /** All rows, each as a list of JSON-friendly values. */
  rows(name: string, schema?: string): Promise<unknown[][]>;
  close(): void;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function openDuckDb(path: string): Promise<DatabaseFile> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const all = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
  // Without a schema, tables outside `main` are named `<schema>.<table>`.
  const split = (name: string, schema?: string): [string, string] => {
    if (schema) return [schema, name];
    const dot = name.indexOf('.');
    return dot < 0 ? ['main', name] : [name.slice(0, dot), name.slice(dot + 1)];
  };
  return {
    async objects(kind, schema) {
      const type = kind === 'table' ? 'BASE TABLE' : 'VIEW';
      const where = schema
        ? `table_schema = ${lit(schema)}`
        : `table_schema NOT IN ('information_schema', 'pg_catalog')`;
      const rows = await all(
        `SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = ${lit(type)} AND table_catalog = current_database() AND ${where}`,
      );
      return rows.map((r) => (schema || r[0] === 'main' ? String(r[1]) : `${r[0]}.${r[1]}`)).sort();
    },
    async columns(name, schema) {
      const [s, t] = split(name, schema);
      return all(
        `SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = ${lit(s)} AND table_name = ${lit(t)} ORDER BY ordinal_position`,
      );
    },
    async rows(name, schema) {
      const [s, t] = split(name, schema);
      return all(`SELECT * FROM ${quote(s)}.${quote(t)}`);
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

async function openSqlite(path: string): Promise<DatabaseFile> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(new Uint8Array(await readFile(path)));
  const all = (sql: string) => db.exec(sql)[0]?.values ?? [];
  const json = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v);
  return {
    async objects(kind) {
      return all(
        `SELECT name FROM sqlite_master WHERE type = ${lit(kind)} AND name NOT LIKE 'sqlite_%' ORDER BY name`,
      ).map((r) => String(r[0]));
    },
    async columns(name) {
      // cid, name, type, notnull, default, pk
      return all(`PRAGMA table_info(${quote(name)})`);
    },
    async rows(name) {
      return all(`SELECT * FROM ${quote(name)}`).map((r) => r.map(json));
    },
    close() {
      db.close();
    },
  };
}

const sortRows = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();

/**
 * check_local_database — `result`, `expected`: database file paths. Options: `db_type` (`duckdb` default,
 * or `sqlite3` / `sqlite`); `check_type` (list of `table`, `view`, `table-schema`, `view-schema`,
 * `table-schema-content`, `view-schema-content`; default `[table, view]`; a content check implies the
 * schema check, which implies the names check); `table_targets` / `view_targets` (only these names; default
 * all); `schema_name` (DuckDB schema to look in; default all user schemas). Names compare as sorted lists,
 * schemas column by column, contents as multisets of rows (SQL tables have no order; upstream compares in
 * scan order).
 */
async function checkLocalDatabase(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (!(await isFile(result))) return fail(`result database ${brief(result)} does not exist`);
  if (!(await isFile(expected))) return fail(`expected database ${brief(expected)} does not exist`);
  const type = String(options.db_type ?? 'duckdb');
  const open =
    type === 'duckdb' ? openDuckDb : type === 'sqlite3' || type === 'sqlite' ? openSqlite : undefined;
  if (!open) return fail(`db_type '${type}' is not supported (duckdb, sqlite3)`);
  const checks = new Set(
    options.check_type === undefined ? ['table', 'view'] : stringList(options.check_type),
  );
  for (const kind of ['table', 'view']) {
    if (checks.has(`${kind}-schema-content`)) checks.add(`${kind}-schema`);
    if (checks.has(`${kind}-schema`)) checks.add(kind);
  }
  const schema = typeof options.schema_name === 'string' ? options.schema_name : undefined;
  let a: DatabaseFile | undefined;
  let b: DatabaseFile | undefined;
  try {
    try {
      a = await open(result as string);
    } catch (e) {
      return fail(`result is not a ${type} database: ${(e as Error).message}`);
    }
    try {
      b = await open(expected as string);
    } catch (e) {
      return fail(`expected file is not a ${type} database: ${(e as Error).message}`);
    }
    const done: string[] = [];
    for (const kind of ['table', 'view'] as const) {
      if (!checks.has(kind)) continue;
      const targets = stringList(options[`${kind}_targets`]);
      const pick = (names: string[]) => (targets.length ? names.filter((n) => targets.includes(n)) : names);
      const na = pick(await a.objects(kind, schema));
      const nb = pick(await b.objects(kind, schema));
      if (!isDeepStrictEqual(na, nb)) return fail(`${kind}s ${brief(na)}, expected ${brief(nb)}`);
      if (targets.length && nb.length < targets.length)
        return fail(
          `${kind}s ${brief(targets.filter((t) => !nb.includes(t)))} are missing in both databases`,
        );
      done.push(`${na.length} ${kind} names`);
      if (checks.has(`${kind}-schema`)) {
        for (const name of na) {
          const ca = await a.columns(name, schema);
          const cb = await b.columns(name, schema);
          if (!isDeepStrictEqual(ca, cb))
            return fail(`${kind} ${name} has columns ${brief(ca)}, expected ${brief(cb)}`);
        }
        done.push(`${kind} schemas`);
      }
      if (checks.has(`${kind}-schema-content`)) {
        for (const name of na) {
          const ra = sortRows(await a.rows(name, schema));
          const rb = sortRows(await b.rows(name, schema));
          if (ra.length !== rb.length)
            return fail(`${kind} ${name} has ${ra.length} rows, expected ${rb.length}`);
          const i = ra.findIndex((r, k) => r !== rb[k]);
          if (i >= 0) return fail(`${kind} ${name} contents differ: ${brief(ra[i])} vs ${brief(rb[i])}`);
        }
        done.push(`${kind} contents`);
      }
    }
    return pass(`databases agree on ${done.join(', ') || 'nothing (no checks)'}`);
  } catch (e) {
    return fail(`cannot compare the databases: ${(e as Error).message}`);
  } finally {
    a?.close();
    b?.close();
  }
}

metrics.register('check_local_database', checkLocalDatabase);
