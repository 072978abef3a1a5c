// Getters that read cloud services. Proctor has no accounts: they report which one is needed.
import { NeedsAccountError } from '../../errors';
import { accountServiceOf } from '../../cloud-accounts';
import { getters, type Getter } from '../getter';

export { accountServiceOf };

export function needsAccount(name: string): Getter {
  const service = accountServiceOf(name) ?? 'unknown';
  return async () => {
    throw new NeedsAccountError(service, `getter ${name}`);
  };
}

const cloudGetters = [
  'bigquery_connections',
  'bigquery_datasets',
  'bigquery_sql_result_to_csv',
  'bigquery_table_to_csv',
  'bigquery_database_to_zip',
  'dbt_environment_info',
  'dbt_job_info',
  'dbt_project_info',
  'googlesheet_active_file',
  'snowflake_database_schema_to_csv',
  'snowflake_execution_result',
  'snowflake_function_result',
  'snowflake_log_message',
  'snowflake_table_to_csv',
  'snowflake_user_info',
  'snowflake_worksheet_names_in_folder',
  'snowflake_worksheet_sql',
  'snowflake_worksheet_sql_result',
  'workarena_task_result',
];
for (const name of cloudGetters) getters.register(name, needsAccount(name));
