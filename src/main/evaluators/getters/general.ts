// Getters that hand over values: rules, lists, command and script output.
import { readFile } from 'node:fs/promises';
import type { GetterSpec } from '../../../shared/task';
import { getters, specString, type GradingContext } from '../getter';
import { taskFilePath } from '../task-files';

/** rule `{rules}` — the rules object as it is (the expectation of most metrics). */
async function rule(spec: GetterSpec): Promise<unknown> {
  return spec.rules;
}

/** list `{list}` — the list as it is. */
async function list(spec: GetterSpec): Promise<unknown> {
  return spec.list;
}

/** Runs a command on the guest and returns its standard output (what OSWorld's /execute calls output). */
export async function commandOutput(
  ctx: GradingContext,
  command: string | string[],
  shell?: boolean,
): Promise<string> {
  const r = await ctx.env.run(command, { shell: shell ?? typeof command === 'string', timeoutMs: 300_000 });
  if (r.timedOut) throw new Error(`command ${JSON.stringify(command)} timed out`);
  return r.stdout;
}

/** vm_command_line `{command, shell?}` — the command's standard output. */
async function vmCommandLine(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const command = spec.command;
  if (
    typeof command !== 'string' &&
    !(Array.isArray(command) && command.every((c) => typeof c === 'string'))
  ) {
    throw new Error(`getter 'vm_command_line' needs 'command' as a string or a list of strings`);
  }
  return commandOutput(ctx, command as string | string[], spec.shell === true);
}

/** Uploads a task script (`src`, a task file) to the guest path `dest` and runs it with bash. */
export async function runTaskScript(spec: GetterSpec, ctx: GradingContext): Promise<string> {
  const src = specString(spec, 'src');
  const dest = specString(spec, 'dest');
  if (/^https?:/.test(src))
    throw new Error(
      `getter '${spec.type}': downloading scripts (${src}) is not supported; put the script in the task folder`,
    );
  const host = taskFilePath(ctx.task, src);
  let data: Buffer;
  try {
    data = await readFile(host);
  } catch {
    throw new Error(`${ctx.task.file}: eval script ${src} not found (looked at ${host})`);
  }
  await ctx.env.putFile(dest, data);
  await ctx.env.run(['chmod', 'a+x', dest], { shell: false });
  return commandOutput(ctx, ['/bin/bash', dest], false);
}

/**
 * vm_script_output `{src, dest, log?}` — uploads the task's script `src` to the guest path `dest`, runs it
 * with bash, and returns its standard output. Proctor extension for the native `compare_script_logs`:
 * with `log` (a guest path) the content of that file after the run is returned instead (the script's
 * output when the log does not exist).
 */
async function vmScriptOutput(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const out = await runTaskScript(spec, ctx);
  if (typeof spec.log === 'string') {
    const log = await ctx.env.getFile(spec.log);
    if (log !== undefined) return log.toString('utf8');
  }
  return out;
}

getters
  .register('rule', rule)
  .register('list', list)
  .register('vm_command_line', vmCommandLine)
  .register('vm_script_output', vmScriptOutput);
