// Minimal typing of the part of sql.js (SQLite compiled to WebAssembly) that Proctor uses (check_local_database,
// the update_browse_history setup step).
declare module 'sql.js' {
  interface QueryResult {
    columns: string[];
    values: unknown[][];
  }
  interface Database {
    exec(sql: string): QueryResult[];
    run(sql: string, params?: unknown[]): Database;
    export(): Uint8Array;
    close(): void;
  }
  interface SqlJsStatic {
    Database: new (data?: Uint8Array) => Database;
  }
  export default function initSqlJs(config?: Record<string, unknown>): Promise<SqlJsStatic>;
}
