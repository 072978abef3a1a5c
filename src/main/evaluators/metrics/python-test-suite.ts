// OSWorld's check_python_file_by_test_suite (desktop_env/evaluators/metrics/vscode.py), registered in the `vscode`
// family by vscode.ts. Upstream imports the task's test file into the grader's own Python and calls its test
// function; Proctor never runs task or agent code in its own process: the files go to a fresh folder on the guest
// and /usr/bin/python3 runs them there, through the Environment, as a command.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { GradingContext } from '../getter';
import { fail, type MetricOutcome } from '../metric';
import { brief, readBytes } from './inputs';

/**
 * Proctor's runner (argv: folder, test file name, function name, marker). It loads the test file as a module with
 * the folder as working directory and first on sys.path, calls the function and prints one marked JSON line:
 * the score as OSWorld maps the return value (bool → 1/0, a number clamped to 0..1, anything else by truth), or
 * why it is 0 (the module does not load, no such function, not callable, the call raised).
 */
const RUNNER = String.raw`
import importlib.util, json, os, sys
folder, name, fn, marker = sys.argv[1:5]
sys.argv = [name]
def say(score, why):
    sys.stdout.flush()
    sys.stdout.write("\n" + marker + json.dumps({"score": score, "why": why}) + "\n")
    sys.stdout.flush()
def main():
    os.chdir(folder)
    sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location("proctor_test_suite", os.path.join(folder, name))
        module = importlib.util.module_from_spec(spec)
        sys.modules["proctor_test_suite"] = module
        spec.loader.exec_module(module)
    except Exception as e:
        return say(0.0, "the test file does not load: " + type(e).__name__ + ": " + str(e))
    if not hasattr(module, fn):
        return say(0.0, "the test file has no '" + fn + "'")
    f = getattr(module, fn)
    if not callable(f):
        return say(0.0, "'" + fn + "' is not callable")
    try:
        r = f()
    except Exception as e:
        return say(0.0, fn + "() raised " + type(e).__name__ + ": " + str(e))
    if isinstance(r, bool):
        return say(1.0 if r else 0.0, fn + "() returned " + str(r))
    if isinstance(r, (int, float)):
        return say(max(0.0, min(1.0, float(r))), fn + "() returned " + repr(r))
    return say(1.0 if r else 0.0, fn + "() returned a " + type(r).__name__ + ", taken as " + str(bool(r)))
main()
`;

/** The regular files directly in `dir` (the grading cache: every file fetched for the task), at most 500. */
function folderFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .slice(0, 500)
      .map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

function hostFiles(v: unknown): string[] {
  const list = Array.isArray(v) ? v : [v];
  return list.filter((p): p is string => typeof p === 'string' && existsSync(p) && statSync(p).isFile());
}

/**
 * check_python_file_by_test_suite — `result`: the agent's Python file(s) (host paths from `vm_file`); `expected`:
 * the task's test file (host path, e.g. from `cloud_file`); option `test_function_name` (default `test`). As
 * OSWorld: a missing test file scores 0; the test file is loaded as a module with its folder as working directory
 * and on sys.path (so it imports the agent's file by name), its function is called, and the score is what it
 * returns (True/False → 1/0, a number clamped to 0..1, anything else by its truth); an import error, a missing
 * function or an exception scores 0.
 *
 * Proctor runs no task or agent code in its own process: the files of the test file's folder (the grading cache:
 * every file fetched for the task, as upstream puts its cache folder on sys.path) and the result file(s) are
 * copied to a fresh folder under /tmp on the guest and `/usr/bin/python3` runs them there with the Environment's
 * `run` (a command, 5 minute limit; the folder is removed afterwards). Departures: only the cache's top-level
 * files go (at most 500), not its subfolders; the Python and its packages are the guest's, not the grader's. The graded code shares the runner's process, as upstream, so it could print a forged verdict line.
 */
export async function checkPythonFileByTestSuite(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  ctx: GradingContext,
): Promise<MetricOutcome> {
  const fn =
    typeof options.test_function_name === 'string' && options.test_function_name
      ? options.test_function_name
      : 'test';
  const [test] = hostFiles(expected);
  if (!test) return fail(`the test file ${brief(expected)} does not exist`);
  if (!ctx?.env)
    return fail('check_python_file_by_test_suite runs Python on the guest and needs an environment');
  const folder = `/tmp/proctor-test-suite-${randomBytes(6).toString('hex')}`;
  const marker = `@@proctor-test-suite-${randomBytes(8).toString('hex')}@@`;
  const testName = basename(test);
  try {
    const files = new Map<string, string>();
    for (const file of [...folderFiles(dirname(test)), ...hostFiles(result)]) files.set(basename(file), file);
    files.set(testName, test);
    for (const file of files.values()) {
      const data = await readBytes(file);
      if (data) await ctx.env.putFile(`${folder}/${basename(file)}`, data);
    }
    const r = await ctx.env.run(['/usr/bin/python3', '-c', RUNNER, folder, testName, fn, marker], {
      shell: false,
      timeoutMs: 300_000,
    });
    if (r.timedOut) return fail(`${fn}() in ${testName} did not finish within 5 minutes`);
    const line = r.stdout
      .split('\n')
      .filter((l) => l.startsWith(marker))
      .pop();
    if (!line)
      return fail(
        `python3 ended (exit ${r.exitCode}) without a verdict: ${r.stderr.trim().split('\n').slice(-3).join(' | ') || 'no output'}`,
      );
    let verdict: { score?: unknown; why?: unknown };
    try {
      verdict = JSON.parse(line.slice(marker.length)) as { score?: unknown; why?: unknown };
    } catch {
      return fail(`python3 printed an unreadable verdict: ${line.slice(0, 200)}`);
    }
    const score =
      typeof verdict.score === 'number' && verdict.score >= 0 && verdict.score <= 1 ? verdict.score : 0;
    return { score, reason: `${testName}: ${String(verdict.why ?? '')}` };
  } finally {
    await ctx.env
      .run(['rm', '-rf', '--', folder], { shell: false, timeoutMs: 30_000 })
      .catch(() => undefined);
  }
}
