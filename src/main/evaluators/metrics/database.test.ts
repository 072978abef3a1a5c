import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import initSqlJs from 'sql.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMetric, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);

async function duck(name: string, sql: string): Promise<string> {
  const p = join(tmp.dir, name);
  const db = await DuckDBInstance.create(p);
  const c = await db.connect();
  await c.run(sql);
  c.closeSync();
  db.closeSync();
  return p;
}

async function sqlite(name: string, sql: string): Promise<string> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.exec(sql);
  const p = join(tmp.dir, name);
  writeFileSync(p, (db as unknown as { export(): Uint8Array }).export());
  db.close();
  return p;
}

describe('check_local_database (DuckDB)', () => {
  const schema =
    'CREATE SCHEMA snapshots; CREATE TABLE snapshots.orders_snapshot (id INTEGER, status VARCHAR); CREATE TABLE customers (id INTEGER, name VARCHAR);';
  it('passes for the same contents inserted in another order', async () => {
    const gold = await duck(
      'gold.duckdb',
      `${schema} INSERT INTO snapshots.orders_snapshot VALUES (1,'a'),(2,'b'); INSERT INTO customers VALUES (1,'x');`,
    );
    const res = await duck(
      'res.duckdb',
      `${schema} INSERT INTO snapshots.orders_snapshot VALUES (2,'b'),(1,'a'); INSERT INTO customers VALUES (1,'x');`,
    );
    expect(
      (
        await runMetric('check_local_database', res, gold, {
          db_type: 'duckdb',
          check_type: ['table-schema-content'],
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('check_local_database', res, gold, {
          db_type: 'duckdb',
          check_type: ['table-schema-content'],
          table_targets: ['orders_snapshot'],
          schema_name: 'snapshots',
        })
      ).score,
    ).toBe(1);
  });
  it('fails on different contents, schema or table names and says which', async () => {
    const gold = await duck('gold2.duckdb', `${schema} INSERT INTO customers VALUES (1,'x');`);
    const other = await duck('other.duckdb', `${schema} INSERT INTO customers VALUES (1,'y');`);
    const r = await runMetric('check_local_database', other, gold, {
      db_type: 'duckdb',
      check_type: ['table-schema-content'],
    });
    expect(r.score).toBe(0);
    expect(r.reason).toContain('table customers contents differ');
    const typed = await duck(
      'typed.duckdb',
      'CREATE SCHEMA snapshots; CREATE TABLE snapshots.orders_snapshot (id BIGINT, status VARCHAR); CREATE TABLE customers (id INTEGER, name VARCHAR);',
    );
    expect(
      (
        await runMetric('check_local_database', typed, gold, {
          db_type: 'duckdb',
          check_type: ['table-schema'],
        })
      ).reason,
    ).toContain('orders_snapshot has columns');
    const fewer = await duck('fewer.duckdb', 'CREATE TABLE customers (id INTEGER, name VARCHAR);');
    expect((await runMetric('check_local_database', fewer, gold, { db_type: 'duckdb' })).reason).toMatch(
      /^tables/,
    );
    // names only (the default check) ignore contents
    expect((await runMetric('check_local_database', other, gold, { db_type: 'duckdb' })).score).toBe(1);
  });
  it('a missing or non-database result scores 0', async () => {
    const gold = await duck('gold3.duckdb', 'CREATE TABLE t (a INTEGER);');
    expect(
      (await runMetric('check_local_database', join(tmp.dir, 'none.duckdb'), gold, { db_type: 'duckdb' }))
        .reason,
    ).toContain('does not exist');
    const junk = join(tmp.dir, 'junk.duckdb');
    writeFileSync(junk, 'not a database');
    expect((await runMetric('check_local_database', junk, gold, { db_type: 'duckdb' })).score).toBe(0);
  });
});

describe('check_local_database (SQLite)', () => {
  it('table-schema compares PRAGMA table_info per table', async () => {
    const gold = await sqlite(
      'gold.sqlite',
      'CREATE TABLE covid (date TEXT, cases INTEGER); CREATE TABLE places (key TEXT PRIMARY KEY);',
    );
    const same = await sqlite(
      'same.sqlite',
      "CREATE TABLE covid (date TEXT, cases INTEGER); CREATE TABLE places (key TEXT PRIMARY KEY); INSERT INTO covid VALUES ('2020', 1);",
    );
    const other = await sqlite(
      'other.sqlite',
      'CREATE TABLE covid (date TEXT, cases REAL); CREATE TABLE places (key TEXT PRIMARY KEY);',
    );
    const opts = { db_type: 'sqlite3', check_type: ['table-schema'] };
    expect((await runMetric('check_local_database', same, gold, opts)).score).toBe(1);
    expect((await runMetric('check_local_database', other, gold, opts)).reason).toContain(
      'covid has columns',
    );
    expect(
      (
        await runMetric('check_local_database', same, gold, {
          db_type: 'sqlite3',
          check_type: ['table-schema-content'],
        })
      ).score,
    ).toBe(0);
    expect((await runMetric('check_local_database', same, gold, { db_type: 'postgres' })).reason).toContain(
      'not supported',
    );
  });
});
