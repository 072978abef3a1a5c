// Which cloud accounts a task needs (one service per setup func or getter name, and its `account` tag): read by the
// task reader (tasks/normalise.ts) and reported by the cloud getters (evaluators/getters/cloud.ts).

const rules: Array<[RegExp, string]> = [
  [/^snowflake_/, 'snowflake'],
  [/^(bigquery|googlesheet|googledrive|google_drive)_|^googledrive$/, 'google'],
  [/^dbt_cloud_|^dbt_(job|project|environment)_info$/, 'dbt_cloud'],
  [/^workarena_|servicenow/, 'servicenow'],
  [/^hasura_/, 'hasura'],
];

/** Service a setup func or getter type needs an account for, if any. */
export function accountServiceOf(name: string): string | undefined {
  for (const [re, service] of rules) if (re.test(name)) return service;
  return undefined;
}

/**
 * Services needed by a task: every service named by its setup/getter names; with an `account` tag and no
 * recognisable name, the app itself when it is a known service, else 'unknown'.
 */
export function accountsNeeded(names: Iterable<string>, tags: string[], app: string): string[] {
  const services = new Set<string>();
  for (const n of names) {
    const s = accountServiceOf(n);
    if (s) services.add(s);
  }
  if (services.size === 0 && tags.includes('account')) services.add(accountServiceOf(`${app}_`) ?? 'unknown');
  return [...services].sort();
}
